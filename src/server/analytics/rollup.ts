import { and, eq, gte, inArray, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import { purgeSearchMisses } from "./search-misses.ts";
import { type Database, queryRows } from "../db/client.ts";
import {
  analyticsDaily,
  analyticsRolledDays,
  analyticsRollupProgress,
  analyticsSalts,
  contactSubmissions,
} from "../db/schema.ts";
import { indiaDay, nextIndiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import {
  addUp,
  alongTheIndex,
  contactPath,
  daysWithViews,
  enquiriesWithin,
  enquiryFacts,
  facts as dayFacts,
  funnelOfVisitors,
  interestedPath,
  pageFacts,
  sourceOf,
  type Span,
  subscriptionsWithin,
  visitorFacts,
} from "./report.ts";

// Once a day is over, its numbers go into the roll-up (analytics_daily) and the day is marked
// rolled; its raw views are deleted once they are ANALYTICS_RETENTION_DAYS old, and each day's salt
// 48 hours after it was made. Every instance runs this with its housekeeping.
//
// In batches, with a pause after each: on the embedded database a query runs in the server's own
// thread, and a backlog rolled up in one go (1,000,000 raw views before the first roll-up) held
// every other request, /healthz with them, for about 14 s (issue 31). Each batch is one
// transaction over ROLL_UP_BATCH_ROWS rows of one day at most (the first query of each finds where
// the batch ends, along an index). A day with fewer raw views than that (most days) is one batch:
// its `facts` (report.ts) into analytics_daily, and its mark. A larger day goes through phases:
// 1. "views": its raw views in order of time, added to a row per visitor (views, the funnel's
//    pages, the first view's source, campaign and device) and per visitor and page
//    (analytics_rollup_visitors, analytics_rollup_pages);
// 2. "visitors", then "pages": those rows, taken out a batch at a time and added to
//    analytics_daily with the SQL `facts` uses (report.ts): a visitor is wholly in one batch, so
//    the batches' counts add up to the day's;
// 3. "last": the day's enquiries and subscriptions, the mark, and the day's enquiries' visitor
//    hashes cleared, in one transaction.
// Each batch takes the lock of the day's row in analytics_rollup_progress first and looks for the
// mark: instances working on the same day take turns, and the one that finds the mark stops.
// Reports read analytics_daily for marked days only, so a day's rows count once it is complete.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** A day is rolled up this long after it ended: views still in an instance's batch have been written by then. */
export const ROLL_UP_DELAY_MS = 5 * MINUTE_MS;
export const SALT_LIFETIME_MS = 48 * 3_600_000;
/**
 * The rows one batch takes (raw views, or a day's rows per visitor or per visitor and page; views
 * of the same moment as its last go with it) and the raw views one deletion removes: tens of ms on
 * the embedded database of a 2-CPU machine, a few hundred when it is busy with other work.
 */
export const ROLL_UP_BATCH_ROWS = 250;
/** The pause after each batch, in which other requests' queries run. */
export const ROLL_UP_PAUSE_MS = 10;

export type HousekeepingOptions = {
  /** The site closing: the work stops after the batch under way, and the next run goes on from there. */
  signal?: AbortSignal;
};

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, ROLL_UP_PAUSE_MS));

/** The days before `before` with raw views and no mark, oldest first. */
async function daysToRollUp(db: Database, before: Date): Promise<string[]> {
  const days = await daysWithViews(db, undefined, before);
  if (days.length === 0) return [];
  const rolled = new Set(
    (
      await db
        .select({ day: analyticsRolledDays.day })
        .from(analyticsRolledDays)
        .where(inArray(analyticsRolledDays.day, days))
    ).map((row) => row.day),
  );
  return days.filter((day) => !rolled.has(day));
}

