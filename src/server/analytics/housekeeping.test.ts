import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { parseConfig } from "../config.ts";
import { analyticsDaily, analyticsSalts, pageViews } from "../db/schema.ts";
import { type Site, startSite } from "../site.ts";

// The running site rolls up and prunes the analytics on start and every 10 minutes, with
// ANALYTICS=false too: views counted before counting was turned off still go when their time is up.

const DAY = 86_400_000;

describe.each(testDrivers)("analytics housekeeping by the running site on %s", (driver) => {
  let database: TestDatabase | undefined;
  let site: Site | undefined;
  afterEach(async () => {
    await site?.close();
    await database?.drop();
    site = undefined;
    database = undefined;
  });

  it("rolls up past days, deletes raw views past ANALYTICS_RETENTION_DAYS and salts past 48 hours, even with ANALYTICS=false", async () => {
    database = await createTestDatabase(driver, { from: "empty" });
    const old = new Date(Date.now() - 40 * DAY);
    const recent = new Date(Date.now() - 2 * DAY);
    await database.db.insert(pageViews).values([
      { at: old, path: "/", device: "desktop", visitorHash: "old-visitor" },
      { at: recent, path: "/about", device: "mobile", visitorHash: "recent-visitor", views: 2 },
    ]);
    await database.db.insert(analyticsSalts).values({ day: "2020-01-01", salt: "old", createdAt: old });
    const keptOpen = { ...database, close: async () => {} };
    site = await startSite({
      config: parseConfig({
        NODE_ENV: "test",
        DATA_DIR: "memory://",
        ANALYTICS: "false",
        ANALYTICS_RETENTION_DAYS: "30",
      }),
      database: keptOpen,
      syncContent: false,
    });
    const db = database.db;
    await expect
      .poll(async () => (await db.select().from(pageViews)).map((row) => row.path), { timeout: 10_000 })
      .toEqual(["/about"]);
    // The salts go last, after the views.
    await expect.poll(async () => (await db.select().from(analyticsSalts)).length, { timeout: 10_000 }).toBe(0);
    const totals = await db.execute(
      sql`select dimension, value, views, visitors from analytics_daily where dimension = 'total' order by day`,
    );
    expect((totals as unknown as { rows: unknown[] }).rows).toEqual([
      { dimension: "total", value: "", views: 1, visitors: 1 },
      { dimension: "total", value: "", views: 2, visitors: 1 },
    ]);
    expect((await db.select().from(analyticsDaily)).length).toBeGreaterThan(2);
  });
});
