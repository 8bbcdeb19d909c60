import { readdir, readFile } from "node:fs/promises";
import { linesOfParts } from "#shared/admin/diff-parts.ts";
import path from "node:path";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  newSessionFor,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { repoRoot } from "../../../../test/build-test-app.ts";
import { addArticle, articleDocument } from "../../../../test/content-fixtures.ts";
import { EVENT_LOOP_BUDGET_MS, longestEventLoopStall } from "../../../../test/event-loop.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { seedMediaLibrary } from "../../../../test/media-fixtures.ts";
import { adminHref, adminRoutes, type AdminRouteName } from "#shared/admin/routes.ts";
import type { AutosaveAnswer, MarkdownPreviewAnswer, PresenceAnswer } from "#shared/admin/pages.ts";
import { CONTENT_LIMITS, STUDIO_DOCUMENT_BODY_LIMIT } from "#shared/content/documents.ts";
import { MARKDOWN_HEADINGS_MAX } from "#shared/content/markdown-rules.ts";
import { REVISIONS_PER_PAGE } from "#shared/admin/schemas.ts";
import { queryRows } from "../../db/client.ts";
import {
  auditEvents,
  blogPosts,
  contentLinks,
  contentPresence,
  contentRedirects,
  contentRevisions,
} from "../../db/schema.ts";
import {
  addTeamMember,
  articleFields,
  articleRow,
  COVER,
  createArticle,
  headOf,
  postForm,
  postJson,
  HOSTILE_BODY,
  hasScriptVector,
  propsOf,
  sharePreview,
  uniqueEmail,
} from "./studio-test-kit.ts";

// The studio's editing, through inject() on both databases: new articles, the list, the editor's
// props, saves and autosaves with their conflict check, the fields' refusals, slugs, the body
// limits, presence, the live preview, history, compare and restore, preview and share links, and
// every route against another article's id or revision. Publishing is in studio-publishing.test.ts.

vi.mock("#web/admin/entry-server.tsx", async (importOriginal) =>
  (await import("./studio-test-kit.ts")).recordingEntry(await importOriginal()),
);

const someId = "00000000-0000-4000-8000-000000000000";
const CHANGED =
  /^Changed by Meera Shah at \d\d:\d\d( on \d{1,2} [A-Z][a-z]{2}( \d{4})?)? \(revision (\d+)\), so your change was not saved\.$/;