/** Adds the CTE `facts` to analytics_daily, to what the day's batches before added. */
const addToDaily = sql`
  insert into analytics_daily as daily (day, dimension, value, views, visitors, enquiries, subscriptions)
  select day, dimension, value, sum(views), sum(visitors), sum(enquiries), sum(subscriptions)
  from facts group by day, dimension, value
  on conflict (day, dimension, value) do update set
    views = daily.views + excluded.views,
    visitors = daily.visitors + excluded.visitors,
    enquiries = daily.enquiries + excluded.enquiries,
    subscriptions = daily.subscriptions + excluded.subscriptions`;

/** A visitor's landing column: the staged row's, unless this batch's first view is earlier. */
const earlier = (column: string) =>
  sql.raw(
    `case when (excluded.first_at, excluded.first_id) < (r.first_at, r.first_id) then excluded.${column} else r.${column} end`,
  );

/** The raw views of the day after the cursor (`after`, the last view read), or from the day's start. */
const viewsAfter = (span: Span, after: string | undefined) =>
  sql`${after ? sql`at > ${after}::timestamptz` : sql`at >= ${span.start.toISOString()}::timestamptz`}
      and at < ${span.end.toISOString()}::timestamptz`;

/**
 * The next batch of raw views: after the cursor up to `upTo`, the time of the batch's last view
 * (with the views of that same moment), or to the day's end when fewer than a batch are left.
 * Added to the rows per visitor and per visitor and page; the cursor moves to the batch's last.
 */
function viewsBatch(day: string, span: Span, after: string | undefined, upTo: string | undefined): SQL {
  return sql`
    with c as (
      select id, at, path, referrer_host, utm_source, utm_campaign, device, visitor_hash as h, views
      from page_views
      where ${viewsAfter(span, after)} ${upTo ? sql`and at <= ${upTo}::timestamptz` : sql``}
    ),
    visitors as (
      insert into analytics_rollup_visitors as r
        (day, visitor_hash, views, interested, contact, first_at, first_id, source, campaign, device)
      select * from (
        select distinct on (h) ${day}::text as day, h, sum(views) over visitor as views,
          bool_or(${interestedPath("path")}) over visitor as interested, bool_or(${contactPath("path")}) over visitor as contact,
          at, id, ${sourceOf} as source, utm_campaign, device
        from c window visitor as (partition by h) order by h, at, id
      ) as first_views
      on conflict (day, visitor_hash) do update set
        views = r.views + excluded.views,
        interested = r.interested or excluded.interested,
        contact = r.contact or excluded.contact,
        source = ${earlier("source")}, campaign = ${earlier("campaign")}, device = ${earlier("device")},
        first_id = ${earlier("first_id")}, first_at = ${earlier("first_at")}
    ),
    pages as (
      insert into analytics_rollup_pages as r (day, path, visitor_hash, views, first_at)
      select ${day}::text, path, h, sum(views), min(at) from c group by path, h
      on conflict (day, path, visitor_hash) do update set
        views = r.views + excluded.views, first_at = least(r.first_at, excluded.first_at)
    ),
    moved as (
      update analytics_rollup_progress set
        after_at = coalesce((select max(at) from c), after_at),
        phase = ${upTo ? "views" : "visitors"}
      where day = ${day}
    )
    select count(*)::int as taken from c`;
}

/**
 * The next batch of a day's rows per visitor, up to the visitor `upTo` (or all that are left),
 * taken out and added to analytics_daily.
 */
function visitorsBatch(day: string, span: Span, upTo: string | undefined): SQL {
  return sql`
    with vh as (
      delete from analytics_rollup_visitors where day = ${day} ${upTo ? sql`and visitor_hash <= ${upTo}` : sql``}
      returning day, visitor_hash as h, views, interested, contact, source, campaign, device
    ),
    landing as (select day, source, campaign, device from vh),
    e as (${enquiriesWithin([span])}),
    f as (${funnelOfVisitors}),
    facts as (${visitorFacts}),
    added as (${addToDaily})
    ${upTo ? sql`` : sql`, moved as (update analytics_rollup_progress set phase = 'pages' where day = ${day})`}
    select count(*)::int as taken from vh`;
}

