import { gunzipSync, brotliDecompressSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { parseConfig } from "../config.ts";
import { bumpContentVersion } from "../content/data-version.ts";
import { openDatabase } from "../db/client.ts";
import { teamMembers } from "../db/schema.ts";
import { testRenderer } from "../../../test/build-test-app.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import {
  createTestDatabase,
  onPostgres,
  projectDriver,
  type TestDatabase,
  testDrivers,
} from "../../../test/databases.ts";
import { TEST_FORM_SECRET } from "../../../test/enquiry-fixtures.ts";
import { PageCache } from "./page-cache.ts";
import { eq } from "drizzle-orm";

const config = parseConfig({
  NODE_ENV: "production",
  SITE_URL: "https://www.example.test",
  FORM_SECRET: TEST_FORM_SECRET,
});

async function appOver(database: TestDatabase | Awaited<ReturnType<typeof openDatabase>>, pageCache?: PageCache) {
  return buildApp({ config, db: database.db, renderer: testRenderer(config.siteUrl), contentPollMs: 50, pageCache });
}

describe.each(testDrivers)("the page cache on %s", (driver) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  const cache = new PageCache();
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "content" });
    app = await appOver(database, cache);
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it("serves a repeated page from memory with an ETag, answers 304 to a matching If-None-Match, and compresses", async () => {
    const first = await app.inject({ method: "GET", url: "/about" });
    const second = await app.inject({ method: "GET", url: "/about" });
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(first.headers.etag).toMatch(/^W\/".+"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(first.headers["cache-control"]).toBe("no-cache");
    const notModified = await app.inject({
      method: "GET",
      url: "/about",
      headers: { "if-none-match": String(first.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe("");
    const br = await app.inject({ method: "GET", url: "/about", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);
    const gz = await app.inject({ method: "GET", url: "/about", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(first.body);
  });

  it("keeps each page under its canonical path alone: other spellings, unknown paths and ignored query strings add nothing", async () => {
    const about = await app.inject({ method: "GET", url: "/about" });
    const keptBefore = cache.size;
    // What filled the cache before: every distinct hostile address became an entry of its own.
    for (let n = 0; n < 300; n += 1) {
      for (const url of [
        `//f${n}`,
        `/f${n}`,
        `/blog/no-such-article-${n}`,
        `/about?utm_source=${n}`,
        `/About?x=${n}`,
        `/about/?n=${n}`,
      ]) {
        const response = await app.inject({ method: "GET", url });
        expect([200, 301, 404], url).toContain(response.statusCode);
      }
    }
    // Two more entries at most: the 404 page under no header link and the one under Insights.
    expect(cache.size).toBeLessThanOrEqual(keptBefore + 2);
    // A query string the page does not read is the same page, from the cache, with its ETag.
    const tagged = await app.inject({ method: "GET", url: "/about?utm_source=newsletter" });
    expect(tagged.headers.etag).toBe(about.headers.etag);
    expect(tagged.body).toBe(about.body);
    // The 404 page is kept too, but carries no ETag: conditional requests are for successful answers.
    const missing = await app.inject({ method: "GET", url: "/no-such-page-1" });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    expect(missing.body).toContain("Page Not Found");
  });

  it("renders a page for the request when its query string changes what it shows, and keeps nothing of it", async () => {
    const keptBefore = cache.size;
    const filtered = await app.inject({ method: "GET", url: "/blog?category=Renewable%20Energy" });
    expect(filtered.statusCode).toBe(200);
    expect(filtered.body).toContain("Found ");
    expect(filtered.headers.etag).toBeUndefined();
    expect(filtered.headers["cache-control"]).toBe("no-cache");
    expect(cache.size).toBe(keptBefore);
  });

  it("puts a fresh form token and idempotency key in every answer for the contact page, and lets no one store it", async () => {
    const token = (body: string) => /name="formToken" value="([^"]+)"/.exec(body)?.[1];
    const key = (body: string) => /name="idempotencyKey" value="([^"]+)"/.exec(body)?.[1];
    const a = await app.inject({ method: "GET", url: "/contact" });
    const b = await app.inject({ method: "GET", url: "/contact" });
    expect(token(a.body)).toMatch(/^\d{13}\./);
    expect(token(b.body)).toMatch(/^\d{13}\./);
    expect(token(a.body)).not.toBe(token(b.body));
    expect(key(a.body)).toMatch(/^[0-9a-f-]{36}$/);
    expect(key(a.body)).not.toBe(key(b.body));
    expect(a.body).not.toContain("__FORM_TOKEN");
    expect(a.body).not.toContain("__IDEMPOTENCY_KEY");
    expect(a.headers["cache-control"]).toBe("no-store");
    expect(a.headers.etag).toBeUndefined();
  });

  it("renders again once the content version changes", async () => {
    const before = await app.inject({ method: "GET", url: "/about" });
    await database.db.update(teamMembers).set({ title: "Chief Relay Whisperer" }).where(eq(teamMembers.order, 1));
    expect((await app.inject({ method: "GET", url: "/about" })).body).toBe(before.body);
    // What a content sync that changed a row does last (content/import-content.ts).
    await bumpContentVersion(database.db);
    // The watcher polls every 50 ms here; the next request after it has seen the version renders again.
    await expect
      .poll(async () => (await app.inject({ method: "GET", url: "/about" })).body)
      .toContain("Chief Relay Whisperer");
    const after = await app.inject({ method: "GET", url: "/about" });
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

describe("a scheduled article", () => {
  it("appears in the API and on the cached blog page when its date comes, without a restart", async () => {
    const database = await createTestDatabase(projectDriver, { from: "empty" });
    const app = await appOver(database);
    try {
      await app.inject({ method: "GET", url: "/blog" });
      await addArticle(
        database.db,
        articleDocument({
          title: "Scheduled Grid Note",
          excerpt: "Due in a moment.",
          body: "## Due\n\nSoon.",
          slug: "scheduled-grid-note",
        }),
        // Far enough ahead that the three requests below are answered before it is due.
        { state: "published", at: new Date(Date.now() + 3000) },
      );
      expect((await app.inject({ method: "GET", url: "/api/blog-posts" })).body).not.toContain("Scheduled Grid Note");
      expect((await app.inject({ method: "GET", url: "/blog" })).body).not.toContain("Scheduled Grid Note");
      expect((await app.inject({ method: "GET", url: "/blog/scheduled-grid-note" })).statusCode).toBe(404);
      // Its date comes three seconds after it was stored.
      await expect
        .poll(async () => (await app.inject({ method: "GET", url: "/api/blog-posts" })).body, { timeout: 10_000 })
        .toContain("Scheduled Grid Note");
      expect((await app.inject({ method: "GET", url: "/blog" })).body).toContain("Scheduled Grid Note");
      expect((await app.inject({ method: "GET", url: "/blog/scheduled-grid-note" })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});

describe.runIf(onPostgres)("page caches of two instances over one PostgreSQL", () => {
  it("both render again when the content changes through either", async () => {
    const database = await createTestDatabase("postgres", { from: "content" });
    const other = await openDatabase({ databaseUrl: database.url, dataDir: "unused" });
    const [a, b] = [await appOver(database), await appOver(other)];
    try {
      const before = [
        (await a.inject({ method: "GET", url: "/" })).headers.etag,
        (await b.inject({ method: "GET", url: "/" })).headers.etag,
      ];
      await database.db.update(teamMembers).set({ name: "Dr. Renamed Leader" }).where(eq(teamMembers.order, 1));
      // Instance A's sync, having changed a row, bumps the shared content version; B sees it on its next poll.
      await bumpContentVersion(database.db);
      for (const app of [a, b]) {
        await expect
          .poll(async () => (await app.inject({ method: "GET", url: "/" })).body)
          .toContain("Dr. Renamed Leader");
        const page = await app.inject({ method: "GET", url: "/" });
        expect(before).not.toContain(page.headers.etag);
      }
    } finally {
      await a.close();
      await b.close();
      await other.close();
      await database.drop();
    }
  });
});
