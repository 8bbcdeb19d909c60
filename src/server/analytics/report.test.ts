import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { EVENT_LOOP_BUDGET_MS, longestEventLoopStall } from "../../../test/event-loop.ts";
import { addIndiaDays, startOfIndiaDay } from "#shared/india-time.ts";
import { type Database, queryRows } from "../db/client.ts";
import { analyticsRolledDays, contactSubmissions, newsletterSubscribers, pageViews } from "../db/schema.ts";
import { addUp, analyticsReport, datesFrom, type FactRow, facts } from "./report.ts";
import { type AnalyticsHousekeeping, analyticsHousekeeping, ROLL_UP_BATCH_ROWS } from "./rollup.ts";

// The report straight on the database: what it refuses, and what it reads.

/** 11:30 in India on 23 Nov 2026. */
const NOW = new Date("2026-11-23T06:00:00Z");

/**
 * Rows of page_views that `run` reads within the transaction `tx`, by sequential and index scans,
 * from the table's counters for the current transaction (the embedded database keeps adding to
 * them until it reports them: hence the difference).
 */
async function readWithin<Result>(tx: Database, run: (tx: Database) => Promise<Result>) {
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
}

/** Rows of page_views that `run` reads, in a transaction of its own. */
async function rowsRead<Result>(db: Database, run: (tx: Database) => Promise<Result>) {
  return db.transaction((tx) => readWithin(tx, run));
}

/** The database, noting the rows of page_views each of its transactions reads (a batch of the roll-up is one). */
function readsPerTransaction(db: Database) {
  const reads: number[] = [];
  const noted = new Proxy(db, {
    get(target, property) {
      if (property === "transaction")
        return <Result>(run: (tx: Database) => Promise<Result>, config?: Parameters<Database["transaction"]>[1]) =>
          target.transaction(async (tx) => {
            const { result, read } = await readWithin(tx, run);
            reads.push(read);
            return result;
          }, config);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: noted, reads };
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
    await expect(analyticsReport(database.db, from, to, NOW)).rejects.toThrow(RangeError);
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
      analyticsReport(tx, "2026-11-01", "2026-11-23", NOW),
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
    // The day rolled up (2,400 views in batches, each view read twice: once to find where its
    // batch ends, once to add it up) and a row or two per day found.
    expect(read).toBeLessThan(2 * 2_400 + 100);
  });
});

// The review's: 1,000,000 raw views before the first roll-up; a 731-day report took 15.3 s and the
// roll-up about 14 s on the embedded database, /healthz waiting throughout (issue 31).

/**
 * `count` raw views from the start of the India day `first`, `spacingMs` apart: six pages, some
 * from google, bing.com or a campaign, three devices, 300 visitors a day.
 */
function addViews(db: Database, first: string, count: number, spacingMs: number) {
  return queryRows(
    db,
    sql`insert into page_views (at, path, referrer_host, utm_source, utm_campaign, device, visitor_hash, views)
        select ${startOfIndiaDay(first).toISOString()}::timestamptz + (i::bigint * ${spacingMs}::bigint) * interval '1 millisecond',
          (array['/', '/about', '/services', '/contact', '/projects/kutch-solar-park-grid-connection', '/blog/arc-flash'])[1 + (i / 7) % 6],
          case when i % 5 = 0 then 'bing.com' end, case when i % 7 = 0 then 'google' end,
          case when i % 11 = 0 then 'spring' end, (array['desktop', 'mobile', 'tablet'])[1 + i % 3],
          'visitor-' || (i % 300), 1 + i % 3
        from generate_series(0, ${count - 1}::int) as i`,
  );
}

/** Enquiries on `day` (two from its visitors, one spam, one without a visit) and a subscription. */
async function addConversions(db: Database, day: string) {
  const at = (hour: number) => new Date(startOfIndiaDay(day).getTime() + hour * 3_600_000);
  await db.insert(contactSubmissions).values(
    [
      { hash: "visitor-3", hour: 20, spam: false },
      { hash: "visitor-4", hour: 23, spam: false },
      { hash: "visitor-5", hour: 12, spam: true },
      { hash: null, hour: 9, spam: false },
    ].map((entry, index) => ({
      firstName: "Asha",
      lastName: "Patel",
      email: `backlog.${day}.${index}@example.com`,
      message: "A grid study, please.",
      createdAt: at(entry.hour),
      isSpam: entry.spam,
      visitorHash: entry.hash,
      landingPage: entry.hash ? "/services" : null,
      attributionSource: entry.hash ? "google" : null,
      attributionCampaign: entry.hash ? "spring" : null,
    })),
  );
  await db.insert(newsletterSubscribers).values({ email: `backlog.${day}@example.com`, createdAt: at(10) });
}

