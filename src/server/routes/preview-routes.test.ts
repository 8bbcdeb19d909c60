import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articlePath } from "#shared/paths.ts";
import { refreshContentVersion } from "../content/data-version.ts";
import { createContentLink, revokeContentLink } from "../content/links.ts";
import { publishRevision } from "../content/publishing.ts";
import { blogPosts, pageViews, staff, teamMembers } from "../db/schema.ts";
import { withoutOneTimeTokens } from "../plugins/request-logging.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import { testDrivers } from "../../../test/databases.ts";
import { htmlValidator } from "../../../test/html-validator.ts";
import { DRAFT_BANNER_TEXT, markAsPreview, PREVIEW_GONE_MESSAGE } from "./preview-routes.ts";

// GET /preview/:token (decision 038, section 2): an article's draft as the public page shows it,
// never kept, counted or indexed; a link that is gone says so on a 404 page.

const HOUR = 60 * 60 * 1000;
const chrome =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const draft = articleDocument({
  slug: "quokka-busbar-draft",
  title: "Quokka Busbar Protection, a Draft",
  excerpt: "Unpublished notes on busbar protection for quokka substations.",
  category: "Protection & Safety",
  imageUrl: "/images/articles/arc-flash-studies-ieee-1584-2018.svg",
  imageAlt: "A 220 kV busbar at dusk, its isolators open",
  publishedAt: "2026-02-03T04:30:00.000Z",
  author: "anil-patel",
  body: "## Zones\n\nEach quokka zone has its own differential relay.\n\n## Checks\n\nTrip tests.",
});

