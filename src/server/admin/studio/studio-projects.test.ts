import { count, eq } from "drizzle-orm";
import { linesOfParts } from "#shared/admin/diff-parts.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { htmlValidator } from "../../../../test/html-validator.ts";
import type { AutosaveAnswer, PresenceAnswer } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { PROJECT_CATEGORIES } from "#shared/content/documents.ts";
import {
  auditEvents,
  blogPosts,
  contentLinks,
  contentPresence,
  contentRedirects,
  contentRevisions,
  projects,
} from "../../db/schema.ts";
import { DRAFT_STAND_IN_IMAGE } from "../../content/draft-project.ts";
import { listProjects } from "../../content/public-content.ts";
import { markAsPreview } from "../../routes/preview-routes.ts";
import { isoToIndiaLocal } from "./studio-time.ts";
import {
  createArticle,
  postForm,
  postJson,
  propsOf,
  setCanPublish,
  sharePreview,
  uniqueEmail,
} from "./studio-test-kit.ts";
import { seedMediaLibrary } from "../../../../test/media-fixtures.ts";

// Projects in the studio (docs/decisions/042-projects-in-the-studio.md), through inject() on both
// databases: the same flow as articles, through the same handlers. New, list, save, autosave and
// the conflict check; publish, schedule (hidden until its time on the instance's clock), unpublish,
// the trash; slug changes and their 301s; history, compare, restore; preview and share links;
// presence; the audit trail; malformed input and a stale base refused, changing nothing. And a
// draft never reaching /projects, its page, the API, the sitemap or the home page. Access to every
// project route (no session, another site, without Can publish, malformed ids, another kind's
// item) is walked with every other route's in door/door.test.ts.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("./studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

const IMAGE = "/images/projects/wind-solar-hybrid-rajasthan.svg";
const HOUR = 60 * 60 * 1000;

/** What html-validate finds wrong with a page. */
async function validationProblems(html: string): Promise<string[]> {
  const report = await htmlValidator.validateString(html, "page.html");
  return report.results.flatMap((result) => result.messages.map((message) => `${message.ruleId}: ${message.message}`));
}

/** The editor's fields of a complete project (every checklist item met), with overrides. */
function projectFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    title: "Substation automation for a 220 kV grid substation",
    slug: "",
    description: "IEC 61850 station bus, bay controllers and a new SCADA gateway, commissioned bay by bay.",
    category: "Utilities",
    imageUrl: IMAGE,
    year: "2025",
    capacity: "220 kV, 12 bays",
    timeline: "",
    ...overrides,
  };
}

