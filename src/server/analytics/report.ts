import { sql, type SQL } from "drizzle-orm";
import { type AnalyticsReport, DIRECT_SOURCE, funnelSteps } from "#shared/analytics.ts";
import { type Database, queryRows } from "../db/client.ts";
import { addIndiaDays, indiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import { parseReportRange } from "./report-range.ts";

// The numbers of a period, per India day and dimension, from two places: the daily roll-up for
// the days already rolled up (whose raw views may be gone), and the raw views, enquiries and
// subscriptions for the others (today, and days not rolled up yet). Both come from `facts`, so a
// day shows the same numbers before and after its roll-up. Since the visitor hash changes every
// day, visitors over several days are the sum of each day's: the roll-up adds up exactly.
// Raw rows are read only for the days not rolled up, through the indexes on their times: a
// report once read every raw view of its period, and on the embedded database that held up
// every other request for seconds (docs/performance/2026-11-26-analytics-report.md).

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

/**
 * The day-by-day facts of the raw rows within the spans (whole India days): views and visitors of
 * the site, each page, source (a visitor's first view that day), campaign and device; enquiries
 * and subscriptions; the funnel.
 */
export async function facts(db: Database, spans: Span[]): Promise<FactRow[]> {
  if (spans.length === 0) return [];
  // Bounds written out, so that the planner sees how few rows they hold and takes each table's index on its time.
  const within = (column: string) =>
    sql.join(
      spans.map(
        (span) =>
          sql`(${sql.raw(column)} >= ${span.start.toISOString()}::timestamptz and ${sql.raw(column)} < ${span.end.toISOString()}::timestamptz)`,
      ),
      sql` or `,
    );
  const query: SQL = sql`
    with v as (
      select ${indiaDayOf("at")} as day, id, at, path, referrer_host, utm_source, utm_campaign, device, visitor_hash as h, views
      from page_views where ${within("at")}
    ),
    e as (
      select ${indiaDayOf("created_at")} as day, id, created_at, visitor_hash as h, landing_page, attribution_source, attribution_campaign
      from contact_submissions where not is_spam and (${within("created_at")})
    ),
    s as (
      select ${indiaDayOf("created_at")} as day from newsletter_subscribers where ${within("created_at")}
    ),
    landing as (
      select distinct on (day, h) day, h, coalesce(utm_source, referrer_host, ${DIRECT_SOURCE}) as source, utm_campaign as campaign, device
      from v order by day, h, at, id
    ),
    -- Each visitor's day, and each visitor's day on a page: hashed once, then only counted.
    vh as (
      select day, h, sum(views) as views,
        bool_or(path ~ '^/(services|industries|projects)(/|$)') as interested,
        bool_or(path = '/contact') as contact
      from v group by day, h
    ),
    vp as (select day, path, h, sum(views) as views, min(at) as first_at from v group by day, path, h),
    f as (
      select vh.day, vh.h, vh.interested, vh.contact,
        exists (select 1 from e where e.h = vh.h and e.day = vh.day) as enquired
      from vh
    )
    select day, 'total' as dimension, '' as value, sum(views)::int as views, count(*)::int as visitors, 0 as enquiries, 0 as subscriptions from vh group by day
    union all select day, 'total', '', 0, 0, count(*)::int, 0 from e group by day
    union all select day, 'total', '', 0, 0, 0, count(*)::int from s group by day
    union all select day, 'page', path, sum(views)::int, count(*)::int, 0, 0 from vp group by day, path
    union all
      select vp.day, 'page', vp.path, 0, 0, count(distinct e.id)::int, 0
      from vp join e on e.h = vp.h and e.day = vp.day and vp.first_at <= e.created_at
      group by vp.day, vp.path
    union all select day, 'source', source, 0, count(*)::int, 0, 0 from landing group by day, source
    union all select day, 'source', coalesce(attribution_source, ${DIRECT_SOURCE}), 0, 0, count(*)::int, 0 from e where landing_page is not null group by 1, 3
    union all select day, 'campaign', campaign, 0, count(*)::int, 0, 0 from landing where campaign is not null group by day, campaign
    union all select day, 'campaign', attribution_campaign, 0, 0, count(*)::int, 0 from e where attribution_campaign is not null group by day, attribution_campaign
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

/** The roll-up of the rolled-up days from `from` to `to`: per day for the totals, per value (day "") for the rest. */
async function rolledUp(db: Database, from: string, to: string): Promise<FactRow[]> {
  const rows = await queryRows<FactRow>(
    db,
    sql`select case when dimension = 'total' then day else '' end as day, dimension, value,
          sum(views)::bigint as views, sum(visitors)::bigint as visitors,
          sum(enquiries)::bigint as enquiries, sum(subscriptions)::bigint as subscriptions
        from analytics_daily where day >= ${from} and day <= ${to}
        group by 1, dimension, value`,
  );
  return numbers(rows);
}

const byNumber =
  <Row>(pick: (row: Row) => number, name: (row: Row) => string) =>
  (a: Row, b: Row) =>
    pick(b) - pick(a) || name(a).localeCompare(name(b));

/**
 * The report of the India dates `from` to `to`, inclusive. Throws a RangeError for dates
 * parseReportRange refuses: the routes answer 400 before they get here.
 */
export async function analyticsReport(db: Database, from: string, to: string): Promise<AnalyticsReport> {
  const range = parseReportRange(from, to);
  if ("problem" in range) throw new RangeError(range.problem);
  const dates = datesFrom(range.from, range.days);
  // One snapshot, so that a day rolled up meanwhile is read from one place only.
  const rows = await db.transaction(
    async (tx) => {
      const rolled = await queryRows<{ day: string }>(
        tx,
        sql`select day from analytics_rolled_days where day >= ${from} and day <= ${to}`,
      );
      const raw = await facts(tx, spansNotRolled(dates, new Set(rolled.map((row) => row.day))));
      return addUp([...(await rolledUp(tx, from, to)), ...raw]);
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