describe.each(testDrivers)("preview links on %s", (driver) => {
  let t: TestApp;
  let articleId: string;
  let revisionId: number;
  let member: { id: string; name: string };
  const get = (url: string) => t.app.inject({ method: "GET", url, headers: { "user-agent": chrome } });
  const linkTo = async (id: string, kind: "preview" | "share" = "preview", now?: Date) =>
    (await createContentLink(t.database.db, { kind, item: { kind: "article", id }, staff: member }, now)).token;

  beforeAll(async () => {
    t = await buildTestApp(driver);
    const [row] = await t.database.db
      .insert(staff)
      .values({ email: "meera@example.test", name: "Meera Shah", webauthnUserId: "preview-test-handle" })
      .returning({ id: staff.id, name: staff.name });
    member = row!;
    ({ id: articleId, revisionId } = await addArticle(t.database.db, draft, { state: "draft" }));
    // A draft names its author by slug (content/team/<slug>.yaml).
    await t.database.db.update(teamMembers).set({ slug: "anil-patel" }).where(eq(teamMembers.name, "Anil Patel"));
  });
  afterAll(async () => {
    await t.close();
  });

  function expectPreviewHeaders(response: Awaited<ReturnType<typeof get>>) {
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers.etag).toBeUndefined();
    expect(response.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(response.body).not.toContain('rel="canonical"');
  }

  it("shows the draft as the article page with a banner, unkept, unindexed and unreferred", async () => {
    for (const kind of ["preview", "share"] as const) {
      const response = await get(`/preview/${await linkTo(articleId, kind)}`);
      expect(response.statusCode, kind).toBe(200);
      expectPreviewHeaders(response);
      const html = response.body;
      expect(html).toContain(`<strong>${DRAFT_BANNER_TEXT}.</strong>`);
      expect(html).toContain('<div id="draft-banner" role="note" aria-label="Preview">');
      expect(html).toContain("<title>Quokka Busbar Protection, a Draft | ");
      expect(html).toContain("Each quokka zone has its own differential relay.");
      expect(html).toContain('<h2 id="section-zones">Zones</h2>');
      // The cover's alt text, and the byline of the team member the draft names.
      expect(html).toContain('alt="A 220 kV busbar at dusk, its isolators open"');
      expect(html).toContain("Anil Patel");
      // Related articles, as the public page lists them: public ones of the same category first.
      expect(html).toContain('aria-labelledby="related-heading"');
      expect(html).toContain("/blog/arc-flash-studies-ieee-1584-2018");
    }
    // Nothing of it reached the public site, the page cache or the analytics.
    expect((await get(articlePath(draft.slug))).statusCode).toBe(404);
    expect((await get("/api/blog-posts")).body).not.toContain("Quokka");
    // A public page is counted, as the check below needs to mean anything.
    expect((await get("/about")).statusCode).toBe(200);
    await t.app.viewCounter.flush();
    const counted = (await t.database.db.select({ path: pageViews.path }).from(pageViews)).map((view) => view.path);
    expect(counted).toContain("/about");
    expect(counted.filter((path) => /preview|quokka/.test(path))).toEqual([]);
  });

  it("is the public page to the byte once published, but for the banner, the robots tag and the canonical address", async () => {
    const { id, revisionId: published } = await addArticle(
      t.database.db,
      { ...draft, slug: "quokka-busbar-published", title: "Quokka Busbar, Published" },
      { state: "draft" },
    );
    await t.database.db.transaction((tx) =>
      publishRevision(tx, {
        kind: "article",
        itemId: id,
        revisionId: published,
        publishedAt: new Date(draft.publishedAt),
      }),
    );
    await refreshContentVersion(t.database.db);
    const publicPage = await get("/blog/quokka-busbar-published");
    expect(publicPage.statusCode).toBe(200);
    const preview = await get(`/preview/${await linkTo(id)}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toBe(markAsPreview(publicPage.body, { banner: true }));
    // Which takes away only what a preview must not carry.
    expect(markAsPreview(publicPage.body, { banner: true })).not.toContain('<link rel="canonical"');
  });

  it("previews a draft with empty fields (no title, cover, excerpt, date, author, body or slug) without an error", async () => {
    const { id } = await addArticle(t.database.db, articleDocument({ slug: "", title: "", imageUrl: "" }), {
      state: "draft",
    });
    const response = await get(`/preview/${await linkTo(id)}`);
    expect(response.statusCode).toBe(200);
    expectPreviewHeaders(response);
    expect(response.body).toContain(DRAFT_BANNER_TEXT);
    expect(response.body).toContain("<title>Untitled draft | ");
    expect(response.body).not.toMatch(/<img[^>]*src=""/);
  });

  it("answers a 404 page saying the link is gone when it expired, was revoked, is malformed or unknown, or its article is in the trash", async () => {
    const expired = await linkTo(articleId, "preview", new Date(Date.now() - 2 * HOUR));
    const revokedLink = await createContentLink(t.database.db, {
      kind: "share",
      item: { kind: "article", id: articleId },
      staff: member,
    });
    expect(
      await revokeContentLink(t.database.db, { item: { kind: "article", id: articleId }, linkId: revokedLink.id }),
    ).toBe(true);
    const { id: trashedId } = await addArticle(t.database.db, { ...draft, slug: "quokka-trashed" }, { state: "draft" });
    const trashed = await linkTo(trashedId);
    await t.database.db.update(blogPosts).set({ deletedAt: new Date() }).where(eq(blogPosts.id, trashedId));
    const wellFormedUnknown = "A".repeat(43);
    for (const token of [
      expired,
      revokedLink.token,
      trashed,
      wellFormedUnknown,
      "short",
      `${"A".repeat(42)}!`,
      `${"A".repeat(44)}`,
      "%00",
      `${expired}x`,
      "B".repeat(5000),
      `${"C".repeat(43)}/more`,
      `${"D".repeat(43)}?utm_source=x`.replace("?", "%3F"),
      "",
    ]) {
      const response = await get(`/preview/${token}`);
      expect(response.statusCode, token).toBe(404);
      expectPreviewHeaders(response);
      expect(response.body, token).toContain(PREVIEW_GONE_MESSAGE);
      expect(response.body, token).not.toContain("Quokka");
      expect(response.body, token).not.toContain(DRAFT_BANNER_TEXT);
    }
    // The same article through a live link still shows: only the dead links are refused.
    expect((await get(`/preview/${await linkTo(articleId)}`)).statusCode).toBe(200);
    expect(revisionId).toBeGreaterThan(0);
  });

  it("passes html-validate's rules, found and gone", async () => {
    for (const url of [`/preview/${await linkTo(articleId)}`, `/preview/${"B".repeat(43)}`]) {
      const report = await htmlValidator.validateString((await get(url)).body, url);
      const problems = report.results.flatMap((result) =>
        result.messages.map((message) => `${message.ruleId}: ${message.message}`),
      );
      expect(problems, url).toEqual([]);
    }
  });

  it("is kept out of robots' way and out of the logs", async () => {
    expect((await get("/robots.txt")).body).toContain("Disallow: /preview\n");
    const token = await linkTo(articleId);
    expect(withoutOneTimeTokens(`GET /preview/${token} 200`)).toBe("GET /preview/[token] 200");
  });
});