describe.each(testDrivers)("projects in the studio on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let member: StaffWithSession;
  let publisher: StaffWithSession;
  let other: StaffWithSession;
  const resetClock = () => {
    t.clock.now = new Date(Date.now() - 60_000);
  };
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { startAt: new Date(Date.now() - 60_000) });
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    publisher = await staffWithSession(t, { email: uniqueEmail("asha"), name: "Asha Patel", role: "staff" });
    other = await staffWithSession(t, { email: uniqueEmail("nisha"), name: "Nisha Rao", role: "staff" });
    await setCanPublish(t, publisher, true);
    // The pictures the Image field offers: the media library's (its seed).
    await seedMediaLibrary(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, person?: StaffWithSession) => t.send({ method: "GET", url, cookie: person?.cookie });
  const projectRow = async (id: string) => (await t.database.db.select().from(projects).where(eq(projects.id, id)))[0]!;
  const headOf = async (id: string) => (await projectRow(id)).headRevisionId!;
  const revisionsOf = (id: string) =>
    t.database.db
      .select()
      .from(contentRevisions)
      .where(eq(contentRevisions.projectId, id))
      .orderBy(contentRevisions.id);
  const auditOf = async (id: string) =>
    (await t.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, id)).orderBy(auditEvents.id)).map(
      (event) => ({ action: event.action, actor: event.actorLabel, type: event.targetType, details: event.details }),
    );
  const redirectsOf = async (id: string) =>
    (await t.database.db.select().from(contentRedirects).where(eq(contentRedirects.projectId, id)))
      .map((row) => row.oldSlug)
      .sort();
  /** Everything of a project a refused request must leave as it was. */
  const snapshot = async (id: string) => ({
    row: await projectRow(id),
    revisions: await revisionsOf(id),
    links: await t.database.db.select().from(contentLinks).where(eq(contentLinks.projectId, id)),
    redirects: await redirectsOf(id),
    presence: await t.database.db.select().from(contentPresence).where(eq(contentPresence.projectId, id)),
    audit: await auditOf(id),
  });

  async function createProject(person: StaffWithSession, overrides: Record<string, string> = {}): Promise<string> {
    const response = await postForm(t, adminHref("projectCreate"), person, projectFields(overrides));
    if (response.statusCode !== 303) throw new Error(`create: ${response.statusCode} ${response.body.slice(0, 500)}`);
    return /\/admin\/projects\/([0-9a-f-]{36})\?notice=project-created$/.exec(String(response.headers.location))![1]!;
  }
  const editor = async (id: string, person: StaffWithSession = member) => {
    const page = await get(adminHref("project", { id }), person);
    expect(page.statusCode).toBe(200);
    return propsOf(page, "project-editor").editor;
  };
  /** The editor's fields as it would post them: the head's document, with what the person changed. */
  const fieldsOf = async (id: string, changes: Record<string, string>) => {
    const head = (await revisionsOf(id)).at(-1)!.document as Record<string, string | null>;
    const current = Object.fromEntries(Object.entries(head).map(([key, value]) => [key, value ?? ""]));
    return { ...current, ...changes };
  };
  const save = async (id: string, person: StaffWithSession, changes: Record<string, string>, base?: number) =>
    postForm(t, adminHref("projectSave", { id }), person, {
      ...(await fieldsOf(id, changes)),
      baseRevisionId: base ?? (await headOf(id)),
    });
  const autosave = async (id: string, person: StaffWithSession, changes: Record<string, string>, base?: number) =>
    postJson(t, adminHref("projectAutosave", { id }), person, {
      ...(await fieldsOf(id, changes)),
      baseRevisionId: String(base ?? (await headOf(id))),
    });
  /** A publish refused once its text was saved: 303 back to the editor, whose page it returns. */
  const refusedPage = async (
    response: Awaited<ReturnType<typeof publish>>,
    id: string,
    query: { refused: string; publishedAt?: string },
  ) => {
    expect(response.statusCode, response.body.slice(0, 300)).toBe(303);
    expect(response.headers.location).toBe(adminHref("project", { id }, query));
    const page = await get(String(response.headers.location), admin);
    expect(page.statusCode).toBe(200);
    return page;
  };
  const publish = async (
    id: string,
    person: StaffWithSession,
    changes: Record<string, string>,
    when = "now",
    extra: Record<string, string | number> = {},
  ) =>
    postForm(t, adminHref("projectPublish", { id }), person, {
      ...(await fieldsOf(id, changes)),
      baseRevisionId: await headOf(id),
      when,
      ...extra,
    });
  const act = async (
    name: "projectUnpublish" | "projectTrash" | "projectUntrash",
    id: string,
    person: StaffWithSession,
    base?: number,
  ) => postForm(t, adminHref(name, { id }), person, { baseRevisionId: base ?? (await headOf(id)) });
  /** What a visitor gets at each public place a project can show: its page, the list, the API, the sitemap, home. */
  const publicPlaces = async (slug: string) => ({
    page: (await get(`/projects/${slug}`)).statusCode,
    api: (await get(`/api/projects/${slug}`)).statusCode,
    list: (await get("/projects")).body.includes(`/projects/${slug}"`),
    apiList: (await get("/api/projects")).json<{ slug: string }[]>().some((project) => project.slug === slug),
    sitemap: (await get("/sitemap.xml")).body.includes(`/projects/${slug}</loc>`),
    home: (await get("/")).body.includes(`/projects/${slug}"`),
  });
  const everywhere = { page: 200, api: 200, list: true, apiList: true, sitemap: true, home: true };
  const nowhere = { page: 404, api: 404, list: false, apiList: false, sitemap: false, home: false };

  describe("new projects and the list", () => {
    it("opens an empty editor, and makes a draft with revision 1, its slug made from the title and free", async () => {
      const page = await get(adminHref("projectNew"), member);
      expect(page.statusCode).toBe(200);
      const blank = propsOf(page, "project-editor").editor;
      expect(blank).toMatchObject({ id: null, status: "draft", head: null, categories: PROJECT_CATEGORIES });
      expect(blank.images.map((image) => image.url)).toContain(IMAGE);

      const id = await createProject(member, { title: "Harmonic filter, Saurashtra" });
      const again = await createProject(member, { title: "Harmonic filter, Saurashtra" });
      expect(await projectRow(id)).toMatchObject({
        status: "draft",
        slug: null,
        title: null,
        publishedRevisionId: null,
      });
      const [first] = await revisionsOf(id);
      expect(first).toMatchObject({ number: 1, source: "studio", authorLabel: "Ravi Desai" });
      expect(first!.document).toEqual({
        slug: "harmonic-filter-saurashtra",
        title: "Harmonic filter, Saurashtra",
        description: projectFields().description,
        category: "Utilities",
        imageUrl: IMAGE,
        year: "2025",
        capacity: "220 kV, 12 bays",
        timeline: null,
      });
      expect((await revisionsOf(again))[0]!.document).toMatchObject({ slug: "harmonic-filter-saurashtra-2" });
      // The editor shows the head; nothing of it is public.
      const view = await editor(id);
      expect(view).toMatchObject({ id, status: "draft", publicPath: null, head: { number: 1, by: "Ravi Desai" } });
      expect(view.checklist.blockers).toEqual([]);
      expect(await publicPlaces("harmonic-filter-saurashtra")).toEqual(nowhere);
    });

    it("refuses each malformed field at its field with 422, making nothing", async () => {
      const before = (await t.database.db.select({ n: count() }).from(projects))[0]!.n;
      const cases: [Record<string, string>, string, string][] = [
        [{ title: "" }, "title", "Title is required"],
        [{ title: "Line\nbreak" }, "title", "Title must be a single line of text"],
        [{ slug: "Not A Slug" }, "slug", "Slug must be lower-case letters and digits joined by hyphens"],
        [
          { category: "Substations" },
          "category",
          "Category must be one of Utilities, Renewable Energy, Industrial, Commercial",
        ],
        [{ year: "25" }, "year", "Year must be four digits, like 2024"],
        [{ year: "twenty" }, "year", "Year must be four digits, like 2024"],
        [
          { imageUrl: "https://evil.example/x.jpg" },
          "imageUrl",
          "Image must be one of the pictures of the media library",
        ],
        [
          { imageUrl: "/images/../../etc/passwd" },
          "imageUrl",
          "Image must be one of the pictures of the media library",
        ],
        [{ description: "x".repeat(2001) }, "description", "Description must be at most 2000 characters"],
        [{ capacity: "50 MW\u0000" }, "capacity", "Capacity"],
        [{ timeline: "x".repeat(121) }, "timeline", "Timeline must be at most 120 characters"],
      ];
      for (const [fields, field, message] of cases) {
        const response = await postForm(t, adminHref("projectCreate"), member, projectFields(fields));
        expect(response.statusCode, JSON.stringify(fields)).toBe(422);
        const props = propsOf(response, "project-editor");
        expect(props.form?.errors[field], field).toContain(message);
        // What was typed is kept.
        expect(props.form?.values[field]).toBeDefined();
      }
      // A body that is not a form at all, and one whose fields are not text.
      const json = await postJson(t, adminHref("projectCreate"), member, { title: ["a", "b"], year: 2025 });
      expect(json.statusCode).toBe(422);
      expect((await t.database.db.select({ n: count() }).from(projects))[0]!.n).toBe(before);
    });

    it("lists the heads with their year, searches title and description, filters by status and counts", async () => {
      const mark = `zq${Date.now().toString(36)}`;
      const first = await createProject(member, { title: `Listed ${mark}`, year: "2021" });
      const second = await createProject(member, { title: "Listed by description", description: `About ${mark}.` });
      const list = async (query: Record<string, string | number>) => {
        const response = await get(adminHref("projects", {}, query), member);
        expect(response.statusCode, JSON.stringify(query)).toBe(200);
        return propsOf(response, "projects");
      };
      const found = await list({ q: mark.toUpperCase() });
      expect(found.rows.map((row) => row.id)).toEqual([second, first]);
      expect(found.rows[1]).toMatchObject({ title: `Listed ${mark}`, year: "2021", status: "draft", publicPath: null });
      expect((await list({ q: mark, status: "published" })).rows).toEqual([]);
      expect(found.counts.draft).toBeGreaterThanOrEqual(2);
      for (const query of [{ status: "bogus" }, { page: "0" }, { q: "x".repeat(201) }]) {
        expect((await get(adminHref("projects", {}, query), member)).statusCode, JSON.stringify(query)).toBe(400);
      }
    });
  });

  describe("saving", () => {
    it("saves a new revision, none when nothing changed, and autosaves as JSON", async () => {
      const id = await createProject(member, { title: "Saving a project" });
      const saved = await save(id, member, { title: "Saving a project", timeline: "9 months", capacity: "" });
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe(adminHref("project", { id }, { notice: "draft-saved" }));
      const revisions = await revisionsOf(id);
      expect(revisions).toHaveLength(2);
      expect(revisions[1]!.document).toMatchObject({ timeline: "9 months", capacity: null, slug: "saving-a-project" });
      expect(
        (await save(id, member, { title: "Saving a project", timeline: "9 months", capacity: "" })).statusCode,
      ).toBe(303);
      expect(await revisionsOf(id)).toHaveLength(2);

      const auto = await autosave(id, member, { title: "Saving a project", timeline: "10 months" });
      expect(auto.statusCode).toBe(200);
      const answer = auto.json<AutosaveAnswer>();
      expect(answer).toMatchObject({ saved: true, unchanged: false, revision: { number: 3, source: "autosave" } });
      const invalid = await autosave(id, member, { year: "1e3" });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json()).toMatchObject({ message: "Year must be four digits, like 2024" });
      expect(await revisionsOf(id)).toHaveLength(3);
    });

    it("refuses a save from an older revision (409, both texts), an autosave with the comparison's address, and another item's revision", async () => {
      const id = await createProject(member, { title: "Two writers" });
      const base = await headOf(id);
      expect((await save(id, other, { title: "Two writers", year: "2019" }, base)).statusCode).toBe(303);
      const before = await snapshot(id);
      const stale = await save(id, member, { title: "Two writers", year: "2020" }, base);
      expect(stale.statusCode).toBe(409);
      const props = propsOf(stale, "project-editor");
      expect(props.error).toMatch(
        /^Changed by Nisha Rao at \d\d:\d\d.* \(revision 2\), so your change was not saved\.$/,
      );
      expect(props.editor.conflict?.currentDocument.year).toBe("2019");
      expect(props.editor.document.year).toBe("2020");
      expect(props.editor.unsaved).toBe(true);
      expect(props.form?.values.baseRevisionId).toBe(String(await headOf(id)));

      const auto = await autosave(id, member, { title: "Two writers", year: "2021" }, base);
      expect(auto.statusCode).toBe(409);
      expect(auto.json()).toMatchObject({
        error: "Conflict",
        compareHref: adminHref("projectCompare", { id }, { from: base, to: await headOf(id) }),
      });
      // Another project's head, and an article's, are no base of this one.
      const elsewhere = await createProject(member, { title: "Elsewhere" });
      const article = await createArticle(t, member, { title: "An article" });
      const articleHead = (await t.database.db.select().from(blogPosts).where(eq(blogPosts.id, article)))[0]!
        .headRevisionId!;
      for (const foreign of [await headOf(elsewhere), articleHead, 999_999_999]) {
        expect((await save(id, member, { title: "Two writers" }, foreign)).statusCode, String(foreign)).toBe(409);
      }
      expect(await snapshot(id)).toEqual(before);
      expect(await revisionsOf(elsewhere)).toHaveLength(1);
    });

    it("refuses another project's current or old slug at the Slug field; an article's is a project's to take", async () => {
      const owner = await createProject(member, { title: "Owner", slug: `owned-${driver}` });
      expect((await publish(owner, admin, { title: "Owner", slug: `owned-${driver}` })).statusCode).toBe(303);
      expect((await publish(owner, admin, { title: "Owner", slug: `owned-now-${driver}` })).statusCode).toBe(303);
      const id = await createProject(member, { title: "Newcomer" });
      const before = await snapshot(id);
      const taken = await save(id, member, { title: "Newcomer", slug: `owned-now-${driver}` });
      expect(taken.statusCode).toBe(422);
      expect(propsOf(taken, "project-editor").form?.errors.slug).toBe(
        `/projects/owned-now-${driver} is the address of «Owner»`,
      );
      const old = await save(id, member, { title: "Newcomer", slug: `owned-${driver}` });
      expect(old.statusCode).toBe(422);
      expect(propsOf(old, "project-editor").form?.errors.slug).toMatch(
        new RegExp(`^/projects/owned-${driver} led to «Owner» until \\d{1,2} [A-Z][a-z]{2}; choose another$`),
      );
      expect(await snapshot(id)).toEqual(before);
      // Articles have addresses of their own (/blog/…).
      await createArticle(t, member, { title: "Shared words", slug: `shared-slug-${driver}` });
      expect((await save(id, member, { title: "Newcomer", slug: `shared-slug-${driver}` })).statusCode).toBe(303);
    });
  });

  describe("publishing", () => {
    it("a member of staff without Can publish gets 403 for publish, unpublish, trash and untrash, and nothing changes", async () => {
      const id = await createProject(member, { title: "Not yours" });
      const before = await snapshot(id);
      for (const response of [
        await publish(id, member, { title: "Changed by the attempt" }),
        await act("projectUnpublish", id, member),
        await act("projectTrash", id, member),
        await act("projectUntrash", id, member),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(response.body).toContain(
          "Publishing needs an admin, or a member of staff an admin has allowed to publish.",
        );
      }
      expect(await snapshot(id)).toEqual(before);
      expect((await editor(id)).canPublish).toBe(false);
      expect((await editor(id, publisher)).canPublish).toBe(true);
    });

    it("saves first, then refuses while the checklist has blockers, at their fields, publishing nothing", async () => {
      const id = await createProject(member, { title: "Incomplete", year: "", imageUrl: "", description: "" });
      expect((await editor(id)).checklist.blockers.map((item) => item.field)).toEqual([
        "description",
        "imageUrl",
        "year",
      ]);
      const response = await publish(id, publisher, {
        title: "Incomplete",
        year: "",
        imageUrl: "",
        description: "",
        capacity: "1 MW",
      });
      // Saved, then refused: back to the editor, which lists the problems.
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(adminHref("project", { id }, { refused: "now" }));
      const page = await t.send({ method: "GET", url: String(response.headers.location), cookie: publisher.cookie });
      const props = propsOf(page, "project-editor");
      expect(props.editor.refused).toBe("publish");
      expect(props.form?.errors).toMatchObject({
        description: "Write a description: it is the project's text on its page and its card.",
        imageUrl: "Choose an image.",
        year: "Give the year of the project.",
      });
      // The draft was saved (as "Save draft" would), and nothing was published.
      expect((await revisionsOf(id)).at(-1)!.document).toMatchObject({ capacity: "1 MW" });
      expect(await projectRow(id)).toMatchObject({ status: "draft", publishedRevisionId: null, slug: null });
      expect((await auditOf(id)).map((event) => event.action)).toEqual([]);
    });

    it("publishes now: its page, the list, the API, the sitemap and the home page show it; audited with the revision", async () => {
      const slug = `published-project-${driver}`;
      const id = await createProject(member, { title: "Published project", slug, year: "2099" });
      expect(await publicPlaces(slug)).toEqual(nowhere);
      const response = await publish(id, publisher, { title: "Published project", slug, year: "2099" });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(adminHref("project", { id }, { notice: "project-published" }));
      const row = await projectRow(id);
      expect(row).toMatchObject({ status: "published", slug, title: "Published project", year: "2099" });
      expect(row.publishedAt).toEqual(t.clock.now);
      expect(await publicPlaces(slug)).toEqual(everywhere);
      const page = await get(`/projects/${slug}`);
      expect(page.body).toContain("Published project");
      expect(page.body).toContain(projectFields().description);
      expect(await editor(id)).toMatchObject({ status: "published", publicPath: `/projects/${slug}` });
      expect(await auditOf(id)).toEqual([
        {
          action: "project-published",
          actor: "Asha Patel",
          type: "project",
          details: { revision: 1, publishedAt: t.clock.now.toISOString(), slug },
        },
      ]);
      // A later draft is not public until published again.
      expect((await save(id, member, { title: "Renamed in the draft", slug, year: "2099" })).statusCode).toBe(303);
      expect((await get(`/projects/${slug}`)).body).not.toContain("Renamed in the draft");
      expect((await editor(id)).publishedRevision?.number).toBe(1);
      // Published again: its time stays the first publication's.
      const first = row.publishedAt;
      t.clock.advance(60_000);
      try {
        expect((await publish(id, admin, { title: "Renamed in the draft", slug, year: "2099" })).statusCode).toBe(303);
        expect(await projectRow(id)).toMatchObject({ title: "Renamed in the draft", publishedAt: first });
        expect((await get(`/projects/${slug}`)).body).toContain("Renamed in the draft");
      } finally {
        resetClock();
      }
    });

    it("schedules: hidden everywhere until its time on the instance's clock, then everywhere, with no job", async () => {
      const slug = `scheduled-project-${driver}`;
      const id = await createProject(member, { title: "Scheduled project", slug, year: "2098" });
      const at = new Date(Math.ceil((t.clock.now.getTime() + 2 * HOUR) / 60_000) * 60_000);
      const fields = { title: "Scheduled project", slug, year: "2098" };
      for (const [publishedAt, message] of [
        ["", "Choose a publish date to schedule the project."],
        [
          isoToIndiaLocal(new Date(t.clock.now.getTime() - HOUR).toISOString()),
          "To schedule, the publish date must be in the future.",
        ],
        ["2026-02-30T10:00", "Publish date must be a date and time, like 2026-11-26T14:30"],
        ["tomorrow", "Publish date must be a date and time, like 2026-11-26T14:30"],
      ] as const) {
        const response = await publish(id, admin, fields, "scheduled", { publishedAt });
        // A date that is no date is refused before anything is saved, in place; one that cannot be
        // used once the text is saved sends the person back to the editor.
        const unreadable = message.startsWith("Publish date must be");
        if (unreadable) expect(response.statusCode, publishedAt).toBe(422);
        const refused = unreadable ? response : await refusedPage(response, id, { refused: "scheduled", publishedAt });
        const props = propsOf(refused, "project-editor");
        expect(props.form?.errors.publishedAt, publishedAt).toBe(message);
        expect(props.editor.refused).toBe(unreadable ? "publish-unsaved" : "publish");
        // The date as typed is in its field again.
        expect(props.form?.values.publishedAt ?? "", publishedAt).toBe(publishedAt);
      }
      expect(await projectRow(id)).toMatchObject({ status: "draft", publishedRevisionId: null });
      const bad = await publish(id, admin, fields, "later");
      expect(bad.statusCode).toBe(422);

      const scheduled = await publish(id, admin, fields, "scheduled", {
        publishedAt: isoToIndiaLocal(at.toISOString()),
      });
      expect(scheduled.statusCode).toBe(303);
      expect(scheduled.headers.location).toBe(adminHref("project", { id }, { notice: "project-scheduled" }));
      expect(await projectRow(id)).toMatchObject({ status: "published", publishedAt: at });
      expect(await editor(id)).toMatchObject({ status: "scheduled", publicPath: null, publishedAt: at.toISOString() });
      expect((await auditOf(id)).map((event) => [event.action, event.details])).toEqual([
        ["project-scheduled", { revision: 1, publishedAt: at.toISOString(), slug }],
      ]);
      try {
        expect(await publicPlaces(slug)).toEqual(nowhere);
        t.clock.now = new Date(at.getTime() - 1000);
        expect(await publicPlaces(slug)).toEqual(nowhere);
        expect((await listProjects(t.database.db, t.clock.now)).map((project) => project.slug)).not.toContain(slug);
        // Its time passes on the instance's clock: public at once, the kept pages following.
        t.clock.now = new Date(at.getTime() + 1000);
        expect(await publicPlaces(slug)).toEqual(everywhere);
        expect(await editor(id)).toMatchObject({ status: "published", publicPath: `/projects/${slug}` });
        // A public project's time moves by unpublishing first.
        const later = isoToIndiaLocal(new Date(at.getTime() + 5 * HOUR).toISOString());
        const again = await refusedPage(await publish(id, admin, fields, "scheduled", { publishedAt: later }), id, {
          refused: "scheduled",
          publishedAt: later,
        });
        expect(propsOf(again, "project-editor").form?.errors.publishedAt).toBe(
          "This project is public: unpublish it first, then schedule it for its new time.",
        );
      } finally {
        resetClock();
      }
    });

    it("a project published from a file (no time of its own) is public on any clock", async () => {
      const [row] = await t.database.db.insert(projects).values({ status: "draft" }).returning({ id: projects.id });
      const slug = `from-a-file-${driver}`;
      await t.database.db.transaction(async (tx) => {
        const { appendRevision } = await import("../../content/revisions.ts");
        const { publishRevision } = await import("../../content/publishing.ts");
        const saved = await appendRevision(tx, {
          kind: "project",
          itemId: row!.id,
          document: { ...projectFields({ title: "From a file", slug }), capacity: null, timeline: null } as never,
          source: "import",
          author: { id: null, label: "content files" },
          studioChange: false,
        });
        if (saved.outcome !== "saved") throw new Error(saved.outcome);
        await publishRevision(tx, { kind: "project", itemId: row!.id, revisionId: saved.revision.id });
      });
      expect((await projectRow(row!.id)).publishedAt).toBeNull();
      const longAgo = new Date("2001-01-01T00:00:00Z");
      expect((await listProjects(t.database.db, longAgo)).map((project) => project.slug)).toContain(slug);
      expect(await editor(row!.id)).toMatchObject({
        status: "published",
        publicPath: `/projects/${slug}`,
        publishedAt: null,
      });
    });
  });

  describe("slugs and redirects", () => {
    it("a new slug keeps the old address as a 301 (page and API, query kept); chains collapse; taking one back removes it", async () => {
      const [a, b, c] = ["first", "second", "third"].map((word) => `${word}-project-address-${driver}`) as [
        string,
        string,
        string,
      ];
      const id = await createProject(member, { title: "Moving project", slug: a });
      expect((await publish(id, admin, { title: "Moving project", slug: a })).statusCode).toBe(303);
      expect((await publish(id, admin, { title: "Moving project", slug: b })).statusCode).toBe(303);
      expect(await redirectsOf(id)).toEqual([a]);
      const moved = await get(`/projects/${a}?from=mail`);
      expect(moved.statusCode).toBe(301);
      expect(moved.headers.location).toBe(`/projects/${b}?from=mail`);
      const api = await get(`/api/projects/${a}`);
      expect(api.statusCode).toBe(301);
      expect(api.headers.location).toBe(`/api/projects/${b}`);
      expect((await get(`/projects/${b}`)).statusCode).toBe(200);
      const published = (await projectRow(id)).publishedRevisionId;
      const number = (await revisionsOf(id)).find((revision) => revision.id === published)!.number;
      expect((await auditOf(id)).filter((event) => event.action === "project-slug-changed")).toEqual([
        {
          action: "project-slug-changed",
          actor: "Meera Shah",
          type: "project",
          details: { revision: number, from: a, to: b },
        },
      ]);

      // a → b → c: both old addresses answer one 301 to c.
      expect((await publish(id, admin, { title: "Moving project", slug: c })).statusCode).toBe(303);
      for (const old of [a, b]) expect((await get(`/projects/${old}`)).headers.location).toBe(`/projects/${c}`);
      // c → b: b is the address again; its redirect is gone, c leads to it.
      expect((await publish(id, admin, { title: "Moving project", slug: b })).statusCode).toBe(303);
      expect(await redirectsOf(id)).toEqual([a, c].sort());
      expect((await get(`/projects/${c}`)).headers.location).toBe(`/projects/${b}`);
      // Off the site, no old address reveals it.
      expect((await act("projectUnpublish", id, admin)).statusCode).toBe(303);
      for (const old of [a, c]) expect((await get(`/projects/${old}`)).statusCode).toBe(404);
      expect((await get(`/api/projects/${a}`)).statusCode).toBe(404);
    });

    it("a slug changed before the first publish leaves no redirect", async () => {
      const id = await createProject(member, { title: "Never public", slug: `draft-project-address-${driver}` });
      expect(
        (await publish(id, admin, { title: "Never public", slug: `final-project-address-${driver}` })).statusCode,
      ).toBe(303);
      expect(await redirectsOf(id)).toEqual([]);
      expect((await auditOf(id)).map((event) => event.action)).toEqual(["project-published"]);
    });
  });

  describe("unpublishing and the trash", () => {
    it("unpublishes from the head only, trashes, restores from the trash as a draft; each audited with the revision", async () => {
      const slug = `coming-and-going-${driver}`;
      const id = await createProject(member, { title: "Coming and going", slug });
      expect((await publish(id, admin, { title: "Coming and going", slug })).statusCode).toBe(303);
      const head = await headOf(id);
      const elsewhere = await createProject(member, { title: "Another" });
      const before = await snapshot(id);
      for (const base of [head - 1, await headOf(elsewhere)]) {
        const stale = await act("projectUnpublish", id, publisher, base);
        expect(stale.statusCode).toBe(409);
        expect(propsOf(stale, "project-editor").error).toMatch(/^This project was changed by .* after you opened it/);
      }
      const malformed = await postForm(t, adminHref("projectUnpublish", { id }), publisher, { baseRevisionId: "x" });
      expect(malformed.statusCode).toBe(400);
      expect(await snapshot(id)).toEqual(before);

      expect((await act("projectUnpublish", id, publisher)).statusCode).toBe(303);
      expect(await projectRow(id)).toMatchObject({ status: "unpublished" });
      expect(await publicPlaces(slug)).toEqual(nowhere);
      const again = await act("projectUnpublish", id, publisher);
      expect(again.statusCode).toBe(409);
      expect(propsOf(again, "project-editor").error).toBe("This project is not published.");

      const trashed = await act("projectTrash", id, publisher);
      expect(trashed.headers.location).toBe(adminHref("project", { id }, { notice: "project-trashed" }));
      expect(await editor(id)).toMatchObject({ status: "trash" });
      // In the trash it cannot be saved, published or previewed.
      expect((await save(id, member, { title: "Edited in the trash" })).statusCode).toBe(404);
      expect((await publish(id, admin, { title: "Coming and going", slug })).statusCode).toBe(404);
      expect(
        (await t.send({ method: "POST", url: adminHref("projectPreviewLink", { id }), cookie: member.cookie }))
          .statusCode,
      ).toBe(404);

      const restored = await act("projectUntrash", id, publisher);
      expect(restored.headers.location).toBe(adminHref("project", { id }, { notice: "project-untrashed" }));
      expect(await projectRow(id)).toMatchObject({ status: "unpublished", deletedAt: null });
      expect(await publicPlaces(slug)).toEqual(nowhere);
      expect((await auditOf(id)).map((event) => [event.action, event.details])).toEqual([
        ["project-published", expect.objectContaining({ revision: 1, slug })],
        ["project-unpublished", { revision: 1, wasPublic: true, status: "unpublished" }],
        ["project-trashed", { revision: 1, wasPublic: false, status: "unpublished" }],
        ["project-untrashed", { revision: 1, wasPublic: false, status: "unpublished" }],
      ]);
    });
  });

  describe("history, compare and restore", () => {
    it("lists revisions, compares two field by field, restores an old one as a new revision; another project's revision is none", async () => {
      const id = await createProject(member, { title: "History", year: "2020", description: "Line one.\nLine two." });
      expect(
        (await save(id, other, { title: "History", year: "2021", description: "Line one.\nLine 2." })).statusCode,
      ).toBe(303);
      const [first, second] = await revisionsOf(id);
      const history = await get(adminHref("projectHistory", { id }), member);
      expect(history.statusCode).toBe(200);
      const props = propsOf(history, "project-history");
      expect(props.item).toMatchObject({ id, title: "History", status: "draft" });
      expect(props.revisions.map((revision) => [revision.number, revision.by])).toEqual([
        [2, "Nisha Rao"],
        [1, "Ravi Desai"],
      ]);
      const compare = propsOf(
        await get(adminHref("projectCompare", { id }, { from: first!.id, to: second!.id }), member),
        "project-compare",
      );
      const changed = Object.fromEntries(
        compare.fields.filter((field) => field.changed).map((field) => [field.label, linesOfParts(field.parts)]),
      );
      expect(changed).toEqual({
        Description: [
          { kind: "same", text: "Line one." },
          { kind: "removed", text: "Line two." },
          { kind: "added", text: "Line 2." },
        ],
        Year: [
          { kind: "removed", text: "2020" },
          { kind: "added", text: "2021" },
        ],
      });
      const restore = await postForm(
        t,
        adminHref("projectRevisionRestore", { id, revisionId: String(first!.id) }),
        member,
        {
          baseRevisionId: second!.id,
        },
      );
      expect(restore.statusCode).toBe(303);
      expect(restore.headers.location).toBe(adminHref("project", { id }, { notice: "revision-restored" }));
      const third = (await revisionsOf(id)).at(-1)!;
      expect(third).toMatchObject({ number: 3, source: "restore", restoredFromId: first!.id });
      expect(third.document).toEqual(first!.document);
      expect((await auditOf(id)).map((event) => [event.action, event.details])).toEqual([
        ["project-revision-restored", { revision: 3, restoredFrom: 1 }],
      ]);
      // A restore based on an older revision is refused; nothing is restored twice.
      const stale = await postForm(
        t,
        adminHref("projectRevisionRestore", { id, revisionId: String(second!.id) }),
        member,
        {
          baseRevisionId: second!.id,
        },
      );
      expect(stale.statusCode).toBe(409);

      const elsewhere = await createProject(member, { title: "Elsewhere again" });
      const foreign = await headOf(elsewhere);
      for (const query of [{ from: foreign }, { to: foreign }, { from: 999_999_999 }]) {
        expect((await get(adminHref("projectCompare", { id }, query), member)).statusCode, JSON.stringify(query)).toBe(
          404,
        );
      }
      expect((await get(adminHref("projectCompare", { id }, { from: "1 or 1=1" }), member)).statusCode).toBe(400);
      for (const revisionId of [String(foreign), "0", "abc", "99999999999999999999"]) {
        const response = await postForm(t, adminHref("projectRevisionRestore", { id, revisionId }), member, {
          baseRevisionId: await headOf(id),
        });
        expect(response.statusCode, revisionId).toBe(404);
      }
      expect(await revisionsOf(id)).toHaveLength(3);
      expect(await revisionsOf(elsewhere)).toHaveLength(1);
    });
  });

  describe("preview and share links", () => {
    it("shows the draft as the project page, unkept and unindexed; the public page to the byte once published", async () => {
      const slug = `previewed-project-${driver}`;
      const id = await createProject(member, {
        title: "Previewed project",
        slug,
        description: "Words only the preview shows.",
      });
      const preview = await t.send({
        method: "POST",
        url: adminHref("projectPreviewLink", { id }),
        cookie: member.cookie,
      });
      expect(preview.statusCode).toBe(303);
      const path = String(preview.headers.location);
      expect(path).toMatch(/^\/preview\/[A-Za-z0-9_-]{43}$/);
      const page = await get(path);
      expect(page.statusCode).toBe(200);
      expect(page.headers["cache-control"]).toBe("no-store");
      expect(page.headers["x-robots-tag"]).toBe("noindex, nofollow");
      expect(page.body).toContain("<title>Previewed project | ");
      expect(page.body).toContain("Words only the preview shows.");
      expect(page.body).toContain("Draft, not public");
      expect(await publicPlaces(slug)).toEqual(nowhere);

      expect(
        (await publish(id, admin, { title: "Previewed project", slug, description: "Words only the preview shows." }))
          .statusCode,
      ).toBe(303);
      const publicPage = await get(`/projects/${slug}`);
      expect(publicPage.statusCode).toBe(200);
      expect((await get(path)).body).toBe(markAsPreview(publicPage.body, { banner: true }));
      expect((await auditOf(id)).map((event) => [event.action, (event.details as { kind?: string }).kind])).toEqual([
        ["project-link-created", "preview"],
        ["project-published", undefined],
      ]);
    });

    it("previews a draft with nothing but its title: stand-ins, valid HTML, no error", async () => {
      const id = await createProject(member, {
        title: "Barely begun",
        description: "",
        category: "",
        imageUrl: "",
        year: "",
        capacity: "",
      });
      const preview = await t.send({
        method: "POST",
        url: adminHref("projectPreviewLink", { id }),
        cookie: member.cookie,
      });
      const page = await get(String(preview.headers.location));
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("<title>Barely begun | ");
      expect(page.body).toContain(`src="${DRAFT_STAND_IN_IMAGE}"`);
      expect(await validationProblems(page.body)).toEqual([]);
    });

    it("a share link is shown once and revoked by its maker or an admin only; another project's link is none", async () => {
      const id = await createProject(member, { title: "Shared project" });
      const shared = await sharePreview(t, "project", id, member);
      expect(shared.post.statusCode).toBe(303);
      const { view } = await shared.get();
      expect(view.issuedShareLink).toMatch(/^https:\/\/www\.example\.test\/preview\/[A-Za-z0-9_-]{43}$/);
      const link = view.shareLinks[0]!;
      expect(link).toMatchObject({ createdBy: "Ravi Desai", state: "active", mayRevoke: true });
      const token = view.issuedShareLink!.split("/").at(-1)!;
      expect((await get(`/preview/${token}`)).statusCode).toBe(200);
      expect((await editor(id)).issuedShareLink).toBeUndefined();

      const revoke = (person: StaffWithSession, linkId = link.id, projectId = id) =>
        t.send({
          method: "POST",
          url: adminHref("projectShareLinkRevoke", { id: projectId, linkId }),
          cookie: person.cookie,
        });
      expect((await revoke(other)).statusCode).toBe(403);
      const elsewhere = await createProject(member, { title: "Not this one" });
      expect((await revoke(member, link.id, elsewhere)).statusCode).toBe(404);
      expect((await revoke(member, "not-a-uuid")).statusCode).toBe(404);
      // An article's link is not this project's either.
      const article = await createArticle(t, member, { title: "Article with a link" });
      const articleShare = (await (await sharePreview(t, "article", article, member)).get()).view.shareLinks[0]!;
      expect((await revoke(admin, articleShare.id)).statusCode).toBe(404);
      const [still] = await t.database.db.select().from(contentLinks).where(eq(contentLinks.id, link.id));
      expect(still!.revokedAt).toBeNull();

      const done = await revoke(admin);
      expect(done.statusCode).toBe(303);
      expect(done.headers.location).toBe(adminHref("project", { id }, { notice: "share-link-revoked" }));
      expect((await get(`/preview/${token}`)).statusCode).toBe(404);
      expect((await auditOf(id)).map((event) => [event.action, event.actor, event.details])).toEqual([
        [
          "project-link-created",
          "Ravi Desai",
          { kind: "share", link: link.id, revision: 1, expiresAt: expect.stringMatching(/Z$/) },
        ],
        ["project-link-revoked", "Meera Shah", { kind: "share", link: link.id, revision: 1 }],
      ]);
    });
  });

  describe("presence", () => {
    it("names the others who have the project open, and forgets whoever left", async () => {
      const id = await createProject(member, { title: "Open twice" });
      const beat = (person: StaffWithSession, body: Record<string, unknown> = {}) =>
        postJson(t, adminHref("projectPresence", { id }), person, body);
      expect((await beat(member)).json<PresenceAnswer>()).toEqual({ others: [] });
      expect((await beat(other)).json<PresenceAnswer>()).toEqual({ others: ["Ravi Desai"] });
      expect((await editor(id, other)).presence).toEqual(["Ravi Desai"]);
      expect((await beat(member, { leaving: true })).json<PresenceAnswer>()).toEqual({ others: [] });
      expect((await beat(other)).json<PresenceAnswer>()).toEqual({ others: [] });
      const bad = await beat(member, { leaving: "yes" });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe("`leaving` must be true or false.");
    });
  });

  it("a draft never reaches /projects, its page, the API, the sitemap or the home page", async () => {
    const mark = `zqx${driver}`;
    const slug = `${mark}-hidden-draft`;
    const id = await createProject(member, {
      title: `Zqx ${driver} hidden draft`,
      slug,
      description: `The ${mark} description.`,
      year: "2099",
    });
    // Shared and previewed, it is still no public page.
    await t.send({ method: "POST", url: adminHref("projectShareLink", { id }), cookie: member.cookie });
    for (const url of ["/", "/projects", "/projects?category=Utilities", "/api/projects", "/sitemap.xml", "/rss.xml"]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body.toLowerCase(), url).not.toContain(mark);
    }
    for (const url of [`/projects/${slug}`, `/api/projects/${slug}`]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body.replaceAll(slug, "").toLowerCase(), url).not.toContain(mark);
    }
  });
});