describe.each(testDrivers)("the studio's editing on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let member: StaffWithSession;
  let other: StaffWithSession;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { startAt: new Date(Date.now() - 60_000) });
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    other = await staffWithSession(t, { email: uniqueEmail("asha"), name: "Asha Patel", role: "staff" });
    await addTeamMember(t, "meera-iyer", "Meera Iyer");
    // The pictures the Cover image field offers: the media library's (its seed).
    await seedMediaLibrary(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const editor = async (id: string, person: StaffWithSession = member) => {
    const page = await t.send({ method: "GET", url: adminHref("article", { id }), cookie: person.cookie });
    expect(page.statusCode).toBe(200);
    return propsOf(page, "article-editor").editor;
  };
  const revisionsOf = (id: string) =>
    t.database.db
      .select()
      .from(contentRevisions)
      .where(eq(contentRevisions.articleId, id))
      .orderBy(contentRevisions.id);
  const save = async (id: string, person: StaffWithSession, fields: Record<string, string>, base?: number) =>
    postForm(t, adminHref("articleSave", { id }), person, {
      ...articleFields(fields),
      baseRevisionId: base ?? (await headOf(t, id)),
    });
  const autosave = async (id: string, person: StaffWithSession, fields: Record<string, string>, base?: number) =>
    postJson(t, adminHref("articleAutosave", { id }), person, {
      ...articleFields(fields),
      baseRevisionId: String(base ?? (await headOf(t, id))),
    });

  describe("a new article", () => {
    it("opens an empty editor, and is made as a draft with revision 1 (slug from the title, made free)", async () => {
      const page = await t.send({ method: "GET", url: adminHref("articleNew"), cookie: member.cookie });
      expect(page.statusCode).toBe(200);
      const blank = propsOf(page, "article-editor").editor;
      expect(blank).toMatchObject({
        id: null,
        status: "draft",
        head: null,
        canPublish: false,
        bodyLimit: STUDIO_DOCUMENT_BODY_LIMIT,
      });
      expect(blank.document).toEqual(expect.objectContaining({ title: "", publishedAt: "", slug: "", body: "" }));
      expect(blank.images).toContainEqual(
        expect.objectContaining({ url: COVER, label: expect.stringMatching(/^Illustration of /) }),
      );
      expect(blank.authors).toContainEqual({ slug: "meera-iyer", name: "Meera Iyer" });

      const title = "Harmonic Filters & VFDs: a Field Guide";
      const response = await postForm(
        t,
        adminHref("articleCreate"),
        member,
        articleFields({ title, author: "meera-iyer" }),
      );
      expect(response.statusCode).toBe(303);
      const id = /\/admin\/articles\/([0-9a-f-]{36})\?notice=article-created$/.exec(
        String(response.headers.location),
      )![1]!;
      const row = await articleRow(t, id);
      expect(row).toMatchObject({
        status: "draft",
        publishedRevisionId: null,
        slug: null,
        title: null,
        deletedAt: null,
      });
      expect(row.studioChangedByLabel).toBe("Ravi Desai");
      const [first] = await revisionsOf(id);
      expect(first).toMatchObject({
        number: 1,
        source: "studio",
        baseRevisionId: null,
        authorLabel: "Ravi Desai",
        id: row.headRevisionId,
      });
      expect(first!.document).toMatchObject({
        title,
        slug: "harmonic-filters-and-vfds-a-field-guide",
        author: "meera-iyer",
      });

      // The same title again: its slug is taken, so the next free one is given.
      const second = await createArticle(t, member, { title });
      expect((await editor(second)).document.slug).toBe("harmonic-filters-and-vfds-a-field-guide-2");
      // A slug typed that is taken is refused at the field.
      const taken = await postForm(
        t,
        adminHref("articleCreate"),
        member,
        articleFields({ title: "Other", slug: "harmonic-filters-and-vfds-a-field-guide" }),
      );
      expect(taken.statusCode).toBe(422);
      expect(propsOf(taken, "article-editor").form?.errors.slug).toBe(
        `/blog/harmonic-filters-and-vfds-a-field-guide is the address of «${title}»`,
      );
    });

    const PUBLISH_DATE = "Publish date must be a date and time, like 2026-11-26T14:30";
    it.each([
      ["an empty title", { title: "" }, "title", "Title is required"],
      ["a NUL in the title", { title: "Nul\u0000here" }, "title", "Title must not contain control characters"],
      ["a title of two lines", { title: "Two\nlines" }, "title", "Title must be a single line of text"],
      [
        "a slug that is not one",
        { slug: "Not A Slug" },
        "slug",
        "Slug must be lower-case letters and digits joined by hyphens, like grid-code-compliance",
      ],
      [
        "a cover from elsewhere",
        { imageUrl: "https://evil.example/x.png" },
        "imageUrl",
        "Cover image must be one of the site's pictures, under /images/",
      ],
      ["30 February", { publishedAt: "2026-02-30T10:00" }, "publishedAt", PUBLISH_DATE],
      ["a date in words", { publishedAt: "tomorrow" }, "publishedAt", PUBLISH_DATE],
      [
        "an author who is not one",
        { author: "nobody-here" },
        "author",
        "Author must be a member of the team or of staff",
      ],
      ["an ESC in the body", { body: "a\u001bb" }, "body", "Body must not contain control characters"],
      ["a body of 100,001 characters", { body: "x".repeat(100_001) }, "body", "Body must be at most 100000 characters"],
    ])("refuses %s at its field (422), making nothing", async (_label, fields, field, message) => {
      const before = (await t.database.db.select({ n: count() }).from(blogPosts))[0]!.n;
      const response = await postForm(
        t,
        adminHref("articleCreate"),
        member,
        articleFields({ title: "Kept", ...fields }),
      );
      expect(response.statusCode).toBe(422);
      const props = propsOf(response, "article-editor");
      expect(props.form?.errors[field]).toBe(message);
      // What was typed is kept, and is not saved.
      expect(props.form?.values.excerpt).toBe(articleFields().excerpt);
      expect(props.editor.unsaved).toBe(true);
      expect((await t.database.db.select({ n: count() }).from(blogPosts))[0]!.n).toBe(before);
    });
  });

  describe("the editor", () => {
    it("shows the head, the categories in use, the team, the pictures and the checklist with link warnings", async () => {
      await createArticle(t, member, { title: "Elsewhere", category: "Grid Integration" });
      const id = await createArticle(t, member, {
        title: "Links",
        imageAlt: "",
        body: "See [contact](/contact), [the blog](/blog?category=x#top), [feed](/rss.xml), [missing](/no-such-page), [an article](/blog/not-published-anywhere), [a project](/projects/no-such-project) and [outside](https://example.com/x).",
      });
      const view = await editor(id);
      expect(view).toMatchObject({
        id,
        status: "draft",
        publicPath: null,
        publishedAt: null,
        trashedAt: null,
        presence: [],
        shareLinks: [],
      });
      expect(view.head).toMatchObject({
        number: 1,
        by: "Ravi Desai",
        source: "studio",
        published: false,
        restoredFrom: null,
      });
      expect(view.categories).toEqual(expect.arrayContaining(["Grid Integration", "Protection"]));
      expect([...view.categories].sort((a, b) => a.localeCompare(b, "en"))).toEqual(view.categories);
      expect(view.checklist.blockers).toEqual([
        { field: "imageAlt", message: "Describe the cover image (alt text) for those who cannot see it." },
      ]);
      expect(view.checklist.warnings).toEqual([
        "The link to /no-such-page leads to no page of the site.",
        "The link to /blog/not-published-anywhere leads to no page of the site.",
        "The link to /projects/no-such-project leads to no page of the site.",
      ]);
      expect((await editor(id, admin)).canPublish).toBe(true);
    });

    it.each(["not-a-uuid", someId, "1 or 1=1", "%00", "00000000-0000-4000-8000-00000000000G"])(
      "answers 404 for an article id %s, on every studio route that names one",
      async (id) => {
        const studio = (Object.keys(adminRoutes) as AdminRouteName[]).filter(
          (name) =>
            adminRoutes[name].path.startsWith("/admin/articles/:id") ||
            adminRoutes[name].path.startsWith("/admin/api/articles/:id"),
        );
        expect(studio.length).toBeGreaterThan(12);
        for (const name of studio) {
          const route = adminRoutes[name];
          const url = route.path.replace(":id", id).replace(":linkId", someId).replace(":revisionId", "1");
          const response = await t.send({
            method: route.method,
            url,
            cookie: admin.cookie,
            payload: { baseRevisionId: "1", when: "now", title: "x" },
          });
          expect(response.statusCode, `${name} ${url}`).toBe(404);
        }
      },
    );
  });

  describe("saving", () => {
    it("saves a draft as a new revision, makes none when nothing changed, and converts the publish date from India time", async () => {
      const id = await createArticle(t, member, { title: "Saving" });
      const saved = await save(id, member, { title: "Saving", body: "Second words.", publishedAt: "2026-11-26T14:30" });
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe(adminHref("article", { id }, { notice: "draft-saved" }));
      const [, second] = await revisionsOf(id);
      expect(second).toMatchObject({ number: 2, source: "studio", authorLabel: "Ravi Desai" });
      expect(second!.baseRevisionId).toBe((await revisionsOf(id))[0]!.id);
      expect(second!.document).toMatchObject({ body: "Second words.", publishedAt: "2026-11-26T09:00:00.000Z" });

      const again = await save(id, member, { title: "Saving", body: "Second words.", publishedAt: "2026-11-26T14:30" });
      expect(again.statusCode).toBe(303);
      expect(await revisionsOf(id)).toHaveLength(2);

      // Autosave answers JSON, as source "autosave".
      const auto = await autosave(id, member, { title: "Saving", body: "Third words." });
      expect(auto.statusCode).toBe(200);
      const answer = auto.json() as AutosaveAnswer;
      expect(answer).toMatchObject({
        saved: true,
        unchanged: false,
        revision: { number: 3, source: "autosave", by: "Ravi Desai" },
      });
      const same = await autosave(id, member, { title: "Saving", body: "Third words." });
      expect(same.json()).toMatchObject({ saved: true, unchanged: true, revision: { number: 3 } });
      // Line breaks as a browser sends them (CR LF) are stored as LF.
      await autosave(id, member, { title: "Saving", body: "One\r\nTwo" });
      expect((await revisionsOf(id)).at(-1)!.document).toMatchObject({ body: "One\nTwo" });
    });

    it("refuses a form save made from an older revision (409): nothing overwritten, the text posted kept beside theirs", async () => {
      const id = await createArticle(t, member, { title: "Conflict" });
      const base = await headOf(t, id);
      expect((await save(id, admin, { title: "Conflict", body: "Meera's words." }, base)).statusCode).toBe(303);
      const theirs = await headOf(t, id);
      const refused = await save(id, member, { title: "Conflict", body: "Ravi's words." }, base);
      expect(refused.statusCode).toBe(409);
      const props = propsOf(refused, "article-editor");
      expect(props.error).toMatch(CHANGED);
      expect(CHANGED.exec(props.error!)![3]).toBe("2");
      expect(props.editor.document.body).toBe("Ravi's words.");
      expect(props.form?.values).toMatchObject({ body: "Ravi's words.", baseRevisionId: String(theirs) });
      expect(props.editor.conflict?.current).toMatchObject({ id: theirs, number: 2, by: "Meera Shah" });
      expect(props.editor.conflict?.currentDocument.body).toBe("Meera's words.");
      expect(props.editor.head?.id).toBe(theirs);
      // The text shown is not saved: the editor treats it as unsaved (a warning before leaving,
      // kept in the browser), where the same article opened afresh is saved.
      expect(props.editor.unsaved).toBe(true);
      expect((await editor(id, member)).unsaved).toBe(false);
      expect(await headOf(t, id)).toBe(theirs);
      expect((await revisionsOf(id)).map((revision) => revision.document.body)).not.toContain("Ravi's words.");
    });

    it("answers an autosave made from an older revision with the conflict (409) and a comparison's address", async () => {
      const id = await createArticle(t, member, { title: "Autosave conflict" });
      const base = await headOf(t, id);
      await autosave(id, admin, { title: "Autosave conflict", body: "Meera first." }, base);
      const theirs = await headOf(t, id);
      const refused = await autosave(id, member, { title: "Autosave conflict", body: "Ravi second." }, base);
      expect(refused.statusCode).toBe(409);
      const answer = refused.json() as Extract<AutosaveAnswer, { error: "Conflict" }>;
      expect(answer.error).toBe("Conflict");
      expect(answer.message).toMatch(CHANGED);
      expect(answer.current).toMatchObject({ revisionId: theirs, number: 2, by: "Meera Shah" });
      expect(answer.compareHref).toBe(adminHref("articleCompare", { id }, { from: base, to: theirs }));
      expect(await headOf(t, id)).toBe(theirs);
    });

    it("of two saves on one base, exactly one wins, also when they arrive at once", async () => {
      const id = await createArticle(t, member, { title: "Race" });
      for (let round = 0; round < 3; round += 1) {
        // Each round from a saved draft: an autosave winning twice in a row would replace its own
        // revision (decision 048), which is not what this counts.
        if (round > 0) expect((await save(id, other, { title: "Race", body: `Round ${round}` })).statusCode).toBe(303);
        const base = await headOf(t, id);
        const before = (await revisionsOf(id)).length;
        const answers = await Promise.all([
          autosave(id, member, { title: "Race", body: `Ravi ${round}` }, base),
          autosave(id, admin, { title: "Race", body: `Meera ${round}` }, base),
          save(id, other, { title: "Race", body: `Asha ${round}` }, base),
        ]);
        const statuses = answers.map((answer) => answer.statusCode);
        expect(
          statuses.filter((status) => status === 200 || status === 303),
          String(statuses),
        ).toHaveLength(1);
        expect(
          statuses.filter((status) => status === 409),
          String(statuses),
        ).toHaveLength(2);
        const after = await revisionsOf(id);
        expect(after).toHaveLength(before + 1);
        expect(after.at(-1)!.baseRevisionId).toBe(base);
      }
    });

    it("refuses a save based on another article's revision (409), changing neither", async () => {
      const mine = await createArticle(t, member, { title: "Mine" });
      const theirs = await createArticle(t, member, { title: "Theirs" });
      const before = [await headOf(t, mine), await headOf(t, theirs)];
      const response = await save(mine, member, { title: "Mine", body: "x" }, before[1]);
      expect(response.statusCode).toBe(409);
      expect([await headOf(t, mine), await headOf(t, theirs)]).toEqual(before);
    });

    it.each([
      [{ baseRevisionId: "abc" }, "baseRevisionId"],
      [{ baseRevisionId: "0" }, "baseRevisionId"],
      [{ baseRevisionId: "" }, "baseRevisionId"],
      [{ title: "Nul\u0000" }, "title"],
      [{ publishedAt: "2026-13-01T10:00" }, "publishedAt"],
      [{ slug: "../../etc" }, "slug"],
    ])("refuses an autosave with %j: 422 naming the field, nothing saved", async (fields, field) => {
      const id = await createArticle(t, member, { title: "Bad autosave" });
      const response = await postJson(t, adminHref("articleAutosave", { id }), member, {
        ...articleFields({ title: "Bad autosave" }),
        baseRevisionId: String(await headOf(t, id)),
        ...fields,
      });
      expect(response.statusCode).toBe(422);
      const answer = response.json() as { error: string; message: string; problems: Record<string, string> };
      expect(answer.error).toBe("Unprocessable Entity");
      expect(answer.problems[field]).toBeTruthy();
      expect(answer.message).toBe(Object.values(answer.problems)[0]);
      expect(await revisionsOf(id)).toHaveLength(1);
    });

    it("refuses a slug that is another article's current slug or old address, at the Slug field", async () => {
      const first = await createArticle(t, member, { title: "Grid code", slug: "grid-code-x" });
      const second = await createArticle(t, member, { title: "Second" });
      const current = await save(second, member, { title: "Second", slug: "grid-code-x" });
      expect(current.statusCode).toBe(422);
      expect(propsOf(current, "article-editor").form?.errors.slug).toBe(
        "/blog/grid-code-x is the address of «Grid code»",
      );
      await t.database.db.insert(contentRedirects).values({
        kind: "article",
        oldSlug: "old-grid-code-x",
        articleId: first,
        createdAt: new Date("2026-11-03T06:00:00Z"),
        createdByLabel: "Meera Shah",
      });
      const old = await autosave(second, member, { title: "Second", slug: "old-grid-code-x" });
      expect(old.statusCode).toBe(422);
      expect(old.json().problems.slug).toMatch(
        /^\/blog\/old-grid-code-x led to «Grid code» until 3 Nov( 2026)?; choose another$/,
      );
      // The article's own slug, and its own old address, are its to keep.
      expect((await save(first, member, { title: "Grid code", slug: "grid-code-x", body: "more" })).statusCode).toBe(
        303,
      );
      expect((await save(first, member, { title: "Grid code", slug: "old-grid-code-x" })).statusCode).toBe(303);
      expect(await revisionsOf(second)).toHaveLength(1);
    });
  });

  describe("body limits", () => {
    it("refuses a body over 1 MiB with 413 naming the route's limit, before anything is saved", async () => {
      const id = await createArticle(t, member, { title: "Huge" });
      const response = await save(id, member, { title: "Huge", body: "x".repeat(STUDIO_DOCUMENT_BODY_LIMIT) });
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe(`The body is larger than the limit of ${STUDIO_DOCUMENT_BODY_LIMIT} bytes.`);
      expect(await revisionsOf(id)).toHaveLength(1);
      // A route without a limit of its own keeps the site's.
      const presence = await postJson(t, adminHref("articlePresence", { id }), member, { pad: "x".repeat(70_000) });
      expect(presence.statusCode).toBe(413);
      expect(presence.json().message).toBe(`The body is larger than the limit of ${t.config.bodyLimitBytes} bytes.`);
    });

    it("accepts a Gujarati article over 64 KB (within 1 MiB) by form and by autosave, whole", async () => {
      const gujarati = "ગ્રીડ કોડ અનુપાલન માટે સૌર પ્લાન્ટની તપાસ. ".repeat(1_400).trim();
      expect(gujarati.length).toBeLessThanOrEqual(100_000);
      const form = new URLSearchParams({ ...articleFields({ title: "ગુજરાતી લેખ", body: gujarati }) }).toString();
      expect(Buffer.byteLength(form)).toBeGreaterThan(64 * 1024 * 3);
      expect(Buffer.byteLength(form)).toBeLessThan(STUDIO_DOCUMENT_BODY_LIMIT);
      const id = await createArticle(t, member, { title: "ગુજરાતી લેખ", body: gujarati });
      expect((await revisionsOf(id))[0]!.document.body).toBe(gujarati);
      const auto = await autosave(id, member, { title: "ગુજરાતી લેખ", body: `${gujarati} અંત.` });
      expect(auto.statusCode).toBe(200);
      expect((await revisionsOf(id)).at(-1)!.document.body).toBe(`${gujarati} અંત.`);
      expect((await editor(id)).document.body).toBe(`${gujarati} અંત.`);
    });
  });

  describe("presence", () => {
    it("names the others seen in the last 45 s, yourself in another window, and forgets whoever left", async () => {
      const id = await createArticle(t, member, { title: "Presence" });
      const beat = (person: StaffWithSession, body: Record<string, unknown> = {}) =>
        postJson(t, adminHref("articlePresence", { id }), person, body);
      expect((await beat(member)).json()).toEqual({ others: [] } satisfies PresenceAnswer);
      expect((await beat(admin)).json()).toEqual({ others: ["Ravi Desai"] });
      expect((await editor(id, admin)).presence).toEqual(["Ravi Desai"]);
      const memberAgain = await newSessionFor(t, member);
      expect((await beat(memberAgain)).json().others).toEqual(["you, in another window", "Meera Shah"]);
      // Ravi leaves one window: that session's row goes.
      expect((await beat(memberAgain, { leaving: true })).json()).toEqual({ others: [] });
      expect((await beat(admin)).json()).toEqual({ others: ["Ravi Desai"] });
      // 46 s later without a beat, Meera sees nobody, and the old row is deleted.
      t.clock.advance(46_000);
      expect((await beat(admin)).json()).toEqual({ others: [] });
      const rows = await t.database.db.select().from(contentPresence).where(eq(contentPresence.articleId, id));
      expect(rows.map((row) => row.staffId)).toEqual([admin.staffId]);
      expect((await beat(admin, { leaving: "yes" })).statusCode).toBe(400);
    });
  });

  describe("the live preview", () => {
    it("renders Markdown with the public pipeline: the hostile payloads come out harmless", async () => {
      const response = await postJson(t, adminHref("markdownPreview"), member, { body: HOSTILE_BODY });
      expect(response.statusCode).toBe(200);
      const answer = response.json() as MarkdownPreviewAnswer;
      expect(hasScriptVector(answer.html)).toBe(false);
      expect(answer.html).toContain('<h2 id="section-title-inside-the-body">Title inside the body</h2>');
      expect(answer.html).toContain('<a href="/contact">a relative one</a>');
      expect(answer.words).toBeGreaterThan(20);
      expect(answer.readingMinutes).toBe(1);
      const refused = await postJson(t, adminHref("markdownPreview"), member, { body: "a\u0000b" });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().problems.body).toBe("Body must not contain control characters");
    });

    it("answers a 5,000-word article without holding the event loop", async () => {
      // An article as this site writes them: sections with a heading, paragraphs with some
      // emphasis and links, a table now and then. It is rendered in the renderer's worker
      // (decision 049): what a second client waits is the budget's, whatever the machine's load.
      const sentence =
        "The relay settings follow the **grading** margin of the upstream breaker at the plant's point of common coupling. ";
      const section = (index: number) =>
        `## Section ${index}\n\n${[1, 2, 3, 4].map(() => `${sentence.repeat(3)}See [the study](/contact).`).join("\n\n")}\n\n| Feeder | Fault level |\n|---|---|\n| F1 | 25 kA |\n\n`;
      const body = Array.from({ length: 24 }, (_, index) => section(index + 1)).join("");
      const words = body.split(/\s+/).filter(Boolean).length;
      expect(words).toBeGreaterThan(5_000);
      let response: Awaited<ReturnType<typeof postJson>> | undefined;
      const stall = await longestEventLoopStall(async () => {
        response = await postJson(t, adminHref("markdownPreview"), member, { body });
      });
      expect(response?.statusCode).toBe(200);
      const answer = response!.json() as MarkdownPreviewAnswer;
      expect(answer.readingMinutes).toBeGreaterThan(20);
      expect(answer.html.match(/<h2 id="section-section-\d+">/g)).toHaveLength(24);
      expect(stall).toBeLessThan(EVENT_LOOP_BUDGET_MS);
    });
  });

  describe("a body made to freeze the site", () => {
    // The review's high finding: repeated headings made the heading-id search n² (12,000 "#" lines
    // held the event loop 20 s; the 100,000-character limit about 6 minutes).
    const repeatedHeadings = "#\n".repeat(CONTENT_LIMITS.body / 2);

    it("refuses 50,000 repeated headings in the live preview and a save at once, naming the rule, without holding the event loop", async () => {
      // The ids are linear now (render-markdown.test.ts renders the 50,000), but rendering them
      // still held the event loop over half a second: a body may have at most 500 headings.
      let answer: { problems?: Record<string, string> } | undefined;
      const stall = await longestEventLoopStall(async () => {
        const response = await postJson(t, adminHref("markdownPreview"), member, { body: repeatedHeadings });
        expect(response.statusCode).toBe(422);
        answer = response.json();
      });
      expect(stall).toBeLessThan(EVENT_LOOP_BUDGET_MS);
      expect(answer?.problems?.body).toBe(
        `Body has more than ${MARKDOWN_HEADINGS_MAX} headings; split it into several articles.`,
      );
      const id = await createArticle(t, member, { title: "Many headings", body: "One." });
      const saved = await postForm(t, adminHref("articleSave", { id }), member, {
        ...articleFields({ title: "Many headings", body: repeatedHeadings }),
        baseRevisionId: await headOf(t, id),
      });
      expect(saved.statusCode).toBe(422);
      expect(await revisionsOf(id)).toHaveLength(1);
    });

    it("renders the most headings a body may have, all repeated, each with an id of its own, without holding the event loop", async () => {
      const most = "#\n".repeat(MARKDOWN_HEADINGS_MAX);
      let answer: MarkdownPreviewAnswer | undefined;
      const stall = await longestEventLoopStall(async () => {
        const response = await postJson(t, adminHref("markdownPreview"), member, { body: most });
        expect(response.statusCode).toBe(200);
        answer = response.json() as MarkdownPreviewAnswer;
      });
      expect(stall).toBeLessThan(EVENT_LOOP_BUDGET_MS);
      const ids = [...answer!.html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
      expect(ids).toHaveLength(MARKDOWN_HEADINGS_MAX);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });

  describe("a body nested deeper than the parser's stack", () => {
    // The review's: `>` × 3,000 overflowed the Markdown parser's stack: the live preview answered
    // 500; saved as a draft its editor did; published, its page and the whole feed would have.
    const deepQuotes = `${">".repeat(3000)} a`;

    it("is refused by the live preview and by a save, naming the rule; nothing is saved", async () => {
      const preview = await postJson(t, adminHref("markdownPreview"), member, { body: deepQuotes });
      expect(preview.statusCode).toBe(422);
      expect(preview.json().problems.body).toBe(
        "Body nests quotes or lists more than 100 deep on one line; no reader can follow that.",
      );
      const id = await createArticle(t, member, { title: "Deep quotes", body: "Shallow." });
      const head = await headOf(t, id);
      const saved = await save(id, member, { title: "Deep quotes", body: deepQuotes });
      expect(saved.statusCode).toBe(422);
      expect(await headOf(t, id)).toBe(head);
    });

    it("already stored (a content file, an older revision), its editor, its page and the feed still answer", async () => {
      const slug = `deep-quotes-${driver}`;
      const { id } = await addArticle(
        t.database.db,
        articleDocument({ slug, title: "Deep quotes, from a file", body: `First words.\n\n${deepQuotes}` }),
        { state: "published", at: new Date(t.clock.now.getTime() - 60_000) },
      );
      const editorPage = await t.send({ method: "GET", url: adminHref("article", { id }), cookie: member.cookie });
      expect(editorPage.statusCode).toBe(200);
      const page = await t.app.inject({ method: "GET", url: `/blog/${slug}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("<p>First words.</p>");
      const feed = await t.app.inject({ method: "GET", url: "/rss.xml" });
      expect(feed.statusCode).toBe(200);
      expect(feed.body).toContain(`/blog/${slug}`);
    });
  });

  describe("two revisions made to freeze Compare", () => {
    // The review's other high finding: two revisions of 10,000 changed lines held the event loop
    // 28 s in Compare (a GET any member of staff can hand an admin); at the body limit, minutes.
    it("compares two revisions of 10,000 changed lines without holding the event loop, and says they are too different", async () => {
      const lines = (word: string) =>
        Array.from({ length: 10_000 }, (_, index) => `${word}${index.toString(36)}`).join("\n");
      const id = await createArticle(t, member, { title: "Too different", body: lines("a") });
      await save(id, member, { title: "Too different", body: lines("b") });
      let props: ReturnType<typeof propsOf<"article-compare">> | undefined;
      const stall = await longestEventLoopStall(async () => {
        const page = await t.send({ method: "GET", url: adminHref("articleCompare", { id }), cookie: admin.cookie });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain("too different to compare line by line");
        props = propsOf(page, "article-compare");
      });
      expect(stall).toBeLessThan(EVENT_LOOP_BUDGET_MS);
      const body = props!.fields.find((field) => field.field === "body")!;
      expect(body).toMatchObject({ changed: true, tooDifferent: true, parts: [] });
      // A small change in a long body is still compared line by line.
      await save(id, member, { title: "Too different", body: `${lines("b")}\nOne more line.` });
      const near = propsOf(
        await t.send({ method: "GET", url: `${adminHref("articleCompare", { id })}`, cookie: admin.cookie }),
        "article-compare",
      );
      const nearBody = near.fields.find((field) => field.field === "body")!;
      expect(nearBody.tooDifferent).toBeUndefined();
      expect(linesOfParts(nearBody.parts).filter((line) => line.kind !== "same")).toEqual([
        { kind: "added", text: "One more line." },
      ]);
    });
  });

  describe("history, compare and restore", () => {
    it(`lists a long history ${REVISIONS_PER_PAGE} revisions to a page, and Compare offers the newest and the two compared`, async () => {
      const id = await createArticle(t, member, { title: "Long history", body: "Save 0" });
      // Saved 250 times more: an item edited for years. Written at once, as saves would write them.
      await queryRows(
        t.database.db,
        sql`insert into content_revisions (article_id, number, document, hash, source, author_label, created_at)
            select article_id, 1 + i, jsonb_set(document, '{body}', to_jsonb('Save ' || i)), md5('long' || i),
              'studio', 'Fixture Writer', created_at + (i || ' seconds')::interval
            from content_revisions, generate_series(1, 250) as i
            where article_id = ${id}`,
      );
      const historyPage = async (page?: number) => {
        const url = adminHref("articleHistory", { id }, { page });
        const answer = await t.send({ method: "GET", url, cookie: member.cookie });
        expect(answer.statusCode, url).toBe(200);
        return { props: propsOf(answer, "article-history"), body: answer.body };
      };
      const first = await historyPage();
      expect(first.props.revisions.map((revision) => revision.number)).toEqual(
        Array.from({ length: REVISIONS_PER_PAGE }, (_, index) => 251 - index),
      );
      expect(first.props).toMatchObject({ pageNumber: 1, more: true });
      expect(first.body).toContain(`href="${adminHref("articleHistory", { id }, { page: 2 })}"`);
      expect(first.body).toContain(">Older revisions</a>");
      const last = await historyPage(3);
      expect(last.props.revisions.map((revision) => revision.number)).toEqual(
        Array.from({ length: 51 }, (_, index) => 51 - index),
      );
      expect(last.props).toMatchObject({ pageNumber: 3, more: false });
      expect(last.body).toContain(
        `href="${adminHref("articleHistory", { id }, { page: 2 })}" class="admin-button-secondary">Newer revisions</a>`,
      );
      expect(last.body).not.toContain("Older revisions");
      for (const page of ["0", "x", "1234567"]) {
        const refused = await t.send({
          method: "GET",
          url: `${adminHref("articleHistory", { id })}?page=${page}`,
          cookie: member.cookie,
        });
        expect(refused.statusCode, page).toBe(400);
        expect(refused.body).toContain("Page must be a number from 1.");
      }

      // Compare: the newest to choose from, and the two compared wherever they are in the history.
      const [oldest] = await t.database.db
        .select({ id: contentRevisions.id })
        .from(contentRevisions)
        .where(and(eq(contentRevisions.articleId, id), eq(contentRevisions.number, 1)));
      const compare = propsOf(
        await t.send({
          method: "GET",
          url: adminHref("articleCompare", { id }, { from: oldest!.id, to: first.props.revisions[0]!.id }),
          cookie: member.cookie,
        }),
        "article-compare",
      );
      expect(compare.revisions).toHaveLength(REVISIONS_PER_PAGE + 1);
      expect(compare.revisions.map((revision) => revision.number)).toContain(1);
      expect(compare.from.number).toBe(1);
    });

    it("lists every revision newest first, compares two field by field, and restores an old one as a new revision", async () => {
      const id = await createArticle(t, member, { title: "History", body: "Line one\nLine two\nLine three" });
      await save(id, admin, { title: "History, revised", body: "Line one\nLine 2\nLine three\nLine four" });
      const history = await t.send({ method: "GET", url: adminHref("articleHistory", { id }), cookie: member.cookie });
      const props = propsOf(history, "article-history");
      expect(props.item).toMatchObject({ id, title: "History, revised", status: "draft" });
      expect(props.revisions.map((revision) => [revision.number, revision.by])).toEqual([
        [2, "Meera Shah"],
        [1, "Ravi Desai"],
      ]);
      expect(props.headId).toBe(props.revisions[0]!.id);

      const compare = propsOf(
        await t.send({ method: "GET", url: adminHref("articleCompare", { id }), cookie: member.cookie }),
        "article-compare",
      );
      expect([compare.from.number, compare.to.number]).toEqual([1, 2]);
      const field = (name: string) => compare.fields.find((one) => one.field === name)!;
      expect(field("title")).toEqual({
        field: "title",
        label: "Title",
        changed: true,
        parts: [
          {
            kind: "lines",
            lines: [
              { kind: "removed", text: "History" },
              { kind: "added", text: "History, revised" },
            ],
          },
        ],
      });
      expect(linesOfParts(field("body").parts)).toEqual([
        { kind: "same", text: "Line one" },
        { kind: "removed", text: "Line two" },
        { kind: "added", text: "Line 2" },
        { kind: "same", text: "Line three" },
        { kind: "added", text: "Line four" },
      ]);
      expect(field("category")).toMatchObject({ label: "Category", changed: false });
      expect(compare.fields.map((one) => one.label)).toEqual([
        "Slug",
        "Title",
        "Excerpt",
        "Category",
        "Cover image",
        "Alt text",
        "Publish date",
        "Author",
        "Body",
      ]);

      const before = await revisionsOf(id);
      const first = before[0]!;
      const restored = await postForm(
        t,
        adminHref("articleRevisionRestore", { id, revisionId: String(first.id) }),
        member,
        {
          baseRevisionId: before[1]!.id,
        },
      );
      expect(restored.statusCode).toBe(303);
      expect(restored.headers.location).toBe(adminHref("article", { id }, { notice: "revision-restored" }));
      const after = await revisionsOf(id);
      // The earlier revisions are as they were; the restore is a new one.
      expect(after.slice(0, 2)).toEqual(before);
      expect(after[2]).toMatchObject({
        number: 3,
        source: "restore",
        restoredFromId: first.id,
        hash: first.hash,
        baseRevisionId: before[1]!.id,
      });
      expect(after[2]!.document).toEqual(first.document);
      expect((await editor(id)).head).toMatchObject({ number: 3, restoredFrom: 1, source: "restore" });
      const [event] = await t.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "article-revision-restored"), eq(auditEvents.targetId, id)));
      expect(event).toMatchObject({ actorId: member.staffId, details: { revision: 3, restoredFrom: 1 } });

      // The same restore sent again from the page that showed revision 2: what it asks for is the
      // head already, so nothing is made and nothing is in conflict.
      const again = await postForm(
        t,
        adminHref("articleRevisionRestore", { id, revisionId: String(first.id) }),
        member,
        {
          baseRevisionId: before[1]!.id,
        },
      );
      expect(again.statusCode).toBe(303);
      expect(await revisionsOf(id)).toHaveLength(3);
      // Another restore from that page (revision 2 is no longer the head): refused, nothing made;
      // the newer revision is the person's own, and is told as theirs.
      const stale = await postForm(
        t,
        adminHref("articleRevisionRestore", { id, revisionId: String(before[1]!.id) }),
        member,
        { baseRevisionId: before[1]!.id },
      );
      expect(stale.statusCode).toBe(409);
      expect(propsOf(stale, "article-editor").error).toMatch(
        /^You saved a newer version at .+ \(revision 3\), in another window or from an older page, so this change was not saved\.$/,
      );
      const byAnother = await postForm(
        t,
        adminHref("articleRevisionRestore", { id, revisionId: String(before[1]!.id) }),
        other,
        { baseRevisionId: before[1]!.id },
      );
      expect(propsOf(byAnother, "article-editor").error).toMatch(
        /^Changed by Ravi Desai at .+ \(revision 3\), so your change was not saved\.$/,
      );
      expect(await revisionsOf(id)).toHaveLength(3);
    });

    it("answers 404 for a revision of another article, or none, in compare and restore; nothing changed", async () => {
      const mine = await createArticle(t, member, { title: "Mine again" });
      const theirs = await createArticle(t, member, { title: "Theirs again" });
      const foreign = await headOf(t, theirs);
      const base = await headOf(t, mine);
      for (const query of [{ from: foreign }, { to: foreign }, { from: 999_999_999 }]) {
        const response = await t.send({
          method: "GET",
          url: adminHref("articleCompare", { id: mine }, query),
          cookie: member.cookie,
        });
        expect(response.statusCode, JSON.stringify(query)).toBe(404);
      }
      const badQuery = await t.send({
        method: "GET",
        url: adminHref("articleCompare", { id: mine }, { from: "1 or 1=1" }),
        cookie: member.cookie,
      });
      expect(badQuery.statusCode).toBe(400);
      for (const revisionId of [String(foreign), "0", "abc", "1e3", "99999999999999999999", "-1"]) {
        const response = await postForm(t, adminHref("articleRevisionRestore", { id: mine, revisionId }), member, {
          baseRevisionId: base,
        });
        expect(response.statusCode, revisionId).toBe(404);
      }
      expect(await revisionsOf(mine)).toHaveLength(1);
      expect(await revisionsOf(theirs)).toHaveLength(1);
    });

    it("no code path updates a revision: content_revisions is only ever inserted into", async () => {
      const sources = await readdir(path.join(repoRoot, "src"), { recursive: true });
      const offenders: string[] = [];
      for (const file of sources.filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))) {
        const text = await readFile(path.join(repoRoot, "src", file), "utf8");
        if (/\.update\(\s*contentRevisions\s*\)|update\s+"?content_revisions"?/i.test(text)) offenders.push(file);
      }
      expect(offenders).toEqual([]);
    });
  });

  describe("preview and share links", () => {
    it("a preview link is made and followed; a share link is shown once, listed, and revoked by its maker or an admin only", async () => {
      const id = await createArticle(t, member, { title: "Links to share" });
      const preview = await t.send({
        method: "POST",
        url: adminHref("articlePreviewLink", { id }),
        cookie: member.cookie,
      });
      expect(preview.statusCode).toBe(303);
      expect(preview.headers.location).toMatch(/^\/preview\/[A-Za-z0-9_-]{43}$/);

      const shared = await sharePreview(t, "article", id, member);
      expect(shared.post.statusCode).toBe(303);
      const { view } = await shared.get();
      expect(view.issuedShareLink).toMatch(/^https:\/\/www\.example\.test\/preview\/[A-Za-z0-9_-]{43}$/);
      expect(view.shareLinks).toHaveLength(1);
      const link = view.shareLinks[0]!;
      expect(link).toMatchObject({ createdBy: "Ravi Desai", state: "active", mayRevoke: true });
      // Shown after the redirect only: the editor elsewhere lists it without its address.
      const later = await editor(id);
      expect(later.issuedShareLink).toBeUndefined();
      expect(JSON.stringify(later)).not.toContain(view.issuedShareLink!.split("/").at(-1)!);
      expect((await editor(id, other)).shareLinks[0]!.mayRevoke).toBe(false);
      expect((await editor(id, admin)).shareLinks[0]!.mayRevoke).toBe(true);

      const revoke = (person: StaffWithSession, linkId = link.id, articleId = id) =>
        t.send({
          method: "POST",
          url: adminHref("articleShareLinkRevoke", { id: articleId, linkId }),
          cookie: person.cookie,
        });
      expect((await revoke(other)).statusCode).toBe(403);
      const elsewhere = await createArticle(t, member, { title: "Not this one" });
      expect((await revoke(member, link.id, elsewhere)).statusCode).toBe(404);
      expect((await revoke(member, "not-a-uuid")).statusCode).toBe(404);
      expect((await revoke(member, "00000000-0000-4000-8000-000000000001")).statusCode).toBe(404);
      const [still] = await t.database.db.select().from(contentLinks).where(eq(contentLinks.id, link.id));
      expect(still!.revokedAt).toBeNull();
      const done = await revoke(admin);
      expect(done.statusCode).toBe(303);
      expect(done.headers.location).toBe(adminHref("article", { id }, { notice: "share-link-revoked" }));
      expect((await editor(id)).shareLinks[0]).toMatchObject({ state: "revoked", mayRevoke: false });
      const actions = (
        await t.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, id)).orderBy(auditEvents.id)
      ).map((event) => [event.action, event.actorLabel, (event.details as { kind?: string }).kind]);
      expect(actions).toEqual([
        ["article-link-created", "Ravi Desai", "preview"],
        ["article-link-created", "Ravi Desai", "share"],
        ["article-link-revoked", "Meera Shah", "share"],
      ]);
    });
  });

  describe("the list", () => {
    it("shows the heads, searches title, excerpt and body ignoring case, filters by status and pages by 25", async () => {
      const mark = `zq${Date.now().toString(36)}`;
      const ids: string[] = [];
      for (let index = 0; index < 26; index += 1) {
        ids.push(
          await createArticle(t, member, {
            title: `List ${index}`,
            body: `Body with ${mark.toUpperCase()} inside`,
            author: "meera-iyer",
          }),
        );
      }
      const excerptOnly = await createArticle(t, member, { title: "Excerpt only", excerpt: `About ${mark} here` });
      const list = async (query: Record<string, string | number>) => {
        const response = await t.send({ method: "GET", url: adminHref("articles", {}, query), cookie: member.cookie });
        expect(response.statusCode, JSON.stringify(query)).toBe(200);
        return propsOf(response, "articles");
      };
      const first = await list({ q: mark });
      expect(first.rows).toHaveLength(25);
      expect(first.more).toBe(true);
      expect(first.rows[0]).toMatchObject({
        id: excerptOnly,
        title: "Excerpt only",
        status: "draft",
        changedBy: "Ravi Desai",
        publicPath: null,
      });
      expect(first.rows[1]).toMatchObject({ title: "List 25", authorName: "Meera Iyer", category: "Protection" });
      const second = await list({ q: mark, page: 2 });
      expect(second.rows.map((row) => row.id)).toEqual(ids.slice(0, 2).reverse());
      expect(second.more).toBe(false);
      expect((await list({ q: mark, status: "published" })).rows).toEqual([]);
      expect((await list({ q: "%" })).rows.every((row) => row.title.includes("%"))).toBe(true);
      expect(first.counts.draft).toBeGreaterThanOrEqual(27);
      for (const query of [{ status: "bogus" }, { page: "0" }, { q: "x".repeat(201) }]) {
        const response = await t.send({ method: "GET", url: adminHref("articles", {}, query), cookie: member.cookie });
        expect(response.statusCode, JSON.stringify(query)).toBe(400);
      }
    });
  });
});