/**
 * The next batch of a day's rows per visitor and page, up to the page and visitor `upTo` (or all
 * that are left), taken out and added to analytics_daily.
 */
function pagesBatch(day: string, span: Span, upTo: { path: string; hash: string } | undefined): SQL {
  return sql`
    with vp as (
      delete from analytics_rollup_pages
      where day = ${day} ${upTo ? sql`and (path, visitor_hash) <= (${upTo.path}, ${upTo.hash})` : sql``}
      returning day, path, visitor_hash as h, views, first_at
    ),
    e as (${enquiriesWithin([span])}),
    facts as (${pageFacts}),
    added as (${addToDaily})
    ${upTo ? sql`` : sql`, moved as (update analytics_rollup_progress set phase = 'last' where day = ${day})`}
    select count(*)::int as taken from vp`;
}

type Step = "more" | "rolled" | "rolled elsewhere";

/** The end of a day's roll-up: its mark, and its enquiries' visitor hashes cleared. */
async function finish(tx: Database, day: string, span: Span, now: Date) {
  await tx.insert(analyticsRolledDays).values({ day, rolledAt: now });
  await tx.delete(analyticsRollupProgress).where(eq(analyticsRollupProgress.day, day));
  // The day's enquiries keep their attribution; the hash linking them to the day's views is no longer needed.
  await tx
    .update(contactSubmissions)
    .set({ visitorHash: null })
    .where(
      and(
        isNotNull(contactSubmissions.visitorHash),
        gte(contactSubmissions.createdAt, span.start),
        lt(contactSubmissions.createdAt, span.end),
      ),
    );
}

/** One batch of a day's roll-up, in one transaction under the lock of the day's progress. */
async function rollUpStep(db: Database, day: string, now: Date): Promise<Step> {
  const rows = ROLL_UP_BATCH_ROWS;
  const span: Span = { start: startOfIndiaDay(day), end: startOfIndiaDay(nextIndiaDay(day)) };
  return db.transaction(async (tx) => {
    await tx.insert(analyticsRollupProgress).values({ day }).onConflictDoNothing();
    // As text, so that the cursor keeps its microseconds.
    const [progress] = await queryRows<{ phase: string; after_at: string | null }>(
      tx,
      sql`select phase, after_at::text as after_at from analytics_rollup_progress where day = ${day} for update`,
    );
    // Finished by another instance between the two statements: the next step finds its mark.
    if (!progress) return "more";
    const [marked] = await tx
      .select({ day: analyticsRolledDays.day })
      .from(analyticsRolledDays)
      .where(eq(analyticsRolledDays.day, day));
    if (marked) {
      await tx.delete(analyticsRollupProgress).where(eq(analyticsRollupProgress.day, day));
      return "rolled elsewhere";
    }
    switch (progress.phase) {
      case "views": {
        const after = progress.after_at ?? undefined;
        // The time of the batch's last view: none when fewer than a batch are left.
        const [bound] = await alongTheIndex<{ at: string | null }>(
          tx,
          sql`select (select at::text as bound from page_views where ${viewsAfter(span, after)}
                      order by page_views.at offset ${rows - 1} limit 1) as at`,
        );
        const upTo = bound?.at ?? undefined;
        if (!after && !upTo) {
          // A day of fewer raw views than a batch (most days) goes in one, straight from `facts`.
          const facts = addUp(await dayFacts(tx, [span]));
          for (let index = 0; index < facts.length; index += 500)
            await tx.insert(analyticsDaily).values(facts.slice(index, index + 500));
          await finish(tx, day, span, now);
          return "rolled";
        }
        await queryRows(tx, viewsBatch(day, span, after, upTo));
        return "more";
      }
      case "visitors": {
        // The batch's last visitor: none when fewer than a batch are left.
        const [bound] = await alongTheIndex<{ hash: string }>(
          tx,
          sql`select visitor_hash as hash from analytics_rollup_visitors where day = ${day}
              order by visitor_hash offset ${rows - 1} limit 1`,
        );
        await queryRows(tx, visitorsBatch(day, span, bound?.hash));
        return "more";
      }
      case "pages": {
        const [bound] = await alongTheIndex<{ path: string; hash: string }>(
          tx,
          sql`select path, visitor_hash as hash from analytics_rollup_pages where day = ${day}
              order by path, visitor_hash offset ${rows - 1} limit 1`,
        );
        await queryRows(tx, pagesBatch(day, span, bound));
        return "more";
      }
      default:
        await queryRows(
          tx,
          sql`with e as (${enquiriesWithin([span])}), s as (${subscriptionsWithin([span])}), facts as (${enquiryFacts})
              ${addToDaily}`,
        );
        await finish(tx, day, span, now);
        return "rolled";
    }
  });
}

