import { brotliDecompressSync } from "node:zlib";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildApp } from "../app.ts";
import { parseConfig } from "../config.ts";
import { bumpContentVersion, contentSyncedAt, refreshContentVersion } from "../content/data-version.ts";
import { blogPosts, teamMembers } from "../db/schema.ts";
import { testRenderer } from "../../../test/build-test-app.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { absoluteAddresses, indiaTimestamp } from "./feeds.ts";

const config = parseConfig({ NODE_ENV: "production", SITE_URL: "https://www.example.test" });
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const lastmodOf = (sitemap: string, path: string) =>
  new RegExp(
    `<loc>https://www\\.example\\.test${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</loc><lastmod>([^<]+)</lastmod>`,
  ).exec(sitemap)?.[1];

describe("indiaTimestamp", () => {
  it("writes a moment as ISO 8601 in India Standard Time", () => {
    expect(indiaTimestamp(new Date("2025-01-04T18:30:00Z"))).toBe("2025-01-05T00:00:00+05:30");
    expect(indiaTimestamp(new Date("2025-03-01T12:15:30.250Z"))).toBe("2025-03-01T17:45:30+05:30");
  });
});

describe.each(testDrivers)("the sitemap and the RSS feed on %s", (driver) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    // On this thread (whatever TEST_PGLITE_THREAD says), so that the one-query test below can
    // watch PGlite's own method.
    database = await createTestDatabase(driver, { from: "content", thread: "process" });
    app = await buildApp({ config, db: database.db, renderer: testRenderer(config.siteUrl), contentPollMs: 50 });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it("dates an article by its own day in India, and pages and projects by the last content sync", async () => {
    const sitemap = (await app.inject({ method: "GET", url: "/sitemap.xml" })).body;
    // content/articles/arc-flash-studies-ieee-1584-2018.md: publishedAt 2024-09-12, midnight in India.
    expect(lastmodOf(sitemap, "/blog/arc-flash-studies-ieee-1584-2018")).toBe("2024-09-12T00:00:00+05:30");
    const synced = indiaTimestamp((await contentSyncedAt(database.db))!);
    expect(lastmodOf(sitemap, "/about")).toBe(synced);
    expect(lastmodOf(sitemap, "/projects/kutch-solar-park-grid-connection")).toBe(synced);
    // The sync ran after every article's date, so the pages listing articles carry its time too.
    expect(lastmodOf(sitemap, "/blog")).toBe(synced);
    expect(sitemap.match(/<url>/g)?.length).toBe(sitemap.match(/<lastmod>/g)?.length);
  });

  it("dates the pages that list articles by an article published after the last sync", async () => {
    // Due a moment from now: after the sync in beforeAll, and before the request below. At least
    // a second after the sync, so that the two are told apart in the sitemap's whole seconds.
    const syncedAt = (await contentSyncedAt(database.db))!.getTime();
    const published = new Date(Math.max(Date.now(), syncedAt + 1000) + 100);
    await addArticle(
      database.db,
      articleDocument({
        title: "Published After The Sync",
        excerpt: "Came due after the content was last loaded.",
        body: "## Due\n\nNow.",
        slug: "published-after-the-sync",
      }),
      { state: "published", at: published },
    );
    // Once it is due, the content version moves and the sitemap is made again.
    await expect
      .poll(async () => (await app.inject({ method: "GET", url: "/sitemap.xml" })).body, { timeout: 10_000 })
      .toContain("/blog/published-after-the-sync</loc>");
    const sitemap = (await app.inject({ method: "GET", url: "/sitemap.xml" })).body;
    expect(indiaTimestamp(published)).not.toBe(indiaTimestamp(new Date(syncedAt)));
    expect(lastmodOf(sitemap, "/blog")).toBe(indiaTimestamp(published));
    expect(lastmodOf(sitemap, "/")).toBe(indiaTimestamp(published));
    expect(lastmodOf(sitemap, "/about")).toBe(indiaTimestamp((await contentSyncedAt(database.db))!));
  });

  it("gives every address in an item's content in full: a reader shows it away from the site", async () => {
    const slug = `absolute-${driver}`;
    await addArticle(
      database.db,
      articleDocument({
        slug,
        title: "Addresses in full",
        body: "See [our services](/services) and [IEEE](https://ieee.org/).\n\n![A substation](/images/articles/fault-ride-through-model-validation.svg)",
      }),
      { state: "published", at: new Date(Date.now() - 60_000) },
    );
    // Publishing moved the content version; the app reads it now rather than at its next poll.
    await refreshContentVersion(database.db);
    const feed = (await app.inject({ method: "GET", url: "/rss.xml" })).body;
    expect(feed).toContain(`/blog/${slug}`);
    const item = feed.slice(feed.indexOf(`/blog/${slug}`));
    const html = /<content:encoded><!\[CDATA\[([\s\S]*?)\]\]><\/content:encoded>/.exec(item)![1]!;
    const addresses = [
      ...[...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1]!),
      ...[...html.matchAll(/\ssrcset="([^"]*)"/g)].flatMap((match) =>
        match[1]!.split(", ").map((entry) => entry.split(" ")[0]!),
      ),
    ];
    expect(addresses).toContain(`${config.siteUrl}/services`);
    expect(addresses).toContain("https://ieee.org/");
    expect(addresses.some((address) => address.startsWith(`${config.siteUrl}/media/`))).toBe(true);
    expect(addresses.filter((address) => !address.startsWith("https://"))).toEqual([]);
  });

  it("makes site addresses absolute and leaves full ones as they are", () => {
    expect(
      absoluteAddresses(
        '<a href="/services">x</a><a href="https://ieee.org/">y</a><a href="//cdn.example/z">z</a><img src="/media/k/640.jpg" srcset="/media/k/320.jpg 320w, /media/k/640.jpg 640w">',
        "https://www.example.test",
      ),
    ).toBe(
      '<a href="https://www.example.test/services">x</a><a href="https://ieee.org/">y</a><a href="//cdn.example/z">z</a><img src="https://www.example.test/media/k/640.jpg" srcset="https://www.example.test/media/k/320.jpg 320w, https://www.example.test/media/k/640.jpg 640w">',
    );
  });

  it("renders each once per content version and answers a repeat from memory, with an ETag and compressed", async () => {
    for (const url of ["/rss.xml", "/sitemap.xml"]) {
      const first = await app.inject({ method: "GET", url });
      expect(first.statusCode, url).toBe(200);
      expect(first.headers.etag, url).toMatch(/^W\/".+"$/);
      const again = await app.inject({ method: "GET", url, headers: { "if-none-match": String(first.headers.etag) } });
      expect(again.statusCode, url).toBe(304);
      const br = await app.inject({ method: "GET", url, headers: { "accept-encoding": "br" } });
      expect(br.headers["content-encoding"], url).toBe("br");
      expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(first.body);
    }

    const before = await app.inject({ method: "GET", url: "/rss.xml" });
    await database.db
      .update(blogPosts)
      .set({ title: "Arc Flash, Retitled" })
      .where(eq(blogPosts.slug, "arc-flash-studies-ieee-1584-2018"));
    // Several polls of the content version (every 50 ms here) pass, and the feed is the one kept.
    await settle();
    expect((await app.inject({ method: "GET", url: "/rss.xml" })).body).toBe(before.body);
    // What every content sync does last.
    await bumpContentVersion(database.db);
    await expect
      .poll(async () => (await app.inject({ method: "GET", url: "/rss.xml" })).body)
      .toContain("Arc Flash, Retitled");
    const after = await app.inject({ method: "GET", url: "/rss.xml" });
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it.runIf(driver === "pglite")(
    "reads the articles for the feed in one query, not one or two per article",
    async () => {
      // A new version, so that the next request renders the feed again. A team member changed with
      // it shows on /about once the app has seen the version.
      await database.db.update(teamMembers).set({ title: "Head of Feed Tests" }).where(eq(teamMembers.order, 1));
      await bumpContentVersion(database.db);
      // The app reads the version now, not at its next poll: the feed kept is then stale for sure.
      await refreshContentVersion(database.db);
      expect((await app.inject({ method: "GET", url: "/about" })).body).toContain("Head of Feed Tests");
      // On PGlite every query the app makes passes through this one method.
      const query = vi.spyOn(database.pglite!, "query");
      try {
        const feed = await app.inject({ method: "GET", url: "/rss.xml" });
        expect(feed.body.match(/<item>/g)?.length).toBeGreaterThan(5);
        expect(query.mock.calls.filter(([text]) => String(text).includes('"blog_posts"'))).toHaveLength(1);
      } finally {
        query.mockRestore();
      }
    },
  );
});
