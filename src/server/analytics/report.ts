import { and, gte, lte, sql, type SQL } from "drizzle-orm";
import { type AnalyticsReport, DIRECT_SOURCE, funnelSteps } from "#shared/analytics.ts";
import { type Database, queryRows } from "../db/client.ts";
import { analyticsDaily } from "../db/schema.ts";
import { indiaDay, nextIndiaDay, startOfIndiaDay } from "#shared/india-time.ts";

// The numbers of a period, per India day and dimension, from two places: the daily roll-up for
// the days already rolled up (whose raw views may be gone), and the raw views, enquiries and
// subscriptions for the others (today, and days not rolled up yet). Both come from `facts`, so a
// day shows the same numbers before and after its roll-up. Since the visitor hash changes every
// day, visitors over several days are the sum of each day's: the roll-up adds up exactly.

export type FactRow = {
  day: string;
  dimension: string;
  value: string;
  views: number;
  visitors: number;
  enquiries: number;
  subscriptions: number;
};

/** Rows at most this many per list of the report. */
const LIST_LIMIT = 100;

const indiaDayOf = (column: string) =>
  sql.raw(`to_char((${column} + interval '330 minutes') at time zone 'UTC', 'YYYY-MM-DD')`);

/**
 * The day-by-day facts of the raw rows between two moments: views and visitors of the site, each
 * page, source (a visitor's first view that day), campaign and device; enquiries and
 * subscriptions; the funnel. Without `includeRolled`, days already rolled up are left out.
 */
export async function facts(db: Database, start: Date, end: Date, includeRolled: boolean): Promise<FactRow[]> {
  const notRolled = includeRolled ? sql`` : sql`and day not in (select day from analytics_rolled_days)`;
  const from = start.toISOString();
  const to = end.toISOString();
  const query: SQL = sql`
    with v as (
      select * from (
        select ${indiaDayOf("at")} as day, id, at, path, referrer_host, utm_source, utm_campaign, device, visitor_hash as h, views
        from page_views where at >= ${from}::timestamptz and at < ${to}::timestamptz
      ) raw where true ${notRolled}
    ),
    e as (
      select * from (
        select ${indiaDayOf("created_at")} as day, id, created_at, visitor_hash as h, landing_page, attribution_source, attribution_campaign
        from contact_submissions where not is_spam and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
      ) raw where true ${notRolled}
    ),
    s as (
      select * from (
        select ${indiaDayOf("created_at")} as day from newsletter_subscribers
        where created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
      ) raw where true ${notRolled}
    ),
    landing as (
      select distinct on (day, h) day, h, coalesce(utm_source, referrer_host, ${DIRECT_SOURCE}) as source, utm_campaign as campaign, device
      from v order by day, h, at, id
    ),
    f as (
      select v.day, v.h,
        bool_or(v.path ~ '^/(services|industries|projects)(/|$)') as interested,
        bool_or(v.path = '/contact') as contact,
        exists (select 1 from e where e.h = v.h and e.day = v.day) as enquired
      from v group by v.day, v.h
    )
    select day, 'total' as dimension, '' as value, sum(views)::int as views, count(distinct h)::int as visitors, 0 as enquiries, 0 as subscriptions from v group by day
    union all select day, 'total', '', 0, 0, count(*)::int, 0 from e group by day
    union all select day, 'total', '', 0, 0, 0, count(*)::int from s group by day
    union all select day, 'page', path, sum(views)::int, count(distinct h)::int, 0, 0 from v group by day, path
    union all
      select pv.day, 'page', pv.path, 0, 0, count(distinct e.id)::int, 0
      from (select day, path, h, min(at) as first_at from v group by day, path, h) pv
      join e on e.h = pv.h and e.day = pv.day and pv.first_at <= e.created_at
      group by pv.day, pv.path
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
  const rows = await queryRows<FactRow>(db, query);
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

/** The India dates from `from` to `to`, inclusive. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let day = from; day <= to; day = nextIndiaDay(day)) dates.push(day);
  return dates;
}

const byNumber =
  <Row>(pick: (row: Row) => number, name: (row: Row) => string) =>
  (a: Row, b: Row) =>
    pick(b) - pick(a) || name(a).localeCompare(name(b));

/** The report of the India dates `from` to `to`, inclusive. */
export async function analyticsReport(db: Database, from: string, to: string): Promise<AnalyticsReport> {
  const start = startOfIndiaDay(from);
  const end = startOfIndiaDay(nextIndiaDay(to));
  const [rolled, raw] = await Promise.all([
    db
      .select()
      .from(analyticsDaily)
      .where(and(gte(analyticsDaily.day, from), lte(analyticsDaily.day, to))),
    facts(db, start, end, false),
  ]);
  const rows = addUp([...rolled, ...raw]);

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

  const daily = new Map(
    datesBetween(from, to).map((date) => [date, { date, visitors: 0, pageviews: 0, enquiries: 0 }]),
  );
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
