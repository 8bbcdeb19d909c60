import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { type Database, queryRows } from "../db/client.ts";
import { analyticsRolledDays, pageViews } from "../db/schema.ts";
import { analyticsReport, datesFrom } from "./report.ts";
import { analyticsHousekeeping } from "./rollup.ts";

// The report straight on the database: what it refuses, and what it reads.

/** 11:30 in India on 23 Nov 2026. */
const NOW = new Date("2026-11-23T06:00:00Z");

/**
 * Rows of page_views that `run` reads, by sequential and index scans, from the table's counters
 * for the current transaction (the embedded database keeps adding to them until it reports them:
 * hence the difference).
 */
async function rowsRead<Result>(db: Database, run: (tx: Database) => Promise<Result>) {
  return db.transaction(async (tx) => {
    const counted = async () => {
      const [stats] = await queryRows<{ read: number }>(
        tx,
        sql`select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int as read
            from pg_stat_xact_user_tables where relname = 'page_views'`,
      );
      return Number(stats?.read ?? 0);
    };
    const before = await counted();
    const result = await run(tx);
    return { result, read: (await counted()) - before };
  });
}

describe("datesFrom", () => {
  it("counts its days: past the last year a person may type, it still stops", () => {
    expect(datesFrom("2026-11-29", 3)).toEqual(["2026-11-29", "2026-11-30", "2026-12-01"]);
    expect(datesFrom("2099-12-31", 2)).toEqual(["2099-12-31", "2100-01-01"]);
    expect(datesFrom("2026-11-23", 0)).toEqual([]);
  });
});

describe.each(testDrivers)("analyticsReport on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    for (const table of ["page_views", "analytics_daily", "analytics_rolled_days"])
      await database.db.execute(sql.raw(`delete from ${table}`));
  });

  it.each([
    ["9999-12-31", "9999-12-31"],
    ["0000-01-01", "0000-01-01"],
    ["2000-01-01", "2099-12-31"],
    ["2026-11-23", "2026-11-22"],
  ])("refuses %s to %s with a RangeError instead of running on", async (from, to) => {
    await expect(analyticsReport(database.db, from, to)).rejects.toThrow(RangeError);
  });

  it("reads raw views only for the days not rolled up, through the index", async () => {
    // 20,000 views on 20 and 21 Nov, rolled up; three today.
    await queryRows(
      database.db,
      sql`insert into page_views (at, path, device, visitor_hash, views)
          select timestamptz '2026-11-20 00:00:00+05:30' + (i * interval '8 seconds'),
                 (array['/', '/about', '/services', '/contact'])[1 + i % 4], 'desktop', 'visitor-' || (i % 700), 1
          from generate_series(0, 19999) as i`,
    );
    expect((await analyticsHousekeeping(database.db, NOW, 90)).rolledDays).toEqual(["2026-11-20", "2026-11-21"]);
    await database.db.insert(pageViews).values(
      ["/", "/about", "/"].map((path, index) => ({
        at: new Date(NOW.getTime() - index * 60_000),
        path,
        device: "mobile",
        visitorHash: `today-${index}`,
      })),
    );
    await queryRows(database.db, sql`analyze page_views`);

    const { result: report, read } = await rowsRead(database.db, (tx) =>
      analyticsReport(tx, "2026-11-01", "2026-11-23"),
    );
    expect(report).toMatchObject({ pageviews: 20_003, visitors: 700 + 700 + 3 });
    expect(report.daily.slice(-4)).toEqual([
      { date: "2026-11-20", visitors: 700, pageviews: 10_800, enquiries: 0 },
      { date: "2026-11-21", visitors: 700, pageviews: 9_200, enquiries: 0 },
      { date: "2026-11-22", visitors: 0, pageviews: 0, enquiries: 0 },
      { date: "2026-11-23", visitors: 3, pageviews: 3, enquiries: 0 },
    ]);
    expect(read).toBeLessThan(100);
  });

  it("finds the days to roll up without reading every raw view", async () => {
    await queryRows(
      database.db,
      sql`insert into page_views (at, path, device, visitor_hash)
          select timestamptz '2026-11-01 00:00:00+05:30' + (i * interval '30 seconds'), '/', 'desktop', 'v' || (i % 50)
          from generate_series(0, 59999) as i`,
    );
    await database.db
      .insert(analyticsRolledDays)
      .values(datesFrom("2026-11-01", 20).map((day) => ({ day, rolledAt: NOW })));
    await queryRows(database.db, sql`analyze page_views`);
    const { result, read } = await rowsRead(database.db, (tx) => analyticsHousekeeping(tx, NOW, 90));
    // 21 Nov's views are the only ones not rolled up (22 Nov has none).
    expect(result.rolledDays).toEqual(["2026-11-21"]);
    // The day rolled up (2,400 views) and a row or two per day found.
    expect(read).toBeLessThan(2_400 + 100);
  });
});
