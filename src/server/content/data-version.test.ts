import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { parseConfig } from "../config.ts";
import { openDatabase, queryRows } from "../db/client.ts";
import { blogPosts, projects } from "../db/schema.ts";
import { testRenderer } from "../../../test/build-test-app.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import {
  bumpContentVersion,
  CONTENT_POLL_MS,
  CONTENT_VERSION_KEY,
  refreshContentVersion,
  watchContentVersion,
} from "./data-version.ts";

// The content version (decision 038, section 3): one small poll every 2 s, whose query is the
// public read condition with the instance's own clock; a write refreshes its own instance at once;
// a scheduled article's time coming moves the version with no poll and no job.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe.each(testDrivers)("the content version on %s", (driver) => {
  let database: TestDatabase;
  // Ten days behind the database's clock: what is due by the database's now() is not by this one.
  const clock = { now: new Date(Date.now() - 10 * DAY) };
  beforeEach(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
    clock.now = new Date(Date.now() - 10 * DAY);
  });
  afterEach(async () => {
    await database.drop();
  });

  const watch = () => watchContentVersion(database.db, 60 * MINUTE, () => clock.now);

  it("moves when a scheduled article comes due on the instance's clock, at once and with no poll", async () => {
    const watcher = await watch();
    try {
      // Due five days ago by the database's clock, in five days by the instance's.
      await addArticle(database.db, articleDocument({ slug: "due-later", title: "Due later" }), {
        state: "published",
        at: new Date(clock.now.getTime() + 5 * DAY),
      });
      await watcher.refresh();
      const scheduled = watcher.current();
      clock.now = new Date(clock.now.getTime() + 5 * DAY - 1);
      expect(watcher.current()).toBe(scheduled);
      clock.now = new Date(clock.now.getTime() + 1);
      const due = watcher.current();
      expect(due).not.toBe(scheduled);
      // The next poll agrees: the version stays where the clock moved it.
      await watcher.refresh();
      expect(watcher.current()).toBe(due);
    } finally {
      watcher.stop();
    }
  });

  it("moves when a scheduled project comes due on the instance's clock; an unpublished or trashed one's time never moves it", async () => {
    const watcher = await watch();
    const project = (slug: string) => ({
      slug,
      title: slug,
      description: "A project.",
      category: "Utilities",
      imageUrl: "/images/projects/kutch-solar-park-grid-connection.svg",
      year: "2026",
    });
    try {
      const at = new Date(clock.now.getTime() + 5 * DAY);
      await database.db.insert(projects).values([
        { ...project("due-later"), status: "published", publishedAt: at },
        { ...project("taken-off"), status: "unpublished", publishedAt: new Date(at.getTime() - MINUTE) },
        { ...project("binned"), status: "published", publishedAt: new Date(at.getTime() - MINUTE), deletedAt: at },
      ]);
      await watcher.refresh();
      const scheduled = watcher.current();
      clock.now = new Date(at.getTime() - 1);
      expect(watcher.current()).toBe(scheduled);
      clock.now = at;
      const due = watcher.current();
      expect(due).not.toBe(scheduled);
      await watcher.refresh();
      expect(watcher.current()).toBe(due);
    } finally {
      watcher.stop();
    }
  });

  it("is not moved by the time of an article that is not public: unpublished, in the trash or a draft", async () => {
    const watcher = await watch();
    try {
      const at = new Date(clock.now.getTime() + MINUTE);
      await addArticle(database.db, articleDocument({ slug: "off", title: "Off" }), { state: "unpublished", at });
      await addArticle(database.db, articleDocument({ slug: "binned", title: "Binned" }), { state: "trashed", at });
      await addArticle(database.db, articleDocument({ slug: "draft", title: "Draft" }), { state: "draft" });
      await watcher.refresh();
      const before = watcher.current();
      clock.now = new Date(at.getTime() + MINUTE);
      expect(watcher.current()).toBe(before);
      await watcher.refresh();
      expect(watcher.current()).toBe(before);
    } finally {
      watcher.stop();
    }
  });

  it("is read again at once by every watcher over the database when the writer calls refreshContentVersion", async () => {
    const [a, b] = [await watch(), await watch()];
    const stopped = await watch();
    stopped.stop();
    try {
      const before = [a.current(), b.current(), stopped.current()];
      await bumpContentVersion(database.db);
      expect([a.current(), b.current()]).toEqual(before.slice(0, 2));
      await refreshContentVersion(database.db);
      expect(a.current()).not.toBe(before[0]);
      expect(b.current()).toBe(a.current());
      // A stopped watcher is no longer refreshed.
      expect(stopped.current()).toBe(before[2]);
    } finally {
      a.stop();
      b.stop();
    }
  });

  it("moves with every bump, two in one millisecond included", async () => {
    const read = async () =>
      (
        await queryRows<{ value: string }>(
          database.db,
          sql`select value from app_settings where key = ${CONTENT_VERSION_KEY}`,
        )
      )[0]?.value;
    const values = [];
    for (let bump = 0; bump < 5; bump += 1) {
      await bumpContentVersion(database.db);
      values.push(Number(await read()));
    }
    expect(new Set(values).size).toBe(5);
    expect([...values].sort((x, y) => x - y)).toEqual(values);
    // Still a time in ms: the sitemap dates pages by it.
    expect(Math.abs(values[0]! - Date.now())).toBeLessThan(MINUTE);
  });
});

