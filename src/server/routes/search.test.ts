import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshContentVersion } from "../content/data-version.ts";
import { unpublishItem } from "../content/publishing.ts";
import { queryRows } from "../db/client.ts";
import { blogPosts, searchMisses, searchSynonyms } from "../db/schema.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import { testDrivers } from "../../../test/databases.ts";

// The site search (docs/decisions/054-site-search.md) through inject(), on each database: what it
// finds and marks, how it folds and widens a query, that it finds only what is public now, its
// refusals, and the count of searches that found nothing.

const A_DAY = 24 * 60 * 60 * 1000;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

describe.each(testDrivers)("site search, on %s", (driver) => {
  let t: TestApp;
  const clock = { now: new Date() };
  const search = (q: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "GET",
      url: `/search?${new URLSearchParams({ q }).toString()}`,
      headers: { "user-agent": BROWSER, ...headers },
    });

  beforeAll(async () => {
    t = await buildTestApp(driver, { now: () => clock.now });
    const db = t.database.db;
    const past = new Date(clock.now.getTime() - A_DAY);
    await addArticle(
      db,
      articleDocument({
        slug: "detuned-banks",
        title: "Detuned Capacitor Banks",
        excerpt: "Why a bank needs a reactor.",
        body: "## Resonance\n\nA bank without a reactor may resonate. The zephyrine quartzwell effect is **rare**.\n\nAnd <b>bold</b> [a link](https://example.com).",
      }),
      { state: "published", at: past },
    );
    await addArticle(
      db,
      articleDocument({
        slug: "plumbline-ride-through",
        title: "Plumbline Notes",
        body: "The plumbline inverter met its low-voltage ride-through test at the second attempt.",
      }),
      { state: "published", at: past },
    );
    await addArticle(
      db,
      articleDocument({ slug: "draft-words", title: "Draft Words", body: "The xylocarpine draft." }),
      { state: "draft" },
    );
    await addArticle(
      db,
      articleDocument({ slug: "scheduled-words", title: "Scheduled Words", body: "The quillwortian plan." }),
      { state: "published", at: new Date(clock.now.getTime() + 60_000) },
    );
    await refreshContentVersion(db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("finds a phrase only in one article's body and marks it in the excerpt", async () => {
    const response = await search("zephyrine quartzwell");
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('href="/blog/detuned-banks"');
    expect(response.body).toMatch(/<mark[^>]*>zephyrine quartzwell<\/mark>/);
    expect(response.body).toContain("1 result");
    expect(response.body).toContain('name="robots" content="noindex');
  });

  it("finds articles that write IEEE 519 when asked for IEEE-519 or IEEE519", async () => {
    for (const q of ["IEEE-519", "IEEE519", "ieee 519"]) {
      const response = await search(q);
      expect(response.statusCode, q).toBe(200);
      expect(response.body, q).toContain("IEEE 519 at a Drive-Heavy Plant");
    }
  });

  it("finds services and industries, and ranks a title match first", async () => {
    const response = await search("arc flash");
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("/services#group-");
    const response2 = await search("Renewables");
    expect(response2.body).toContain("/industries#industry-renewables");
  });

  it("widens a term by its synonyms: LVRT finds low-voltage ride-through", async () => {
    const response = await search("LVRT plumbline");
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('href="/blog/plumbline-ride-through"');
    expect(response.body).toContain("Also searched for: low-voltage ride-through");
  });

  it("finds no draft, no scheduled article until its time, and no unpublished article", async () => {
    for (const q of ["xylocarpine", "quillwortian"]) {
      const response = await search(q);
      expect(response.statusCode, q).toBe(200);
      expect(response.body, q).toContain("No results for");
    }
    clock.now = new Date(clock.now.getTime() + 120_000);
    const due = await search("quillwortian");
    expect(due.body).toContain('href="/blog/scheduled-words"');

    const [row] = await t.database.db
      .select({ id: blogPosts.id })
      .from(blogPosts)
      .where(eq(blogPosts.slug, "scheduled-words"));
    await t.database.db.transaction((tx) => unpublishItem(tx, "article", row!.id, "Test Writer"));
    await refreshContentVersion(t.database.db);
    expect((await search("quillwortian")).body).toContain("No results for");
  });

  it("answers an overlong query with a 400 that says so, and operators or common words with a clear page", async () => {
    const long = await search("a".repeat(201));
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain("Search for at most 200 characters");
    for (const q of ["!!!&&||:*()", "the of and", "\u0000\u0001\u0007", "'\"\\", "& | ! <-> :*"]) {
      const response = await search(q);
      expect(response.statusCode, q).toBe(200);
      expect(response.body, q).toContain("Type a word to search");
    }
    const script = await search("<script>alert(1)</script>");
    expect(script.statusCode).toBe(200);
    expect(script.body).not.toContain("<script>alert(1)");
    const many = await search(Array.from({ length: 40 }, (_, index) => `w${index}`).join(" "));
    expect(many.statusCode).toBe(200);
    expect(many.body).toContain("Only the first 12 words were searched.");
    const empty = await t.app.inject({ method: "GET", url: "/search" });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain("What are you looking for?");
    const twice = await t.app.inject({ method: "GET", url: "/search?q=arc&q=flash" });
    expect(twice.statusCode).toBe(200);
  });

  it("never shows the content's own HTML as HTML in an excerpt", async () => {
    const response = await search("zephyrine bold");
    expect(response.body).not.toContain("<b>bold</b>");
  });

  it("counts a search that found nothing by its words and day alone, not a bot's nor Sec-GPC's", async () => {
    await t.app.searchMisses.flush();
    await t.database.db.delete(searchMisses);
    await search("Nothing Zzkqwv here!");
    await search("nothing zzkqwv here");
    await search("nothing zzkqwv bot", { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    await search("nothing zzkqwv gpc", { "sec-gpc": "1" });
    await search("zephyrine");
    await t.app.searchMisses.flush();
    const rows = await queryRows<Record<string, unknown>>(t.database.db, sql`select * from search_misses`);
    expect(rows).toEqual([
      { day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), query: "nothing zzkqwv here", count: 2 },
    ]);
    await t.database.db.delete(searchMisses);
  });

  it("matches article bodies in the blog's search, with and without JavaScript", async () => {
    const page = await t.app.inject({ method: "GET", url: "/blog?q=zephyrine" });
    expect(page.body).toContain("Found 1 article(s)");
    expect(page.body).toMatch(/<h3[^>]*>(?:<a[^>]*>)?Detuned Capacitor Banks/);
    const api = await t.app.inject({ method: "GET", url: "/api/search/articles?q=zephyrine" });
    expect(api.json()).toEqual({ slugs: ["detuned-banks"] });
    expect((await t.app.inject({ method: "GET", url: "/api/search/articles" })).statusCode).toBe(400);
  });

  it("keeps the synonyms table to what the back office writes", async () => {
    const groups = await t.database.db.select().from(searchSynonyms);
    expect(groups.length).toBeGreaterThanOrEqual(8);
  });
});
