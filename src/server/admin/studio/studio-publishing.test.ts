import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  newSessionFor,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { auditEvents, blogPosts, contentLinks, contentRedirects, contentRevisions, staff } from "../../db/schema.ts";
import { createContentLink } from "../../content/links.ts";
import { getArticle, listBlogPosts, listFeedArticles } from "../../content/public-content.ts";
import { staffAuthor } from "../../content/byline.ts";
import { isoToIndiaLocal } from "./article-fields.ts";
import {
  articleFields,
  articleRow,
  createArticle,
  HOSTILE_BODY,
  hasScriptVector,
  headOf,
  postForm,
  postJson,
  propsOf,
  setCanPublish,
  uniqueEmail,
} from "./studio-test-kit.ts";

// Publishing through the studio, on both databases: who may (admins, and staff an admin allowed:
// "Can publish"), the checklist, publish now and scheduled, the publish time a revision carries,
// unpublish, the trash, slug changes and their redirects, what the public then reads (pages,
// /rss.xml, the API) including hostile Markdown, and the audit trail of each.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("./studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

const UNPUBLISH_FIRST =
  "This article is public: its date can move into the past, not into the future. Unpublish it first, then schedule it.";

describe.each(testDrivers)("publishing in the studio on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let member: StaffWithSession;
  let publisher: StaffWithSession;
  /** The instance's clock a minute behind the real one: what it publishes "now" is public to every reader. */
  const resetClock = () => {
    t.clock.now = new Date(Date.now() - 60_000);
  };
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { startAt: new Date(Date.now() - 60_000) });
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    publisher = await staffWithSession(t, { email: uniqueEmail("asha"), name: "Asha Patel", role: "staff" });
    await setCanPublish(t, publisher, true);
  });
  afterAll(async () => {
    await t.close();
  });

  const publish = async (
    id: string,
    person: StaffWithSession,
    fields: Record<string, string>,
    when = "now",
    base?: number,
  ) =>
    postForm(t, adminHref("articlePublish", { id }), person, {
      ...articleFields(fields),
      baseRevisionId: base ?? (await headOf(t, id)),
      when,
    });
  const act = async (
    name: "articleUnpublish" | "articleTrash" | "articleUntrash",
    id: string,
    person: StaffWithSession,
    base?: number,
  ) => postForm(t, adminHref(name, { id }), person, { baseRevisionId: base ?? (await headOf(t, id)) });
  const editor = async (id: string, person: StaffWithSession = member) =>
    propsOf(await t.send({ method: "GET", url: adminHref("article", { id }), cookie: person.cookie }), "article-editor")
      .editor;
  const revisionsOf = (id: string) =>
    t.database.db
      .select()
      .from(contentRevisions)
      .where(eq(contentRevisions.articleId, id))
      .orderBy(contentRevisions.id);
  const auditOf = async (id: string) =>
    (await t.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, id)).orderBy(auditEvents.id)).map(
      (event) => ({ action: event.action, actor: event.actorLabel, details: event.details }),
    );
  /**
   * A publish refused once its text was saved: 303 back to the editor (so a reload sends nothing
   * again), whose page lists the problems. Returns that page.
   */
  const refusedPage = async (
    response: Awaited<ReturnType<typeof publish>>,
    id: string,
    person: StaffWithSession,
    when = "now",
  ) => {
    expect(response.statusCode, response.body.slice(0, 300)).toBe(303);
    expect(response.headers.location).toBe(adminHref("article", { id }, { refused: when }));
    const page = await t.send({ method: "GET", url: String(response.headers.location), cookie: person.cookie });
    expect(page.statusCode).toBe(200);
    return page;
  };
  const publicPage = (slug: string) => t.send({ method: "GET", url: `/blog/${slug}` });
  const blogList = () => t.send({ method: "GET", url: "/blog" });

  describe("an author who is staff, not on the team", () => {
    it("is offered in the Author list, named on the public page without a photo, and in the studio's list", async () => {
      const writer = await staffWithSession(t, { email: uniqueEmail("farah"), name: "Farah Mistry", role: "staff" });
      const offered = (await editor(await createArticle(t, member, { title: "Offered authors" }))).authors;
      expect(offered).toContainEqual({
        slug: staffAuthor(writer.staffId),
        name: "Farah Mistry (staff, not on the team page)",
      });

      const slug = "a-byline-from-staff";
      const id = await createArticle(t, publisher, { title: "A byline from staff", slug });
      expect(
        (await publish(id, publisher, { title: "A byline from staff", slug, author: staffAuthor(writer.staffId) }))
          .statusCode,
      ).toBe(303);
      const row = await articleRow(t, id);
      expect(row).toMatchObject({ authorName: "Farah Mistry", authorId: null });
      const page = await publicPage(slug);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("Farah Mistry");
      expect((await getArticle(t.database.db, slug, t.clock.now))?.authorImageUrl ?? null).toBeNull();
      const list = propsOf(
        await t.send({ method: "GET", url: adminHref("articles"), cookie: member.cookie }),
        "articles",
      );
      expect(list.rows.find((listed) => listed.id === id)?.authorName).toBe("Farah Mistry");
    });

    it("refuses a staff id that is no one's, at the Author field, saving nothing", async () => {
      const id = await createArticle(t, member, { title: "No such author" });
      const before = await headOf(t, id);
      const saved = await postForm(t, adminHref("articleSave", { id }), member, {
        ...articleFields({ title: "No such author", author: staffAuthor("00000000-0000-4000-8000-000000000000") }),
        baseRevisionId: before,
      });
      expect(saved.statusCode).toBe(422);
      expect(propsOf(saved, "article-editor").form?.errors.author).toBe(
        "Author must be a member of the team or of staff",
      );
      expect(await headOf(t, id)).toBe(before);
    });
  });

  describe("who may publish", () => {
    it("a member of staff without Can publish gets 403 for publish, unpublish, trash and untrash, and nothing changes", async () => {
      const id = await createArticle(t, member, { title: "Not yours to publish", slug: "not-yours-to-publish" });
      const row = await articleRow(t, id);
      const revisions = await revisionsOf(id);
      const attempts = [
        await publish(id, member, { title: "Changed by the attempt", slug: "not-yours-to-publish" }),
        await act("articleUnpublish", id, member),
        await act("articleTrash", id, member),
        await act("articleUntrash", id, member),
      ];
      for (const response of attempts) {
        expect(response.statusCode).toBe(403);
        expect(response.body).toContain(
          "Publishing needs an admin, or a member of staff an admin has allowed to publish.",
        );
      }
      expect(await articleRow(t, id)).toEqual(row);
      expect(await revisionsOf(id)).toEqual(revisions);
      expect(await auditOf(id)).toEqual([]);
      expect((await editor(id)).canPublish).toBe(false);
    });

    it("an admin's Can publish lets a member publish from their next request; taking it back stops them; each audited", async () => {
      const id = await createArticle(t, member, { title: "Allowed now", slug: "allowed-now" });
      const allow = (value: string, target: StaffWithSession = member) =>
        postForm(t, adminHref("staffCanPublish", { id: target.staffId }), admin, { canPublish: value });
      const allowed = await allow("true");
      expect(allowed.statusCode).toBe(303);
      expect(allowed.headers.location).toBe(adminHref("staff", {}, { notice: "can-publish-changed" }));
      expect((await editor(id)).canPublish).toBe(true);
      expect((await publish(id, member, { title: "Allowed now", slug: "allowed-now" })).statusCode).toBe(303);
      // Saying the same again changes nothing and records nothing.
      expect((await allow("true")).statusCode).toBe(303);
      expect((await allow("false")).statusCode).toBe(303);
      expect((await act("articleUnpublish", id, member)).statusCode).toBe(403);
      const events = await t.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "staff-can-publish-changed"), eq(auditEvents.targetId, member.staffId)))
        .orderBy(auditEvents.id);
      expect(events.map((event) => [event.actorLabel, event.details])).toEqual([
        ["Meera Shah", { from: false, to: true }],
        ["Meera Shah", { from: true, to: false }],
      ]);
      for (const value of ["yes", "", "TRUE"]) {
        const bad = await allow(value);
        expect(bad.statusCode, value).toBe(400);
        expect(bad.body).toContain("Say whether this person can publish.");
      }
      for (const target of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
        const response = await postForm(t, adminHref("staffCanPublish", { id: target }), admin, { canPublish: "true" });
        expect(response.statusCode, target).toBe(404);
      }
      // Only an admin may say so.
      const byMember = await postForm(t, adminHref("staffCanPublish", { id: member.staffId }), publisher, {
        canPublish: "true",
      });
      expect(byMember.statusCode).toBe(403);
      const [ravi] = await t.database.db.select().from(staff).where(eq(staff.id, member.staffId));
      expect(ravi!.canPublish).toBe(false);
    });
  });

  describe("publishing now", () => {
    it("saves first, then refuses while the checklist has blockers: back to the editor, the problems at the top and at their fields, publishing nothing", async () => {
      const id = await createArticle(t, member, { title: "Incomplete", imageAlt: "", excerpt: "" });
      const typed = { title: "Incomplete", imageAlt: "", excerpt: "", body: "Changed." };
      const base = await headOf(t, id);
      const response = await publish(id, publisher, typed);
      const page = await refusedPage(response, id, publisher);
      const props = propsOf(page, "article-editor");
      expect(props.form?.errors).toMatchObject({
        imageAlt: "Describe the cover image (alt text) for those who cannot see it.",
        excerpt: "Write an excerpt: it is the article's summary on /blog and in search results.",
      });
      expect(props.editor.refused).toBe("publish");
      // The draft was saved (what was typed is not lost) and the form is based on it.
      expect(props.editor.head?.number).toBe(2);
      expect(props.editor.document.body).toBe("Changed.");
      expect(props.editor.unsaved).toBe(false);
      // Every problem is listed above the form, each a link to its field, focus on the first:
      // the person lands at the top of a long page (1,200 px above the first field on a phone).
      const problems = page.body.indexOf("data-studio-problems");
      expect(problems).toBeGreaterThan(-1);
      expect(problems).toBeLessThan(page.body.indexOf('id="article-form"'));
      const list = page.body.slice(problems, page.body.indexOf("</div>", problems));
      expect(list).toContain("Not published. Your text is saved as a draft; put these right, then publish again:");
      const links = [...list.matchAll(/<a href="#([^"]+)"([^>]*)>([^<]+)<\/a>/g)];
      expect(links.map((link) => link[3])).toEqual(
        expect.arrayContaining([
          "Describe the cover image (alt text) for those who cannot see it.",
          "Write an excerpt: it is the article&#x27;s summary on /blog and in search results.",
        ]),
      );
      expect(links[0]![2]).toContain('autofocus=""');
      expect(links.slice(1).every((link) => !link[2]!.includes("autofocus"))).toBe(true);
      for (const [, fieldId] of links) expect(page.body).toContain(`id="${fieldId}"`);
      expect(await articleRow(t, id)).toMatchObject({ status: "draft", publishedRevisionId: null, title: null });
      expect(await auditOf(id)).toEqual([]);

      // Reloading the page sends nothing; the same form sent again (the browser's back button and
      // a resend) is not a conflict with oneself: its text is the head already.
      const revisions = (await revisionsOf(id)).length;
      expect(
        (await t.send({ method: "GET", url: String(response.headers.location), cookie: publisher.cookie })).statusCode,
      ).toBe(200);
      const again = await publish(id, publisher, typed, "now", base);
      expect(propsOf(await refusedPage(again, id, publisher), "article-editor").editor.head?.number).toBe(2);
      expect((await revisionsOf(id)).length).toBe(revisions);
    });

    it("lists nothing once the problems are gone: fixed, the editor from the refusal's address is the plain editor", async () => {
      const slug = `fixed-after-refusal-${driver}`;
      const id = await createArticle(t, member, { title: "Fixed after", slug, excerpt: "" });
      await refusedPage(await publish(id, admin, { title: "Fixed after", slug, excerpt: "" }), id, admin);
      expect(
        (
          await postForm(t, adminHref("articleSave", { id }), admin, {
            ...articleFields({ title: "Fixed after", slug }),
            baseRevisionId: await headOf(t, id),
          })
        ).statusCode,
      ).toBe(303);
      const page = await t.send({
        method: "GET",
        url: adminHref("article", { id }, { refused: "now" }),
        cookie: admin.cookie,
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain("data-studio-problems");
      expect(propsOf(page, "article-editor").form).toBeUndefined();
      for (const query of [
        "refused=later",
        "refused=now&refused=now",
        "refused=%00",
        `publishedAt=${"1".repeat(41)}`,
      ]) {
        const bad = await t.send({
          method: "GET",
          url: `${adminHref("article", { id })}?${query}`,
          cookie: admin.cookie,
        });
        expect(bad.statusCode, query).toBe(400);
      }
    });

    it("tells a writer whose own newer revision stands in the way that it is theirs, not someone else's", async () => {
      const slug = `own-newer-${driver}`;
      const id = await createArticle(t, publisher, { title: "Own newer", slug });
      const base = await headOf(t, id);
      // Saved from another window of the same person.
      expect(
        (
          await postForm(t, adminHref("articleSave", { id }), publisher, {
            ...articleFields({ title: "Own newer", slug, body: "From the other window." }),
            baseRevisionId: base,
          })
        ).statusCode,
      ).toBe(303);
      const older = await postForm(t, adminHref("articleSave", { id }), publisher, {
        ...articleFields({ title: "Own newer", slug, body: "From the older page." }),
        baseRevisionId: base,
      });
      expect(older.statusCode).toBe(409);
      const message = propsOf(older, "article-editor").error;
      expect(message).toMatch(
        /^You saved a newer version at .+ \(revision 2\), in another window or from an older page, so this change was not saved\.$/,
      );
      expect(message).not.toContain("Asha Patel");
      const panel = propsOf(older, "article-editor").editor.conflict;
      expect(panel?.yours).toBe(true);
      expect(older.body).toContain("Your newer version, saved at");
      expect(older.body).not.toContain("Changed by Asha Patel");
      const autosaved = await postJson(t, adminHref("articleAutosave", { id }), publisher, {
        ...articleFields({ title: "Own newer", slug, body: "Autosaved from the older page." }),
        baseRevisionId: String(base),
      });
      expect(autosaved.statusCode).toBe(409);
      expect(autosaved.json()).toMatchObject({
        yours: true,
        message: expect.stringMatching(/^You saved a newer version/),
      });
      // Someone else's is told as theirs.
      const other = await postForm(t, adminHref("articleSave", { id }), admin, {
        ...articleFields({ title: "Own newer", slug, body: "Meera's." }),
        baseRevisionId: base,
      });
      expect(propsOf(other, "article-editor").error).toMatch(/^Changed by Asha Patel at .+ \(revision 2\)/);
      expect(propsOf(other, "article-editor").editor.conflict?.yours).toBeUndefined();
      expect(other.body).toContain("Changed by Asha Patel at");
    });

    it("publishes at the instance's time; the revision published carries it; the public reads it", async () => {
      const slug = `published-now-${driver}`;
      const id = await createArticle(t, member, { title: "Published now", slug });
      const response = await publish(id, publisher, { title: "Published now", slug });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(adminHref("article", { id }, { notice: "article-published" }));
      const row = await articleRow(t, id);
      expect(row).toMatchObject({ status: "published", slug, title: "Published now", deletedAt: null });
      expect(row.publishedAt).toEqual(t.clock.now);
      const revisions = await revisionsOf(id);
      // Revision 2 carries the publish time used (the draft had none), and is the head and the published one.
      expect(revisions).toHaveLength(2);
      expect(revisions[1]!.document.publishedAt).toBe(t.clock.now.toISOString());
      expect(row.headRevisionId).toBe(revisions[1]!.id);
      expect(row.publishedRevisionId).toBe(revisions[1]!.id);
      const view = await editor(id);
      expect(view).toMatchObject({
        status: "published",
        publicPath: `/blog/${slug}`,
        publishedAt: t.clock.now.toISOString(),
      });
      expect(view.publishedRevision).toMatchObject({ number: 2, published: true });
      expect(await auditOf(id)).toEqual([
        {
          action: "article-published",
          actor: "Asha Patel",
          details: { revision: 2, publishedAt: t.clock.now.toISOString(), slug },
        },
      ]);
      const page = await publicPage(slug);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("Published now");
    });

    it("this instance's kept pages follow a publish and an unpublish at once, not at its next poll", async () => {
      const slug = `kept-pages-${driver}`;
      const id = await createArticle(t, member, { title: "Kept pages follow", slug });
      // /blog is rendered and kept for the current content version.
      expect((await blogList()).body).not.toContain("Kept pages follow");
      expect((await publish(id, admin, { title: "Kept pages follow", slug })).statusCode).toBe(303);
      expect((await blogList()).body).toContain("Kept pages follow");
      expect((await act("articleUnpublish", id, admin)).statusCode).toBe(303);
      expect((await blogList()).body).not.toContain("Kept pages follow");
      expect((await publicPage(slug)).statusCode).toBe(404);
    });

    it("keeps a past publish date; a public article's date may move into the past, never into the future", async () => {
      const slug = `dated-${driver}`;
      const id = await createArticle(t, member, { title: "Dated", slug, publishedAt: "2026-01-05T09:30" });
      expect((await publish(id, admin, { title: "Dated", slug, publishedAt: "2026-01-05T09:30" })).statusCode).toBe(
        303,
      );
      const row = await articleRow(t, id);
      expect(row.publishedAt).toEqual(new Date("2026-01-05T04:00:00.000Z"));
      // The draft's date was the one used: no revision added.
      expect(await revisionsOf(id)).toHaveLength(1);

      expect((await publish(id, admin, { title: "Dated", slug, publishedAt: "2025-12-01T10:00" })).statusCode).toBe(
        303,
      );
      expect((await articleRow(t, id)).publishedAt).toEqual(new Date("2025-12-01T04:30:00.000Z"));

      const future = isoToIndiaLocal(new Date(t.clock.now.getTime() + 3 * 86_400_000).toISOString());
      for (const when of ["now", "scheduled"]) {
        const refused = await refusedPage(
          await publish(id, admin, { title: "Dated", slug, publishedAt: future }, when),
          id,
          admin,
          when,
        );
        expect(propsOf(refused, "article-editor").form?.errors.publishedAt).toBe(UNPUBLISH_FIRST);
        expect((await articleRow(t, id)).publishedAt).toEqual(new Date("2025-12-01T04:30:00.000Z"));
      }
    });
  });

  describe("scheduling", () => {
    it("refuses a date that is not in the future, or none, at the Publish date field", async () => {
      const id = await createArticle(t, member, { title: "Schedule me", slug: `schedule-me-${driver}` });
      const past = await refusedPage(
        await publish(
          id,
          admin,
          { title: "Schedule me", slug: `schedule-me-${driver}`, publishedAt: "2026-01-01T10:00" },
          "scheduled",
        ),
        id,
        admin,
        "scheduled",
      );
      expect(propsOf(past, "article-editor").form?.errors.publishedAt).toBe(
        "To schedule, the publish date must be in the future.",
      );
      const none = await refusedPage(
        await publish(id, admin, { title: "Schedule me", slug: `schedule-me-${driver}` }, "scheduled"),
        id,
        admin,
        "scheduled",
      );
      expect(propsOf(none, "article-editor").form?.errors.publishedAt).toBe(
        "Choose a publish date to schedule the article.",
      );
      const bad = await publish(id, admin, { title: "Schedule me", slug: `schedule-me-${driver}` }, "later");
      expect(bad.statusCode).toBe(422);
      expect(propsOf(bad, "article-editor").form?.errors.when).toBe("Choose to publish now or at the publish date.");
      expect((await articleRow(t, id)).status).toBe("draft");
    });

    it("a scheduled article is not public before its time, and is after it", async () => {
      t.clock.now = new Date();
      try {
        const slug = `scheduled-${driver}`;
        const at = new Date(Math.ceil((t.clock.now.getTime() + 2 * 86_400_000) / 60_000) * 60_000);
        const id = await createArticle(t, member, { title: "Scheduled", slug });
        const response = await publish(
          id,
          admin,
          { title: "Scheduled", slug, publishedAt: isoToIndiaLocal(at.toISOString()) },
          "scheduled",
        );
        expect(response.statusCode).toBe(303);
        expect(response.headers.location).toBe(adminHref("article", { id }, { notice: "article-scheduled" }));
        const atNotice = async (person: StaffWithSession) =>
          propsOf(
            await t.send({ method: "GET", url: String(response.headers.location), cookie: person.cookie }),
            "article-editor",
          ).notice;
        expect(await atNotice(admin)).toBe("Scheduled: the article goes public at its publish date.");
        expect(await articleRow(t, id)).toMatchObject({ status: "published", publishedAt: at });
        expect(await editor(id)).toMatchObject({
          status: "scheduled",
          publicPath: null,
          publishedAt: at.toISOString(),
        });
        expect((await auditOf(id)).map((event) => [event.action, event.details])).toEqual([
          ["article-scheduled", { revision: 2, publishedAt: at.toISOString(), slug }],
        ]);
        // Before its time: on no page, in no list, feed or API answer.
        expect((await publicPage(slug)).statusCode).toBe(404);
        expect((await t.send({ method: "GET", url: `/api/blog-posts/${slug}` })).statusCode).toBe(404);
        const before = new Date(at.getTime() - 1000);
        expect(await getArticle(t.database.db, slug, before)).toBeNull();
        expect((await listBlogPosts(t.database.db, before)).map((post) => post.slug)).not.toContain(slug);
        expect((await listFeedArticles(t.database.db, before)).map((post) => post.slug)).not.toContain(slug);
        // Once its time has passed on the instance's clock, it is public, with no job having run.
        t.clock.now = new Date(at.getTime() + 1000);
        expect((await getArticle(t.database.db, slug, t.clock.now))?.title).toBe("Scheduled");
        expect((await listFeedArticles(t.database.db, t.clock.now)).map((post) => post.slug)).toContain(slug);
        // Two days on, the sessions have ended: the studio is seen through a new one.
        const later = await newSessionFor(t, member);
        expect(await editor(id, later)).toMatchObject({
          status: "published",
          publicPath: `/blog/${slug}`,
        });
        // The address of the scheduling no longer says "Scheduled…": the article is published.
        expect(await atNotice(later)).toBeUndefined();
      } finally {
        resetClock();
      }
    });
  });

  describe("unpublishing and the trash", () => {
    it("ends an article's preview and share links when it goes to the trash: restored, a link handed out before opens nothing", async () => {
      const id = await createArticle(t, member, { title: "Shared, then binned" });
      const links = await Promise.all(
        (["share", "preview"] as const).map((kind) =>
          createContentLink(t.database.db, {
            kind,
            item: { kind: "article", id },
            staff: { id: member.staffId, name: "Ravi Desai" },
          }),
        ),
      );
      for (const link of links) expect((await t.app.inject({ method: "GET", url: link.path })).statusCode).toBe(200);
      expect((await act("articleTrash", id, publisher)).statusCode).toBe(303);
      expect((await act("articleUntrash", id, publisher)).statusCode).toBe(303);
      for (const link of links) expect((await t.app.inject({ method: "GET", url: link.path })).statusCode).toBe(404);
      const rows = await t.database.db.select().from(contentLinks).where(eq(contentLinks.articleId, id));
      expect(rows.map((row) => row.revokedAt)).toEqual([t.clock.now, t.clock.now]);
    });

    it("unpublishes (from the head only), trashes and restores from the trash as a draft, each audited", async () => {
      const slug = `unpublish-${driver}`;
      const id = await createArticle(t, member, { title: "Coming and going", slug });
      expect((await publish(id, admin, { title: "Coming and going", slug })).statusCode).toBe(303);
      expect(await getArticle(t.database.db, slug, t.clock.now)).not.toBeNull();
      const head = await headOf(t, id);

      // From a page that showed an older revision, or another article's: refused, nothing done.
      const other = await createArticle(t, member, { title: "Another" });
      for (const base of [head - 1, await headOf(t, other)]) {
        const stale = await act("articleUnpublish", id, publisher, base);
        expect(stale.statusCode).toBe(409);
        expect(propsOf(stale, "article-editor").error).toMatch(
          /^This article was changed by .+ \(revision 2\) after you opened it, so nothing was done/,
        );
      }
      expect((await act("articleUnpublish", id, publisher, Number.NaN)).statusCode).toBe(400);
      expect((await articleRow(t, id)).status).toBe("published");

      const unpublished = await act("articleUnpublish", id, publisher);
      expect(unpublished.statusCode).toBe(303);
      expect(unpublished.headers.location).toBe(adminHref("article", { id }, { notice: "article-unpublished" }));
      expect(await articleRow(t, id)).toMatchObject({ status: "unpublished", slug, title: "Coming and going" });
      expect(await getArticle(t.database.db, slug, t.clock.now)).toBeNull();
      const again = await act("articleUnpublish", id, publisher);
      expect(again.statusCode).toBe(409);
      expect(propsOf(again, "article-editor").error).toBe("This article is not published.");

      // Published again, then trashed: not public whatever its status.
      expect(
        (
          await publish(id, admin, {
            title: "Coming and going",
            slug,
            publishedAt: isoToIndiaLocal(t.clock.now.toISOString()),
          })
        ).statusCode,
      ).toBe(303);
      const trashed = await act("articleTrash", id, publisher);
      expect(trashed.statusCode).toBe(303);
      const row = await articleRow(t, id);
      expect(row).toMatchObject({ status: "published", deletedByLabel: "Asha Patel" });
      expect(row.deletedAt).toEqual(t.clock.now);
      expect(await getArticle(t.database.db, slug, t.clock.now)).toBeNull();
      const view = await editor(id);
      expect(view).toMatchObject({ status: "trash", trashedAt: t.clock.now.toISOString(), publicPath: null });
      // In the trash it is read-only: no save, autosave, presence, link or restore of a revision.
      const base = await headOf(t, id);
      for (const [url, payload] of [
        [adminHref("articleSave", { id }), { ...articleFields({ title: "x" }), baseRevisionId: base }],
        [adminHref("articleAutosave", { id }), { ...articleFields({ title: "x" }), baseRevisionId: base }],
        [adminHref("articlePresence", { id }), {}],
        [adminHref("articleShareLink", { id }), {}],
        [adminHref("articlePreviewLink", { id }), {}],
        [adminHref("articlePublish", { id }), { ...articleFields({ title: "x" }), baseRevisionId: base, when: "now" }],
        [adminHref("articleRevisionRestore", { id, revisionId: String(base) }), { baseRevisionId: base }],
        [adminHref("articleTrash", { id }), { baseRevisionId: base }],
        [adminHref("articleUnpublish", { id }), { baseRevisionId: base }],
      ] as const) {
        const response = await postForm(t, url, admin, payload as Record<string, string>);
        expect(response.statusCode, url).toBe(404);
      }
      expect(await headOf(t, id)).toBe(base);
      const list = async (status?: string) =>
        propsOf(
          await t.send({
            method: "GET",
            url: adminHref("articles", {}, { status, q: "Coming and going" }),
            cookie: member.cookie,
          }),
          "articles",
        ).rows.map((one) => one.id);
      expect(await list()).not.toContain(id);
      expect(await list("trash")).toEqual([id]);
      expect(await list("all")).toContain(id);

      const restored = await act("articleUntrash", id, publisher);
      expect(restored.statusCode).toBe(303);
      expect(restored.headers.location).toBe(adminHref("article", { id }, { notice: "article-untrashed" }));
      expect(await articleRow(t, id)).toMatchObject({ status: "draft", deletedAt: null, deletedByLabel: null });
      expect(await getArticle(t.database.db, slug, t.clock.now)).toBeNull();
      expect((await editor(id)).status).toBe("draft");
      const notTrashed = await act("articleUntrash", id, publisher);
      expect(notTrashed.statusCode).toBe(409);
      expect(propsOf(notTrashed, "article-editor").error).toBe("This article is not in the trash.");

      expect(
        (await auditOf(id)).map((event) => [
          event.action,
          event.actor,
          (event.details as { revision: number }).revision,
        ]),
      ).toEqual([
        ["article-published", "Meera Shah", 2],
        ["article-unpublished", "Asha Patel", 2],
        ["article-published", "Meera Shah", 3],
        ["article-trashed", "Asha Patel", 3],
        ["article-untrashed", "Asha Patel", 3],
      ]);
    });
  });

  describe("slugs and redirects", () => {
    it("publishing a new slug keeps the old address as a redirect; taking it back removes its redirect", async () => {
      const [a, b] = [`first-address-${driver}`, `second-address-${driver}`];
      const id = await createArticle(t, member, { title: "Moving", slug: a });
      expect((await publish(id, admin, { title: "Moving", slug: a })).statusCode).toBe(303);
      const redirects = async () =>
        (await t.database.db.select().from(contentRedirects).where(eq(contentRedirects.articleId, id)))
          .map((row) => row.oldSlug)
          .sort();
      expect(await redirects()).toEqual([]);

      expect((await publish(id, admin, { title: "Moving", slug: b })).statusCode).toBe(303);
      expect(await articleRow(t, id)).toMatchObject({ slug: b });
      expect(await redirects()).toEqual([a]);
      const [row] = await t.database.db.select().from(contentRedirects).where(eq(contentRedirects.oldSlug, a));
      expect(row).toMatchObject({ kind: "article", createdByLabel: "Meera Shah" });
      const publishedId = (await articleRow(t, id)).publishedRevisionId;
      const publishedNumber = (await revisionsOf(id)).find((revision) => revision.id === publishedId)!.number;
      const changed = (await auditOf(id)).filter((event) => event.action === "article-slug-changed");
      expect(changed.map((event) => event.details)).toEqual([{ revision: publishedNumber, from: a, to: b }]);

      // a → b → a: the redirect of a is gone (a is the address again); b, public for a while, leads to it.
      expect((await publish(id, admin, { title: "Moving", slug: a })).statusCode).toBe(303);
      expect(await redirects()).toEqual([b]);
      expect(await articleRow(t, id)).toMatchObject({ slug: a });
      expect((await publicPage(a)).statusCode).toBe(200);
    });

    it("a slug changed before the first publish leaves no redirect", async () => {
      const id = await createArticle(t, member, { title: "Never public", slug: `draft-address-${driver}` });
      expect((await publish(id, admin, { title: "Never public", slug: `final-address-${driver}` })).statusCode).toBe(
        303,
      );
      expect(await t.database.db.select().from(contentRedirects).where(eq(contentRedirects.articleId, id))).toEqual([]);
      // Its published address is its first: no change of address to record.
      expect((await auditOf(id)).map((event) => event.action)).toEqual(["article-published"]);
    });

    it("refuses another article's published or current slug at save and at publish, publishing nothing", async () => {
      const [published, next] = [`taken-address-${driver}`, `next-address-${driver}`];
      const first = await createArticle(t, member, { title: "First owner", slug: published });
      expect((await publish(first, admin, { title: "First owner", slug: published })).statusCode).toBe(303);
      // Its head moves on to another slug, not yet published: both are its.
      const moved = await postForm(t, adminHref("articleSave", { id: first }), member, {
        ...articleFields({ title: "First owner", slug: next }),
        baseRevisionId: await headOf(t, first),
      });
      expect(moved.statusCode).toBe(303);
      const second = await createArticle(t, member, { title: "Second" });
      for (const slug of [published, next]) {
        const response = await publish(second, admin, { title: "Second", slug });
        expect(response.statusCode, slug).toBe(422);
        expect(propsOf(response, "article-editor").form?.errors.slug).toBe(
          `/blog/${slug} is the address of «First owner»`,
        );
      }
      expect(await articleRow(t, second)).toMatchObject({ status: "draft", publishedRevisionId: null });
      expect(await revisionsOf(second)).toHaveLength(1);
    });
  });

  describe("what the public reads", () => {
    it("hostile Markdown saved and published through the studio is harmless in the preview, the article page and /rss.xml", async () => {
      const slug = `hostile-${driver}`;
      const title = "Fault levels <script>steal()</script> explained";
      const id = await createArticle(t, member, { title, slug, body: HOSTILE_BODY });
      expect((await publish(id, admin, { title, slug, body: HOSTILE_BODY })).statusCode).toBe(303);

      const preview = await t.send({
        method: "POST",
        url: adminHref("markdownPreview"),
        cookie: member.cookie,
        payload: { body: (await revisionsOf(id)).at(-1)!.document.body },
      });
      expect(hasScriptVector(preview.json().html)).toBe(false);

      const page = await publicPage(slug);
      expect(page.statusCode).toBe(200);
      const feed = await t.send({ method: "GET", url: "/rss.xml" });
      expect(feed.body).toContain(`/blog/${slug}`);
      // The article's body as the page shows it (the page around it has pictures and scripts of its own).
      const start = page.body.indexOf('<div class="article-body');
      expect(start).toBeGreaterThan(0);
      const articleBody = page.body.slice(start, page.body.indexOf("</div>", start));
      expect(hasScriptVector(articleBody)).toBe(false);
      expect(articleBody).toContain("paragraph with handler");
      const feedItem = feed.body.slice(
        feed.body.indexOf(`/blog/${slug}`),
        feed.body.indexOf("</item>", feed.body.indexOf(`/blog/${slug}`)),
      );
      expect(hasScriptVector(feedItem)).toBe(false);
      expect(feedItem).toContain("paragraph with handler");
      for (const [name, body] of [
        ["page", page.body],
        ["feed", feed.body],
      ] as const) {
        expect(body, name).not.toContain("alert(");
        expect(body, name).not.toContain("<script>steal()");
        expect(body, name).not.toContain("javascript:");
        expect(body, name).not.toContain("data:text/html");
      }
      expect(page.body).toContain("Fault levels &lt;script&gt;steal()&lt;/script&gt; explained");
      expect(feed.body).toContain("<title>Fault levels &lt;script&gt;steal()&lt;/script&gt; explained</title>");
    });
  });

  it("does not open an article without a revision yet (an upgraded site before its seed): 404", async () => {
    const [row] = await t.database.db.insert(blogPosts).values({ status: "draft" }).returning({ id: blogPosts.id });
    const response = await t.send({ method: "GET", url: adminHref("article", { id: row!.id }), cookie: admin.cookie });
    expect(response.statusCode).toBe(404);
  });
});
