import { sql, type SQL } from "drizzle-orm";
import { type AnalyticsReport, DIRECT_SOURCE, funnelSteps } from "#shared/analytics.ts";
import { type Database, queryRows } from "../db/client.ts";
import { addIndiaDays, indiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import { parseReportRange } from "./report-range.ts";

// The numbers of a period, per India day and dimension, from two places: the daily roll-up for
// the days already rolled up (whose raw views may be gone), and the raw views, enquiries and
// subscriptions of today and yesterday when they are not rolled up yet. The roll-up computes a
// day with the same SQL as `facts` (in batches, rollup.ts), so a day shows the same numbers
// before and after its roll-up. Since the visitor hash changes every day, visitors over several
// days are the sum of each day's: the roll-up adds up exactly.
// A report reads raw views of two days at most, through the index on their time: it once read
// every raw view of its period, and on the embedded database, which runs in the server's own
// thread, a backlog of days not rolled up held up every other request for seconds
// (docs/performance/2026-11-26-analytics-report.md; issue 31). An older day not rolled up yet
// (a backlog the housekeeping is working through) shows its enquiries and subscriptions, and is
// named in `pendingDays`: its views come once it is rolled up.

export type FactRow = {
  day: string;
  dimension: string;
  value: string;
  views: number;
  visitors: number;
  enquiries: number;
  subscriptions: number;
};

/** Moments from `start` (inclusive) to `end` (exclusive): whole India days. */
export type Span = { start: Date; end: Date };

/** Rows at most this many per list of the report. */
const LIST_LIMIT = 100;

const indiaDayOf = (column: string) =>
  sql.raw(`to_char((${column} + interval '330 minutes') at time zone 'UTC', 'YYYY-MM-DD')`);

/** The WHERE condition of rows whose `column` is within the spans. */
export function within(spans: Span[], column: string): SQL {
  // Bounds written out, so that the planner sees how few rows they hold and takes each table's index on its time.
  return sql.join(
    spans.map(
      (span) =>
        sql`(${sql.raw(column)} >= ${span.start.toISOString()}::timestamptz and ${sql.raw(column)} < ${span.end.toISOString()}::timestamptz)`,
    ),
    sql` or `,
  );
}

/** The enquiries (not spam) within the spans: the CTE `e`. */
export const enquiriesWithin = (spans: Span[]): SQL => sql`
  select ${indiaDayOf("created_at")} as day, id, created_at, visitor_hash as h, landing_page, attribution_source, attribution_campaign
  from contact_submissions where not is_spam and (${within(spans, "created_at")})`;

/** Whether a view's path is a service, industry or project page, or /contact: the funnel's steps. */
export const interestedPath = (path: string) => sql.raw(`${path} ~ '^/(services|industries|projects)(/|$)'`);
export const contactPath = (path: string) => sql.raw(`${path} = '/contact'`);
/** A view's source: its UTM source, else the referring site, else a direct visit. */
export const sourceOf = sql`coalesce(utm_source, referrer_host, ${DIRECT_SOURCE})`;

// The facts in three parts, each a query over the CTEs it names, so that the roll-up can compute
// them from its batches with the same SQL (rollup.ts):
// - of visitors: `vh` (day, h, views, interested, contact), `landing` (day, source, campaign,
//   device: a visitor's first view that day) and `f` (the funnel: vh and whether h enquired);
// - of visitors' pages: `vp` (day, path, h, views, first_at) and `e`;
// - of enquiries and subscriptions alone: `e` and `s` (day).
// Each visitor (h) is wholly in one batch, so the counts of separate batches add up.

/** `f` from `vh` and `e`. */
export const funnelOfVisitors = sql`
  select vh.day, vh.h, vh.interested, vh.contact,
    exists (select 1 from e where e.h = vh.h and e.day = vh.day) as enquired
  from vh`;

export const visitorFacts = sql`
  select day, 'total' as dimension, '' as value, sum(views)::int as views, count(*)::int as visitors, 0 as enquiries, 0 as subscriptions from vh group by day
  union all select day, 'source', source, 0, count(*)::int, 0, 0 from landing group by day, source
  union all select day, 'campaign', campaign, 0, count(*)::int, 0, 0 from landing where campaign is not null group by day, campaign
  union all select day, 'device', device, 0, count(*)::int, 0, 0 from landing group by day, device
  union all
    select f.day, 'funnel', step.key, 0, count(*)::int, 0, 0
    from f cross join lateral (values
      ('visited', true),
      ('interested', f.interested),
      ('contact', f.interested and f.contact),
      ('enquired', f.interested and f.contact and f.enquired)
    ) as step(key, reached)
    where step.reached group by f.day, step.key`;

export const pageFacts = sql`
  select day, 'page' as dimension, path as value, sum(views)::int as views, count(*)::int as visitors, 0 as enquiries, 0 as subscriptions from vp group by day, path
  union all
    select vp.day, 'page', vp.path, 0, 0, count(distinct e.id)::int, 0
    from vp join e on e.h = vp.h and e.day = vp.day and vp.first_at <= e.created_at
    group by vp.day, vp.path`;

export const enquiryFacts = sql`
  select day, 'total' as dimension, '' as value, 0 as views, 0 as visitors, count(*)::int as enquiries, 0 as subscriptions from e group by day
  union all select day, 'total', '', 0, 0, 0, count(*)::int from s group by day
  union all select day, 'source', coalesce(attribution_source, ${DIRECT_SOURCE}), 0, 0, count(*)::int, 0 from e where landing_page is not null group by 1, 3
  union all select day, 'campaign', attribution_campaign, 0, 0, count(*)::int, 0 from e where attribution_campaign is not null group by day, attribution_campaign`;

/** The subscriptions within the spans: the CTE `s`. */
export const subscriptionsWithin = (spans: Span[]): SQL =>
  sql`select ${indiaDayOf("created_at")} as day from newsletter_subscribers where ${within(spans, "created_at")}`;

/**
 * The day-by-day facts of the raw rows within the spans (whole India days): views and visitors of
 * the site, each page, source (a visitor's first view that day), campaign and device; enquiries
 * and subscriptions; the funnel. It reads every raw view of the spans: the report asks it for
 * today and yesterday alone.
 */
export async function facts(db: Database, spans: Span[]): Promise<FactRow[]> {
  if (spans.length === 0) return [];
  const query: SQL = sql`
    with v as (
      select ${indiaDayOf("at")} as day, id, at, path, referrer_host, utm_source, utm_campaign, device, visitor_hash as h, views
      from page_views where ${within(spans, "at")}
    ),
    e as (${enquiriesWithin(spans)}),
    s as (${subscriptionsWithin(spans)}),
    landing as (
      select distinct on (day, h) day, h, ${sourceOf} as source, utm_campaign as campaign, device
      from v order by day, h, at, id
    ),
    -- Each visitor's day, and each visitor's day on a page: hashed once, then only counted.
    vh as (
      select day, h, sum(views) as views, bool_or(${interestedPath("path")}) as interested, bool_or(${contactPath("path")}) as contact
      from v group by day, h
    ),
    vp as (select day, path, h, sum(views) as views, min(at) as first_at from v group by day, path, h),
    f as (${funnelOfVisitors})
    ${visitorFacts}
    union all ${pageFacts}
    union all ${enquiryFacts}`;
  return numbers(await queryRows<FactRow>(db, query));
}

/** The facts of the enquiries and subscriptions within the spans, without their views. */
export async function factsWithoutViews(db: Database, spans: Span[]): Promise<FactRow[]> {
  if (spans.length === 0) return [];
  const query: SQL = sql`
    with e as (${enquiriesWithin(spans)}), s as (${subscriptionsWithin(spans)})
    ${enquiryFacts}`;
  return numbers(await queryRows<FactRow>(db, query));
}

/** Counts as numbers, whatever type the driver gives a bigint. */
function numbers(rows: FactRow[]): FactRow[] {
  return rows.map((row) => ({
    ...row,
    views: Number(row.views),
    visitors: Number(row.visitors),
    enquiries: Number(row.enquiries),
    subscriptions: Number(row.subscriptions),
  }));
}

/** Rows with the same day, dimension and value added up. */
export function addUp(rows: FactRow[]): FactRow[] {
  const sums = new Map<string, FactRow>();
  for (const row of rows) {
    const key = `${row.day}\u0000${row.dimension}\u0000${row.value}`;
    const sum = sums.get(key);
    if (!sum) sums.set(key, { ...row });
    else {
      sum.views += row.views;
      sum.visitors += row.visitors;
      sum.enquiries += row.enquiries;
      sum.subscriptions += row.subscriptions;
    }
  }
  return [...sums.values()];
}

/** The `days` India dates from `from` on: counted, so that no date can make it run on. */
export function datesFrom(from: string, days: number): string[] {
  return Array.from({ length: days }, (_, index) => addIndiaDays(from, index));
}

/** The days not in `rolled`, as spans of consecutive days. */
export function spansNotRolled(dates: string[], rolled: Set<string>): Span[] {
  const spans: Span[] = [];
  let open: Span | undefined;
  for (const date of dates) {
    if (rolled.has(date)) {
      open = undefined;
      continue;
    }
    const end = startOfIndiaDay(addIndiaDays(date, 1));
    if (open) open.end = end;
    else spans.push((open = { start: startOfIndiaDay(date), end }));
  }
  return spans;
}

/**
 * The roll-up of the rolled-up days from `from` to `to`: per day for the totals, per value (day
 * "") for the rest. A day being rolled up has part of its rows already: it counts once marked.
 */
async function rolledUp(db: Database, from: string, to: string): Promise<FactRow[]> {
  const rows = await queryRows<FactRow>(
    db,
    sql`select case when dimension = 'total' then daily.day else '' end as day, dimension, value,
          sum(views)::bigint as views, sum(visitors)::bigint as visitors,
          sum(enquiries)::bigint as enquiries, sum(subscriptions)::bigint as subscriptions
        from analytics_daily daily join analytics_rolled_days rolled on rolled.day = daily.day
        where daily.day >= ${from} and daily.day <= ${to}
        group by 1, dimension, value`,
  );
  return numbers(rows);
}

/**
 * The India days from `from` (inclusive) to `before` (exclusive) that have raw views, oldest
 * first. One statement skips from a day with views to the next through the index on
 * page_views.at: a row or two per day, never every raw view.
 */
export async function daysWithViews(db: Database, from: Date | undefined, before: Date): Promise<string[]> {
  const beforeAt = sql`${before.toISOString()}::timestamptz`;
  const nextDay = sql.raw(
    `((((d.at at time zone 'UTC') + interval '330 minutes')::date + 1)::timestamp - interval '330 minutes') at time zone 'UTC'`,
  );
  const rows = await alongTheIndex<{ day: string }>(
    db,
    sql`with recursive d(at) as (
          (select min(at) from page_views where at < ${beforeAt}
            ${from ? sql`and at >= ${from.toISOString()}::timestamptz` : sql``})
          union all
          select (select min(p.at) from page_views p where p.at >= ${nextDay} and p.at < ${beforeAt})
          from d where d.at is not null
        )
        select ${indiaDayOf("at")} as day from d where at is not null order by at`,
  );
  return rows.map((row) => row.day);
}

const planner = (value: "on" | "off") =>
  sql`select set_config('enable_seqscan', ${value}, true), set_config('enable_bitmapscan', ${value}, true),
        set_config('enable_sort', ${value}, true)`;

/**
 * `query`'s rows, planned to walk the index on page_views.at instead of reading every row in its
 * range and sorting them: the planner chooses that when it expects few rows, from statistics the
 * embedded database never gathers by itself, and a batch must read a batch, not the rest of a day.
 */
export async function alongTheIndex<Row>(db: Database, query: SQL): Promise<Row[]> {
  return db.transaction(async (tx) => {
    await tx.execute(planner("off"));
    const rows = await queryRows<Row>(tx, query);
    await tx.execute(planner("on"));
    return rows;
  });
}

const byNumber =
  <Row>(pick: (row: Row) => number, name: (row: Row) => string) =>
  (a: Row, b: Row) =>
    pick(b) - pick(a) || name(a).localeCompare(name(b));

/**
 * The report of the India dates `from` to `to`, inclusive, as of `now`. Throws a RangeError for
 * dates parseReportRange refuses: the routes answer 400 before they get here.
 */
export async function analyticsReport(db: Database, from: string, to: string, now: Date): Promise<AnalyticsReport> {
  const range = parseReportRange(from, to);
  if ("problem" in range) throw new RangeError(range.problem);
  const dates = datesFrom(range.from, range.days);
  // Raw views are read for yesterday and today (and any later day of the period, in case another
  // instance's clock is ahead): the days housekeeping cannot have rolled up yet.
  const yesterday = addIndiaDays(indiaDay(now), -1);
  const older = dates.filter((date) => date < yesterday);
  const recent = dates.filter((date) => date >= yesterday);
  // One snapshot, so that a day rolled up meanwhile is read from one place only.
  const { rows, pendingDays } = await db.transaction(
    async (tx) => {
      const rolled = new Set(
        (
          await queryRows<{ day: string }>(
            tx,
            sql`select day from analytics_rolled_days where day >= ${from} and day <= ${to}`,
          )
        ).map((row) => row.day),
      );
      const raw = await facts(tx, spansNotRolled(recent, rolled));
      const withoutViews = await factsWithoutViews(tx, spansNotRolled(older, rolled));
      const pending = older.length
        ? (await daysWithViews(tx, startOfIndiaDay(older[0]!), startOfIndiaDay(addIndiaDays(older.at(-1)!, 1)))).filter(
            (day) => !rolled.has(day),
          )
        : [];
      return { rows: addUp([...(await rolledUp(tx, from, to)), ...raw, ...withoutViews]), pendingDays: pending };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );

  const perValue = (dimension: string) => {
    const sums = new Map<string, { views: number; visitors: number; enquiries: number }>();
    for (const row of rows) {
      if (row.dimension !== dimension) continue;
      const sum = sums.get(row.value) ?? { views: 0, visitors: 0, enquiries: 0 };
      sum.views += row.views;
      sum.visitors += row.visitors;
      sum.enquiries += row.enquiries;
      sums.set(row.value, sum);
    }
    return [...sums.entries()].map(([value, sum]) => ({ value, ...sum }));
  };

  const daily = new Map(dates.map((date) => [date, { date, visitors: 0, pageviews: 0, enquiries: 0 }]));
  let subscriptions = 0;
  for (const row of rows) {
    if (row.dimension !== "total") continue;
    const day = daily.get(row.day);
    if (day) {
      day.visitors += row.visitors;
      day.pageviews += row.views;
      day.enquiries += row.enquiries;
    }
    subscriptions += row.subscriptions;
  }
  const days = [...daily.values()];
  const visitors = days.reduce((sum, day) => sum + day.visitors, 0);
  const enquiries = days.reduce((sum, day) => sum + day.enquiries, 0);
  const funnel = new Map(perValue("funnel").map((row) => [row.value, row.visitors]));

  return {
    from,
    to,
    pendingDays,
    visitors,
    pageviews: days.reduce((sum, day) => sum + day.pageviews, 0),
    enquiries,
    subscriptions,
    conversionRate: visitors === 0 ? 0 : Math.round((enquiries / visitors) * 10_000) / 10_000,
    daily: days,
    pages: perValue("page")
      .sort(
        byNumber(
          (row) => row.views,
          (row) => row.value,
        ),
      )
      .slice(0, LIST_LIMIT)
      .map((row) => ({ path: row.value, views: row.views, visitors: row.visitors, enquiries: row.enquiries })),
    sources: perValue("source")
      .sort(
        byNumber(
          (row) => row.visitors,
          (row) => row.value,
        ),
      )
      .slice(0, LIST_LIMIT)
      .map((row) => ({ source: row.value, visitors: row.visitors, enquiries: row.enquiries })),
    campaigns: perValue("campaign")
      .sort(
        byNumber(
          (row) => row.visitors,
          (row) => row.value,
        ),
      )
      .slice(0, LIST_LIMIT)
      .map((row) => ({ campaign: row.value, visitors: row.visitors, enquiries: row.enquiries })),
    funnel: funnelSteps.map((step) => ({ step: step.key, visitors: funnel.get(step.key) ?? 0 })),
    devices: perValue("device")
      .sort(
        byNumber(
          (row) => row.visitors,
          (row) => row.value,
        ),
      )
      .map((row) => ({ device: row.value, visitors: row.visitors })),
  };
}

/** Today's India date, for the period picker. */
export const todayInIndia = (now: Date) => indiaDay(now);