describe.each(testDrivers)("an article scheduled a minute ahead, on two instances over one %s database", (driver) => {
  const config = parseConfig({ NODE_ENV: "production", SITE_URL: "https://www.example.test" });
  // Both instances' clocks, which the test moves together.
  const clock = { now: new Date() };
  let database: TestDatabase;
  let otherHandle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  let apps: FastifyInstance[];
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "content" });
    // PostgreSQL: a connection pool each, as two servers have. PGlite: one embedded database, shared.
    otherHandle = database.url ? await openDatabase({ databaseUrl: database.url, dataDir: "unused" }) : undefined;
    apps = await Promise.all(
      [database.db, otherHandle?.db ?? database.db].map((db) =>
        // The default poll: every CONTENT_POLL_MS.
        buildApp({ config, db, renderer: testRenderer(config.siteUrl), now: () => clock.now }),
      ),
    );
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await otherHandle?.close();
    await database.drop();
  });

  it("is served by both (page, /blog, RSS, sitemap) within a poll of its time passing, their page caches following", async () => {
    expect(CONTENT_POLL_MS).toBe(2000);
    const get = (app: FastifyInstance, url: string) => app.inject({ method: "GET", url });
    const listings = ["/blog", "/rss.xml", "/sitemap.xml", "/"];
    const before = new Map<string, string | undefined>();
    for (const [index, app] of apps.entries()) {
      for (const url of listings)
        before.set(`${index}${url}`, (await get(app, url)).headers.etag as string | undefined);
    }
    const { id } = await addArticle(
      database.db,
      articleDocument({ slug: "scheduled-on-two", title: "Scheduled On Two Instances", body: "Due in a minute." }),
      { state: "published", at: new Date(clock.now.getTime() + MINUTE) },
    );
    // What the writing instance does after its commit.
    await refreshContentVersion(database.db);
    for (const app of apps) {
      expect((await get(app, "/blog/scheduled-on-two")).statusCode).toBe(404);
      expect((await get(app, "/blog")).body).not.toContain("Scheduled On Two Instances");
    }
    clock.now = new Date(clock.now.getTime() + MINUTE + 1000);
    const moved = performance.now();
    for (const [index, app] of apps.entries()) {
      // The other instance learns of the article at its next poll, CONTENT_POLL_MS away (a timer on a
      // busy machine may fire late: two polls allowed). Its kept /blog is what must follow: the
      // article's own page, never kept before, is read afresh at once and would pass early.
      await expect
        .poll(async () => (await get(app, "/blog")).body.includes("Scheduled On Two Instances"), {
          timeout: 2 * CONTENT_POLL_MS + 1000,
          interval: 100,
        })
        .toBe(true);
      expect((await get(app, "/blog/scheduled-on-two")).statusCode).toBe(200);
      for (const url of listings) {
        const response = await get(app, url);
        expect(response.body, `${index}${url}`).toContain(
          url === "/sitemap.xml" || url === "/rss.xml" ? "/blog/scheduled-on-two" : "Scheduled On Two Instances",
        );
        expect(response.headers.etag, `${index}${url}`).not.toBe(before.get(`${index}${url}`));
      }
    }
    expect(performance.now() - moved).toBeLessThan(2 * (2 * CONTENT_POLL_MS + 1000));
    const [row] = await database.db.select({ status: blogPosts.status }).from(blogPosts).where(eq(blogPosts.id, id));
    // Nothing flipped it: "scheduled" is a published article whose time had not come.
    expect(row?.status).toBe("published");
  });
});
