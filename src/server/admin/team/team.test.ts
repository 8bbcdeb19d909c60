import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { pageRoutesForTests } from "../../../../test/page-paths.ts";
import { adminHref, type AdminRouteName, adminRoutes } from "#shared/admin/routes.ts";
import { apiPaths } from "#shared/paths.ts";
import { CONTENT_VERSION_KEY } from "../../content/data-version.ts";
import { auditEvents, contentRevisions, teamMembers } from "../../db/schema.ts";
import { queryRows } from "../../db/client.ts";
import { postForm, postJson, propsOf, setCanPublish, uniqueEmail } from "../studio/studio-test-kit.ts";
import {
  addMember,
  aPhoto,
  auditOf,
  memberFields,
  memberRow,
  orders,
  pageTeams,
  publicTeam,
  revisionsOf,
} from "./team-test-kit.ts";

// The team in the studio, through inject() on both databases
// (docs/decisions/043-the-team-order-is-not-a-revision.md): adding a member shown or hidden, every
// save a revision and a shown member's published at once, Show and Hide (and never a hidden
// member on any public address), the trash, Move up / Move down and the order after dragging,
// the Author select; and every refusal (no session, another site, no right, malformed or hostile
// input, another member's revision, a stale one) a clear 4xx that changes nothing.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("../studio/studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

const someId = "00000000-0000-4000-8000-000000000000";