describe.each(testDrivers)("a long report over days not rolled up on %s", (driver) => {
  // 50,000 raw views from 3 to 12 Nov, never rolled up; a few yesterday (22 Nov) and today.
  const backlogDays = datesFrom("2026-11-03", 10);
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
    await addViews(database.db, backlogDays[0]!, 50_000, 17_280);
    await addViews(database.db, "2026-11-22", 5, 600_000);
    await addViews(database.db, "2026-11-23", 3, 600_000);
    await addConversions(database.db, "2026-11-12");
    await queryRows(database.db, sql`analyze page_views`);
  }, 120_000);
  afterAll(async () => {
    await database.drop();
  });

  it("reads the raw views of yesterday and today alone, names the other days, and holds up no other request", async () => {
    const { result: report, read } = await rowsRead(database.db, (tx) =>
      analyticsReport(tx, "2024-11-23", "2026-11-23", NOW),
    );
    // Today's and yesterday's views, and a row or two per day to find the days waiting.
    expect(read).toBeLessThan(100);
    expect(report.pendingDays).toEqual(backlogDays);
    expect(report).toMatchObject({ visitors: 8, pageviews: 15, enquiries: 3, subscriptions: 1 });
    expect(report.daily.slice(-12).map((day) => [day.date, day.visitors, day.enquiries])).toEqual([
      ["2026-11-12", 0, 3],
      ...datesFrom("2026-11-13", 9).map((date) => [date, 0, 0]),
      ["2026-11-22", 5, 0],
      ["2026-11-23", 3, 0],
    ]);
    const stall = await longestEventLoopStall(() => analyticsReport(database.db, "2024-11-23", "2026-11-23", NOW));
    expect(stall).toBeLessThan(EVENT_LOOP_BUDGET_MS);
  });
});

describe.each(testDrivers)("a backlog of days to roll up on %s", (driver) => {
  // 100 days of 100 raw views, from 13 Aug to 20 Nov; 21 Nov with 1,000 (more than a batch), its
  // enquiries and a subscription; a few yesterday (22 Nov) and today.
  const backlogDays = datesFrom("2026-08-13", 100);
  const bigDay = "2026-11-21";
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
    for (const day of backlogDays) await addViews(database.db, day, 100, 864_000);
    await addViews(database.db, bigDay, 1_000, 86_400);
    await addViews(database.db, "2026-11-22", 5, 600_000);
    await addViews(database.db, "2026-11-23", 3, 600_000);
    await addConversions(database.db, bigDay);
    await queryRows(database.db, sql`analyze page_views`);
  }, 120_000);
  afterAll(async () => {
    await database.drop();
  });

  it("is rolled up a batch at a time: a batch or two read by each transaction, no other request held up, each day's numbers those of its raw views", async () => {
    const raw = async (day: string) =>
      sorted(
        addUp(await facts(database.db, [{ start: startOfIndiaDay(day), end: startOfIndiaDay(addIndiaDays(day, 1)) }])),
      );
    const expected = { big: await raw(bigDay), first: await raw(backlogDays[0]!) };
    expect(expected.big.find((row) => row.dimension === "total" && row.views > 0)).toMatchObject({ visitors: 300 });

    const noted = readsPerTransaction(database.db);
    let done: AnalyticsHousekeeping | undefined;
    // With a retention of one day, the raw views of the days rolled up go too, a batch at a time.
    const stall = await longestEventLoopStall(async () => {
      done = await analyticsHousekeeping(noted.db, NOW, 1);
    });
    expect(stall).toBeLessThan(EVENT_LOOP_BUDGET_MS);
    expect(done).toMatchObject({ rolledDays: [...backlogDays, bigDay, "2026-11-22"], deletedViews: 11_005 });
    // A day of fewer views than a batch is read once to find so, once to add it up; a larger one,
    // a batch at a time, each view twice: to find where its batch ends, and to add it up.
    expect(Math.max(...noted.reads)).toBeLessThanOrEqual(2 * ROLL_UP_BATCH_ROWS + 10);
    expect(noted.reads.length).toBeGreaterThan(backlogDays.length + 10);

    const rolledUp = async (day: string) =>
      sorted(
        await queryRows<FactRow>(
          database.db,
          sql`select day, dimension, value, views, visitors, enquiries, subscriptions from analytics_daily where day = ${day}`,
        ),
      );
    expect(await rolledUp(bigDay)).toEqual(expected.big);
    expect(await rolledUp(backlogDays[0]!)).toEqual(expected.first);
    for (const table of ["analytics_rollup_progress", "analytics_rollup_visitors", "analytics_rollup_pages"])
      expect(await queryRows(database.db, sql.raw(`select * from ${table}`))).toEqual([]);
    const report = await analyticsReport(database.db, "2024-11-23", "2026-11-23", NOW);
    expect(report.pendingDays).toEqual([]);
    expect(report.daily.find((day) => day.date === bigDay)).toMatchObject({ visitors: 300, enquiries: 3 });
  });
});

/** Fact rows in one order, counts as numbers. */
function sorted(rows: FactRow[]): FactRow[] {
  return rows
    .map((row) => ({
      day: row.day,
      dimension: row.dimension,
      value: row.value,
      views: Number(row.views),
      visitors: Number(row.visitors),
      enquiries: Number(row.enquiries),
      subscriptions: Number(row.subscriptions),
    }))
    .sort((a, b) => `${a.dimension}\u0000${a.value}`.localeCompare(`${b.dimension}\u0000${b.value}`));
}