/**
 * Rolls up every day before today (as of five minutes ago) that has views and is not rolled up
 * yet, oldest first, a batch at a time with a pause after each; returns the days it completed.
 */
export async function rollUpDays(db: Database, now: Date, options: HousekeepingOptions = {}): Promise<string[]> {
  const before = startOfIndiaDay(indiaDay(new Date(now.getTime() - ROLL_UP_DELAY_MS)));
  const candidates = await daysToRollUp(db, before);
  const rolled: string[] = [];
  for (const day of candidates) {
    for (;;) {
      if (options.signal?.aborted) return rolled;
      const step = await rollUpStep(db, day, now);
      await pause();
      if (step === "rolled") rolled.push(day);
      if (step !== "more") break;
    }
  }
  return rolled;
}

/**
 * Raw views before `cutoff` of rolled-up days, oldest first, a batch at a time; returns how many
 * went. Days are rolled up oldest first, so the views before the first day with views not rolled
 * up are all of rolled-up days.
 */
async function deleteOldViews(db: Database, cutoff: Date, options: HousekeepingOptions): Promise<number> {
  const rows = ROLL_UP_BATCH_ROWS;
  const waiting = await daysToRollUp(db, cutoff);
  const end = waiting[0] ? startOfIndiaDay(waiting[0]) : cutoff;
  let deleted = 0;
  for (;;) {
    if (options.signal?.aborted) return deleted;
    const [gone] = await alongTheIndex<{ count: number }>(
      db,
      sql`with gone as (
            delete from page_views where id = any(array(
              select id from page_views where at < ${end.toISOString()}::timestamptz order by at limit ${rows}
            )) returning 1
          ) select count(*)::int as count from gone`,
    );
    const count = Number(gone?.count ?? 0);
    deleted += count;
    if (count > 0) await pause();
    if (count < rows) return deleted;
  }
}

export type AnalyticsHousekeeping = { rolledDays: string[]; deletedViews: number; deletedSalts: number };

/**
 * The daily roll-up, then raw views past the retention period (of rolled-up days only), salts past
 * 48 hours and counts of searches that found nothing past MISS_RETENTION_DAYS.
 */
export async function analyticsHousekeeping(
  db: Database,
  now: Date,
  retentionDays: number,
  options: HousekeepingOptions = {},
): Promise<AnalyticsHousekeeping> {
  const rolledDays = await rollUpDays(db, now, options);
  const deletedViews = await deleteOldViews(db, new Date(now.getTime() - retentionDays * DAY_MS), options);
  const salts = await db
    .delete(analyticsSalts)
    .where(lt(analyticsSalts.createdAt, new Date(now.getTime() - SALT_LIFETIME_MS)))
    .returning({ day: analyticsSalts.day });
  // The searches that found nothing: words and counts, kept a little over a year (decision 054).
  await purgeSearchMisses(db, now);
  return { rolledDays, deletedViews, deletedSalts: salts.length };
}