describe.each(testDrivers)("the team in the studio on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let member: StaffWithSession;
  let publisher: StaffWithSession;
  let photo: string;
  let otherPhoto: string;
  beforeAll(async () => {
    // The site's content: eight members, shown, in the files' order.
    t = await buildAdminTestApp(driver, { content: true, startAt: new Date() });
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    publisher = await staffWithSession(t, { email: uniqueEmail("asha"), name: "Asha Patel", role: "staff" });
    await setCanPublish(t, publisher, true);
    photo = await aPhoto(t);
    otherPhoto = await aPhoto(t, true);
  });
  afterAll(async () => {
    await t.close();
  });

  const list = async (person: StaffWithSession = admin, query = "") =>
    propsOf(await t.send({ method: "GET", url: `${adminHref("team")}${query}`, cookie: person.cookie }), "team");
  const page = async (id: string, person: StaffWithSession = admin) =>
    propsOf(await t.send({ method: "GET", url: adminHref("teamMember", { id }), cookie: person.cookie }), "team-member")
      .member;
  const headOf = async (id: string) => (await memberRow(t, id)).headRevisionId!;
  const save = async (id: string, person: StaffWithSession, fields: Record<string, string>, base?: number) =>
    postForm(t, adminHref("teamMemberSave", { id }), person, { ...fields, baseRevisionId: base ?? (await headOf(id)) });
  const act = async (
    name: "teamMemberShow" | "teamMemberHide" | "teamMemberTrash" | "teamMemberUntrash",
    id: string,
    person: StaffWithSession = admin,
    base?: number,
    back?: string,
  ) =>
    postForm(t, adminHref(name, { id }), person, {
      baseRevisionId: base ?? (await headOf(id)),
      ...(back ? { back } : {}),
    });
  const move = (id: string, direction: string, person: StaffWithSession = admin) =>
    postForm(t, adminHref("teamMemberMove", { id }), person, { direction });
  const version = async () =>
    (
      await queryRows<{ value: string }>(
        t.database.db,
        sql`select value from app_settings where key = ${CONTENT_VERSION_KEY}`,
      )
    )[0]?.value;
  /** Everything a change could touch: the member's row and revisions, the order, the audit trail. */
  const snapshot = async (id?: string) => ({
    row: id ? await memberRow(t, id) : undefined,
    revisions: id ? await revisionsOf(t, id) : undefined,
    members: (await t.database.db.select({ n: count() }).from(teamMembers))[0]!.n,
    allRevisions: (await t.database.db.select({ n: count() }).from(contentRevisions))[0]!.n,
    orders: await orders(t),
    audit: (await t.database.db.select({ n: count() }).from(auditEvents))[0]!.n,
    version: await version(),
  });

  describe("the list", () => {
    it("shows every member in the team's order with photo, name, title and whether shown; changes for publishers only", async () => {
      const forAdmin = await list(admin);
      const names = forAdmin.rows.map((row) => row.name);
      expect(names.slice(0, 3)).toEqual(await publicTeam(t).then((team) => team.slice(0, 3)));
      expect(forAdmin.rows.map((row) => row.position)).toEqual(forAdmin.rows.map((_, index) => index + 1));
      expect(forAdmin.rows[0]).toMatchObject({
        name: "Dr. Rajesh Mehta",
        title: "Managing Director & Principal Consultant",
        status: "shown",
        imageUrl: expect.stringMatching(/^\/(images|media)\//),
      });
      expect(forAdmin.canChange).toBe(true);
      expect((await list(publisher)).canChange).toBe(true);
      // Everyone sees the team; a member of staff without Can publish changes nothing of it.
      const forMember = await list(member);
      expect(forMember.canChange).toBe(false);
      const html = (await t.send({ method: "GET", url: adminHref("team"), cookie: member.cookie })).body;
      expect(html).not.toContain("Move up");
      expect(html).not.toContain(adminHref("teamMemberNew"));
      expect(html).toContain("Changing the team needs an admin, or someone an admin has allowed to publish");
    });

    it("refuses a `focus` that names no move with 400", async () => {
      for (const focus of ["sideways-1", `up-${someId}x`, "up-", "\u0000"]) {
        const response = await t.send({
          method: "GET",
          url: `${adminHref("team")}?focus=${encodeURIComponent(focus)}`,
          cookie: admin.cookie,
        });
        expect(response.statusCode, focus).toBe(400);
        expect(response.body).toContain("`focus` must be up-&lt;member id&gt; or down-&lt;member id&gt;.");
      }
    });
  });

  describe("adding a member", () => {
    it.each(["www.linkedin.com/in/kiran-desai", "linkedin.com/in/kiran-desai", "IN.linkedin.com/in/kiran-desai"])(
      "takes a LinkedIn address copied without https:// (%s) and stores it with it",
      async (typed) => {
        const id = await addMember(t, publisher, memberFields(photo, { name: "Kiran Schemeless", linkedinUrl: typed }));
        expect((await memberRow(t, id)).linkedinUrl).toBe(`https://${typed}`);
      },
    );

    it("shown: revision 1, the published copy, last in the team, on the API and the About page, in the Author select; audited", async () => {
      const before = await version();
      const id = await addMember(t, publisher, memberFields(photo, { name: "Zubin Shownfirst" }));
      const row = await memberRow(t, id);
      expect(row).toMatchObject({
        slug: "zubin-shownfirst",
        status: "published",
        name: "Zubin Shownfirst",
        title: "Senior Engineer, Protection",
        imageUrl: photo,
        email: "kiran.desai@example.com",
        linkedinUrl: "https://www.linkedin.com/in/kiran-desai",
        deletedAt: null,
        studioChangedByLabel: "Asha Patel",
      });
      const [first] = await revisionsOf(t, id);
      expect(first).toMatchObject({ number: 1, source: "studio", authorLabel: "Asha Patel", id: row.headRevisionId });
      expect(row.publishedRevisionId).toBe(first!.id);
      // The revision holds the member's document, never their place.
      expect(Object.keys(first!.document).sort()).toEqual(
        ["email", "expertise", "imageUrl", "linkedinUrl", "name", "slug", "title"].sort(),
      );
      const rows = (await list()).rows;
      expect(rows.at(-1)).toMatchObject({ id, name: "Zubin Shownfirst", status: "shown", position: rows.length });
      expect(await version()).not.toBe(before);
      expect((await publicTeam(t)).at(-1)).toBe("Zubin Shownfirst");
      expect((await pageTeams(t.app)).about.at(-1)).toBe("Zubin Shownfirst");
      // An article's author is chosen from the team: the new member is among them.
      const editor = propsOf(
        await t.send({ method: "GET", url: adminHref("articleNew"), cookie: member.cookie }),
        "article-editor",
      ).editor;
      expect(editor.authors).toContainEqual({ slug: "zubin-shownfirst", name: "Zubin Shownfirst" });
      expect(await auditOf(t, id)).toEqual([
        {
          action: "team-member-created",
          actor: "Asha Patel",
          details: { revision: 1, slug: "zubin-shownfirst", shown: true },
        },
      ]);
      // The same name again gets the next free file name.
      const again = await addMember(t, admin, memberFields(photo, { name: "Zubin Shownfirst" }), "hidden");
      expect((await memberRow(t, again)).slug).toBe("zubin-shownfirst-2");
    });

    it("hidden: nothing public changes; Show puts them on the site, Hide takes them off everywhere, API included", async () => {
      const MARK = "Zqxhidden Member";
      const before = await publicTeam(t);
      const id = await addMember(t, admin, memberFields(photo, { name: MARK }), "hidden");
      expect(await memberRow(t, id)).toMatchObject({ status: "draft", publishedRevisionId: null, name: null });
      expect(await publicTeam(t)).toEqual(before);
      expect((await page(id)).status).toBe("hidden");
      const authors = async () =>
        propsOf(await t.send({ method: "GET", url: adminHref("articleNew"), cookie: admin.cookie }), "article-editor")
          .editor.authors;
      expect((await authors()).map((author) => author.name)).not.toContain(MARK);

      const shown = await act("teamMemberShow", id, admin, undefined, "list");
      expect(shown.statusCode).toBe(303);
      expect(shown.headers.location).toBe(adminHref("team", {}, { notice: "team-member-shown" }));
      expect(await publicTeam(t)).toEqual([...before, MARK]);
      expect((await pageTeams(t.app)).about).toContain(MARK);
      expect((await authors()).map((author) => author.name)).toContain(MARK);

      const hidden = await act("teamMemberHide", id);
      expect(hidden.statusCode).toBe(303);
      expect(hidden.headers.location).toBe(adminHref("teamMember", { id }, { notice: "team-member-hidden" }));
      expect(await memberRow(t, id)).toMatchObject({ status: "unpublished" });
      expect(await publicTeam(t)).toEqual(before);
      // Not on any page, feed or answer of the public site.
      for (const url of [...pageRoutesForTests, apiPaths.teamMembers, "/rss.xml", "/sitemap.xml"]) {
        const response = await t.app.inject({ method: "GET", url });
        expect(response.statusCode, url).toBe(200);
        expect(response.body.includes("Zqxhidden"), url).toBe(false);
      }
      expect((await authors()).map((author) => author.name)).not.toContain(MARK);
      expect((await auditOf(t, id)).map((event) => event.action)).toEqual([
        "team-member-created",
        "team-member-shown",
        "team-member-hidden",
      ]);
      // Showing a shown member, or hiding a hidden one: 409, nothing done.
      const state = await snapshot(id);
      const again = await act("teamMemberHide", id);
      expect(again.statusCode).toBe(409);
      expect(propsOf(again, "team-member").error).toBe("This member is hidden already.");
      expect(await snapshot(id)).toEqual(state);
    });
  });

  describe("saving", () => {
    it("a shown member's save is a new revision on the site at once; a hidden member's is not public; the same text again makes none", async () => {
      const id = await addMember(t, admin, memberFields(photo, { name: "Leela Savedshown" }));
      const saved = await save(
        id,
        publisher,
        memberFields(otherPhoto, { name: "Leela Savedshown", title: "Head of Studies", email: "" }),
      );
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe(adminHref("teamMember", { id }, { notice: "team-member-saved-shown" }));
      const row = await memberRow(t, id);
      const revisions = await revisionsOf(t, id);
      expect(revisions.map((revision) => [revision.number, revision.authorLabel])).toEqual([
        [1, "Meera Shah"],
        [2, "Asha Patel"],
      ]);
      expect(row).toMatchObject({
        title: "Head of Studies",
        imageUrl: otherPhoto,
        email: null,
        headRevisionId: revisions[1]!.id,
        publishedRevisionId: revisions[1]!.id,
      });
      const api = (await t.app.inject({ method: "GET", url: "/api/team-members" })).json<
        { name: string; title: string }[]
      >();
      expect(api.find((entry) => entry.name === "Leela Savedshown")?.title).toBe("Head of Studies");

      const unchanged = await save(
        id,
        publisher,
        memberFields(otherPhoto, { name: "Leela Savedshown", title: "Head of Studies", email: "" }),
      );
      expect(unchanged.headers.location).toBe(adminHref("teamMember", { id }, { notice: "team-member-unchanged" }));
      expect(await revisionsOf(t, id)).toHaveLength(2);

      await act("teamMemberHide", id);
      const quiet = await save(
        id,
        admin,
        memberFields(otherPhoto, { name: "Leela Savedshown", title: "Not public yet" }),
      );
      expect(quiet.headers.location).toBe(adminHref("teamMember", { id }, { notice: "team-member-saved-hidden" }));
      expect(await memberRow(t, id)).toMatchObject({ title: "Head of Studies", status: "unpublished" });
      expect((await page(id)).fields.title).toBe("Not public yet");
      // Show publishes the head: what the page showed.
      await act("teamMemberShow", id);
      expect(await memberRow(t, id)).toMatchObject({ title: "Not public yet", status: "published" });
      expect((await auditOf(t, id)).map((event) => event.action)).toEqual([
        "team-member-created",
        "team-member-changed",
        "team-member-hidden",
        "team-member-changed",
        "team-member-shown",
      ]);
    });

    it("a stale save is refused with 409 showing both texts, keeping what was typed; saved again from there it wins", async () => {
      const id = await addMember(t, admin, memberFields(photo, { name: "Omar Conflicted" }));
      const base = await headOf(id);
      expect(
        (await save(id, publisher, memberFields(photo, { name: "Omar Conflicted", title: "Theirs" }), base)).statusCode,
      ).toBe(303);
      const state = await snapshot(id);
      const refused = await save(id, admin, memberFields(photo, { name: "Omar Conflicted", title: "Mine" }), base);
      expect(refused.statusCode).toBe(409);
      const props = propsOf(refused, "team-member");
      expect(props.error).toMatch(
        /^Changed by Asha Patel at \d\d:\d\d(?: on [^()]+)? \(revision 2\), so your change was not saved\.$/,
      );
      expect(props.member.conflict).toMatchObject({
        current: { number: 2, by: "Asha Patel" },
        fields: { title: "Theirs" },
      });
      expect(props.member.fields.title).toBe("Mine");
      expect(props.form?.values.baseRevisionId).toBe(String(state.row!.headRevisionId));
      expect(refused.body).toContain('data-conflict-mine="title"');
      expect(refused.body).toContain('data-conflict-theirs="title"');
      expect(await snapshot(id)).toEqual(state);
      // Saved again on the head it was shown: it wins, and theirs stays in the revisions.
      const again = await save(
        id,
        admin,
        memberFields(photo, { name: "Omar Conflicted", title: "Mine" }),
        state.row!.headRevisionId!,
      );
      expect(again.statusCode).toBe(303);
      expect((await memberRow(t, id)).title).toBe("Mine");
      expect((await revisionsOf(t, id)).map((revision) => revision.document.title)).toEqual([
        "Senior Engineer, Protection",
        "Theirs",
        "Mine",
      ]);
    });

    it("another member's revision as the base is stale: 409, nothing changed", async () => {
      const one = await addMember(t, admin, memberFields(photo, { name: "Pia One" }));
      const two = await addMember(t, admin, memberFields(photo, { name: "Pia Two" }));
      const state = await snapshot(one);
      const otherBase = await headOf(two);
      expect(
        (await save(one, admin, memberFields(photo, { name: "Pia One", title: "Changed" }), otherBase)).statusCode,
      ).toBe(409);
      for (const name of ["teamMemberHide", "teamMemberTrash"] as const) {
        expect((await act(name, one, admin, otherBase)).statusCode).toBe(409);
      }
      expect(await snapshot(one)).toEqual(state);
    });

    const LINKEDIN =
      "LinkedIn must be the https:// address of a LinkedIn profile, like https://www.linkedin.com/in/meera-iyer";
    it.each([
      ["an empty name", { name: "" }, "name", "Name is required"],
      ["a NUL in the name", { name: "Nul\u0000here" }, "name", "Name must not contain control characters"],
      ["an ESC in the title", { title: "a\u001bb" }, "title", "Title must not contain control characters"],
      [
        "a C1 control in the expertise",
        { expertise: "a\u0085b" },
        "expertise",
        "Expertise must not contain control characters",
      ],
      ["a name of two lines", { name: "Two\nlines" }, "name", "Name must be a single line of text"],
      ["a name of 121 characters", { name: "x".repeat(121) }, "name", "Name must be at most 120 characters"],
      [
        "an expertise of 301 characters",
        { expertise: "x".repeat(301) },
        "expertise",
        "Expertise must be at most 300 characters",
      ],
      ["no photo", { imageUrl: "" }, "imageUrl", "Choose a photo"],
      [
        "a photo from elsewhere",
        { imageUrl: "https://evil.example/x.png" },
        "imageUrl",
        "Photo must be one of the pictures of the media library",
      ],
      [
        "a photo not in the library",
        { imageUrl: "/images/nowhere/ghost.svg" },
        "imageUrl",
        "Photo must be one of the pictures of the media library",
      ],
      [
        "an email that is not one",
        { email: "not-an-address" },
        "email",
        "Email must be an email address, like meera.iyer@example.com",
      ],
      ["a LinkedIn on http", { linkedinUrl: "http://www.linkedin.com/in/x" }, "linkedinUrl", LINKEDIN],
      ["a LinkedIn elsewhere", { linkedinUrl: "https://linkedin.com.evil.example/in/x" }, "linkedinUrl", LINKEDIN],
      ["a LinkedIn with a password", { linkedinUrl: "https://a:b@www.linkedin.com/in/x" }, "linkedinUrl", LINKEDIN],
      ["a script as LinkedIn", { linkedinUrl: "javascript:alert(1)" }, "linkedinUrl", LINKEDIN],
      [
        "a LinkedIn look-alike without https://",
        { linkedinUrl: "linkedin.com.evil.example/in/x" },
        "linkedinUrl",
        LINKEDIN,
      ],
    ])("refuses %s at its field (422), adding and changing nothing", async (_label, fields, field, message) => {
      const id = await addMember(t, admin, memberFields(photo, { name: "Ravi Unchanged" }));
      const state = await snapshot(id);
      const added = await postForm(t, adminHref("teamMemberCreate"), admin, {
        ...memberFields(photo, fields),
        visibility: "shown",
      });
      expect(added.statusCode).toBe(422);
      const props = propsOf(added, "team-member");
      expect(props.form?.errors[field]).toBe(message);
      // What was typed is kept (control characters aside).
      expect(props.member.fields.title).toBe(field === "title" ? "ab" : memberFields(photo, fields).title);
      const saved = await save(id, admin, memberFields(photo, { name: "Ravi Unchanged", ...fields }));
      expect(saved.statusCode).toBe(422);
      expect(propsOf(saved, "team-member").form?.errors[field]).toBe(message);
      expect(await snapshot(id)).toEqual(state);
    });

    it("refuses a new member that is neither shown nor hidden, and a save without its revision, with the form kept", async () => {
      const state = await snapshot();
      const added = await postForm(t, adminHref("teamMemberCreate"), admin, {
        ...memberFields(photo),
        visibility: "public",
      });
      expect(added.statusCode).toBe(422);
      expect(propsOf(added, "team-member").form?.errors.visibility).toBe(
        "Choose whether the member is shown on the site or hidden.",
      );
      const id = await addMember(t, admin, memberFields(photo, { name: "Sana Baseless" }));
      const before = await snapshot(id);
      for (const baseRevisionId of ["", "x", "0", "1 or 1=1", "9".repeat(20)]) {
        const saved = await postForm(t, adminHref("teamMemberSave", { id }), admin, {
          ...memberFields(photo, { name: "Sana Changed" }),
          baseRevisionId,
        });
        expect(saved.statusCode, baseRevisionId).toBe(422);
        expect(propsOf(saved, "team-member").form?.errors.baseRevisionId).toBe(
          "The form did not say which revision it was made from: reload the page and try again.",
        );
        for (const name of ["teamMemberShow", "teamMemberHide", "teamMemberTrash"] as const) {
          const acted = await postForm(t, adminHref(name, { id }), admin, { baseRevisionId });
          expect(acted.statusCode, `${name} ${baseRevisionId}`).toBe(400);
        }
      }
      expect(await snapshot(id)).toEqual(before);
      expect((await snapshot()).members).toBe(state.members + 1);
    });
  });

  describe("the trash", () => {
    it("takes a shown member off the site and keeps them; Restore brings them back hidden, last; both audited", async () => {
      const id = await addMember(t, admin, memberFields(photo, { name: "Tara Trashed" }));
      const base = await headOf(id);
      const trashed = await act("teamMemberTrash", id, publisher);
      expect(trashed.statusCode).toBe(303);
      expect(trashed.headers.location).toBe(adminHref("team", {}, { notice: "team-member-trashed" }));
      expect(await publicTeam(t)).not.toContain("Tara Trashed");
      const listed = await list();
      expect(listed.rows.map((row) => row.id)).not.toContain(id);
      expect(listed.trash.map((row) => row.name)).toContain("Tara Trashed");
      // In the trash it can be seen, not changed: a save, Show, Hide, a move answer 404.
      expect((await page(id)).status).toBe("trash");
      const state = await snapshot(id);
      expect((await save(id, admin, memberFields(photo, { name: "Tara Changed" }), base)).statusCode).toBe(404);
      expect((await act("teamMemberShow", id, admin, base)).statusCode).toBe(404);
      expect((await move(id, "up")).statusCode).toBe(404);
      expect(await snapshot(id)).toEqual(state);

      const restored = await act("teamMemberUntrash", id, publisher);
      expect(restored.statusCode).toBe(303);
      expect(restored.headers.location).toBe(adminHref("team", {}, { notice: "team-member-untrashed" }));
      expect(await memberRow(t, id)).toMatchObject({ deletedAt: null, status: "unpublished" });
      expect(await publicTeam(t)).not.toContain("Tara Trashed");
      const rows = (await list()).rows;
      expect(rows.at(-1)).toMatchObject({ id, status: "hidden", position: rows.length });
      // Restoring one that is not in the trash: 409.
      expect((await act("teamMemberUntrash", id)).statusCode).toBe(409);
      expect((await auditOf(t, id)).map((event) => [event.action, event.actor])).toEqual([
        ["team-member-created", "Meera Shah"],
        ["team-member-trashed", "Asha Patel"],
        ["team-member-untrashed", "Asha Patel"],
      ]);
    });
  });

  describe("the order", () => {
    const numbersAreWhole = async () => {
      const all = await orders(t);
      expect(all.map((row) => row.order)).toEqual(all.map((_, index) => index + 1));
      // Members not in the trash come first.
      const trashed = all.filter((row) => row.deletedAt);
      expect(all.slice(all.length - trashed.length)).toEqual(trashed);
    };

    it("Move up and Move down swap neighbours, renumber everyone 1, 2, 3…, move the public order at once, and are audited", async () => {
      const id = await addMember(t, admin, memberFields(photo, { name: "Uma Climber" }));
      const start = (await list()).rows;
      const from = start.find((row) => row.id === id)!.position;
      const above = start[from - 2]!;
      const before = await version();
      const moved = await move(id, "up", publisher);
      expect(moved.statusCode).toBe(303);
      expect(moved.headers.location).toBe(adminHref("team", {}, { notice: "team-moved", focus: `up-${id}` }));
      const after = (await list()).rows;
      expect(after.find((row) => row.id === id)!.position).toBe(from - 1);
      expect(after.find((row) => row.id === above.id)!.position).toBe(from);
      await numbersAreWhole();
      expect(await version()).not.toBe(before);
      // To the top, one press at a time: the home page's first card, the About page's first, the API's first.
      for (let place = from - 1; place > 1; place -= 1) expect((await move(id, "up", admin)).statusCode).toBe(303);
      expect((await list()).rows[0]!.id).toBe(id);
      expect((await publicTeam(t))[0]).toBe("Uma Climber");
      const pages = await pageTeams(t.app);
      expect(pages.home).toHaveLength(3);
      expect(pages.home[0]).toBe("Uma Climber");
      expect(pages.about[0]).toBe("Uma Climber");
      // At the top, up again moves nothing and says so; the focus then goes to its Move down.
      const stuck = await move(id, "up");
      expect(stuck.headers.location).toBe(adminHref("team", {}, { notice: "team-not-moved", focus: `up-${id}` }));
      const focused = await t.send({ method: "GET", url: String(stuck.headers.location), cookie: admin.cookie });
      expect(propsOf(focused, "team").focus).toEqual({ id, direction: "up" });
      expect(focused.body).toMatch(new RegExp(`<button[^>]*id="move-down-${id}"[^>]*autofocus=""`));
      expect(focused.body).toMatch(
        new RegExp(`<button[^>]*disabled=""[^>]*id="move-up-${id}"|<button[^>]*id="move-up-${id}"[^>]*disabled=""`),
      );
      // Down moves it back one place.
      await move(id, "down");
      expect((await list()).rows[1]!.id).toBe(id);
      await numbersAreWhole();
      const events = (await auditOf(t, id)).filter((event) => event.action === "team-order-changed");
      expect(events[0]).toEqual({
        action: "team-order-changed",
        actor: "Asha Patel",
        details: { direction: "up", from, to: from - 1 },
      });
      expect(events.at(-1)?.details).toEqual({ direction: "down", from: 1, to: 2 });
      // Put back where it was, for the other tests.
      await act("teamMemberTrash", id);
    });

    it("refuses a direction that is not one, and a member who is not one, changing nothing", async () => {
      const id = (await list()).rows[1]!.id;
      const state = await snapshot();
      for (const direction of ["", "left", "UP", "up\u0000"]) {
        const response = await move(id, direction);
        expect(response.statusCode, direction).toBe(400);
        expect(response.body).toContain("Choose to move the member up or down.");
      }
      for (const other of [someId, "not-a-uuid", "1 or 1=1"]) {
        expect((await move(other, "up")).statusCode).toBe(404);
      }
      expect(await snapshot()).toEqual(state);
    });

    it("two people moving at once take turns: both moves are made, with no gaps and no ties", async () => {
      const rows = (await list()).rows;
      const [a, b] = [rows[3]!, rows[5]!];
      const results = await Promise.all([move(a.id, "up", admin), move(b.id, "down", publisher)]);
      expect(results.map((response) => response.statusCode)).toEqual([303, 303]);
      const after = (await list()).rows;
      expect(after.find((row) => row.id === a.id)!.position).toBe(a.position - 1);
      expect(after.find((row) => row.id === b.id)!.position).toBe(b.position + 1);
      await numbersAreWhole();
      // Many at once, up and down: every answer a 303, the numbers whole.
      const many = await Promise.all(
        after.slice(0, 6).map((row, index) => move(row.id, index % 2 ? "up" : "down", index % 2 ? admin : publisher)),
      );
      expect(many.every((response) => response.statusCode === 303)).toBe(true);
      await numbersAreWhole();
      expect(new Set((await list()).rows.map((row) => row.id)).size).toBe(after.length);
    });

    it("the order after dragging: saved as posted, audited; refused when the team changed meanwhile or the order is not one", async () => {
      const rows = (await list()).rows;
      const ids = rows.map((row) => row.id);
      const reordered = [ids[2]!, ids[0]!, ids[1]!, ...ids.slice(3)];
      const before = await version();
      const answer = await postJson(t, adminHref("teamOrder"), publisher, { order: reordered });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ redirect: adminHref("team", {}, { notice: "team-reordered" }) });
      expect((await list()).rows.map((row) => row.id)).toEqual(reordered);
      await numbersAreWhole();
      expect(await version()).not.toBe(before);
      const [event] = await t.database.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.targetType, "team"))
        .orderBy(auditEvents.id);
      expect(event).toMatchObject({ action: "team-order-changed", actorLabel: "Asha Patel" });
      expect((event!.details as { after: string[] }).after.slice(0, 3)).toEqual(
        [rows[2]!, rows[0]!, rows[1]!].map((row) => row.name),
      );

      const state = await snapshot();
      const refusals: [unknown, number, string][] = [
        [{ order: reordered.slice(1) }, 409, "The team changed since this page was opened"],
        [{ order: [...reordered.slice(1), someId] }, 409, "The team changed since this page was opened"],
        [{ order: [...reordered, reordered[0]] }, 400, "The order names a member twice."],
        [{ order: [] }, 400, "The order must list every member of the team once, by id."],
        [{ order: "a,b" }, 400, "The order must list every member of the team once, by id."],
        [{ order: ["not-a-uuid"] }, 400, "The order must list every member of the team once, by id."],
        [{ order: [1, 2] }, 400, "The order must list every member of the team once, by id."],
        [{}, 400, "The order must list every member of the team once, by id."],
        [
          { order: Array.from({ length: 1001 }, () => someId) },
          400,
          "The order must list every member of the team once, by id.",
        ],
      ];
      for (const [body, status, message] of refusals) {
        const refused = await postJson(t, adminHref("teamOrder"), admin, body);
        expect(refused.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
        expect(refused.json().message).toContain(message);
      }
      expect(await snapshot()).toEqual(state);
    });
  });

  // Who may use each route (no session, another site, without Can publish) is walked with every
  // other route's in door/door.test.ts; here, what a wrong id is told.
  describe("a member id that names no one", () => {
    /** Every team route but the list. */
    const changes = (Object.keys(adminRoutes) as AdminRouteName[]).filter(
      (name) => name.startsWith("team") && name !== "team",
    );

    it.each(["not-a-uuid", someId, "1 or 1=1", "%00", "00000000-0000-4000-8000-00000000000G"])(
      "answers 404 for a member id %s on every route that names one",
      async (id) => {
        const state = await snapshot();
        for (const name of changes.filter((route) => adminRoutes[route].path.includes(":id"))) {
          const route = adminRoutes[name];
          const response = await t.send({
            method: route.method,
            url: route.path.replace(":id", id),
            cookie: admin.cookie,
            payload: { ...memberFields(photo), baseRevisionId: "1", direction: "up" },
          });
          expect(response.statusCode, `${name} ${id}`).toBe(404);
          expect(response.body).toContain("There is no such member of the team.");
        }
        expect(await snapshot()).toEqual(state);
      },
    );
  });
});
