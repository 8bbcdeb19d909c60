import { and, gte, isNotNull, lt, sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client.ts";
import { analyticsDaily, analyticsRolledDays, analyticsSalts, contactSubmissions } from "../db/schema.ts";
import { indiaDay, indiaDaysBetween, nextIndiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import { addUp, facts } from "./report.ts";

// Once a day is over, its numbers go into the roll-up (analytics_daily) and the day is marked
// rolled; its raw views are deleted once they are ANALYTICS_RETENTION_DAYS old, and each day's salt
// 48 hours after it was made. Every instance runs this with its housekeeping, and the mark makes
// it happen once: the instance whose insert of the mark succeeds does the day, in the same
// transaction; another finds the mark and leaves the day alone.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** A day is rolled up this long after it ended: views still in an instance's batch have been written by then. */
export const ROLL_UP_DELAY_MS = 5 * MINUTE_MS;
export const SALT_LIFETIME_MS = 48 * 3_600_000;

/**
 * The days before `before` with views and no mark. It skips from one day with views to the next
 * through the index on page_views.at, so it reads a row or two per day instead of every raw view
 * (a million of them took the embedded database seconds, every ten minutes).
 */
async function daysToRollUp(db: Database, before: Date): Promise<string[]> {
  const firstView = async (from: Date | undefined) => {
    const [row] = await queryRows<{ at: Date | string | null }>(
      db,
      sql`select min(at) as at from page_views where at < ${before.toISOString()}::timestamptz
          ${from ? sql`and at >= ${from.toISOString()}::timestamptz` : sql``}`,
    );
    return row?.at ? new Date(row.at) : undefined;
  };
  const first = await firstView(undefined);
  if (!first) return [];
  const firstDay = indiaDay(first);
  const rolled = new Set(
    (await queryRows<{ day: string }>(db, sql`select day from analytics_rolled_days where day >= ${firstDay}`)).map(
      (row) => row.day,
    ),
  );
  const days: string[] = [];
  // At most one step per day from the first view's to the last before `before`, whatever the data.
  const count = indiaDaysBetween(firstDay, indiaDay(before)) + 1;
  let at: Date | undefined = first;
  for (let step = 0; step < count && at; step += 1) {
    const day = indiaDay(at);
    if (!rolled.has(day)) days.push(day);
    at = await firstView(startOfIndiaDay(nextIndiaDay(day)));
  }
  return days;
}

/** Rolls up every day before today (as of five minutes ago) that has views and is not rolled up yet; returns the days it rolled. */
export async function rollUpDays(db: Database, now: Date): Promise<string[]> {
  const before = startOfIndiaDay(indiaDay(new Date(now.getTime() - ROLL_UP_DELAY_MS)));
  const candidates = await daysToRollUp(db, before);
  const rolled: string[] = [];
  for (const day of candidates) {
    const done = await db.transaction(async (tx) => {
      const marked = await tx
        .insert(analyticsRolledDays)
        .values({ day, rolledAt: now })
        .onConflictDoNothing()
        .returning();
      if (marked.length === 0) return false;
      const start = startOfIndiaDay(day);
      const end = startOfIndiaDay(nextIndiaDay(day));
      const rows = addUp(await facts(tx, [{ start, end }]));
      for (let index = 0; index < rows.length; index += 500)
        await tx.insert(analyticsDaily).values(rows.slice(index, index + 500));
      // The day's enquiries keep their attribution; the hash linking them to the day's views is no longer needed.
      await tx
        .update(contactSubmissions)
        .set({ visitorHash: null })
        .where(
          and(
            isNotNull(contactSubmissions.visitorHash),
            gte(contactSubmissions.createdAt, start),
            lt(contactSubmissions.createdAt, end),
          ),
        );
      return true;
    });
    if (done) rolled.push(day);
  }
  return rolled;
}

export type AnalyticsHousekeeping = { rolledDays: string[]; deletedViews: number; deletedSalts: number };

/** The daily roll-up, then raw views past the retention period (of rolled-up days only) and salts past 48 hours. */
export async function analyticsHousekeeping(
  db: Database,
  now: Date,
  retentionDays: number,
): Promise<AnalyticsHousekeeping> {
  const rolledDays = await rollUpDays(db, now);
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const [deleted] = await queryRows<{ count: number }>(
    db,
    sql`with gone as (
          delete from page_views where at < ${cutoff.toISOString()}::timestamptz
          and to_char((at + interval '330 minutes') at time zone 'UTC', 'YYYY-MM-DD') in (select day from analytics_rolled_days)
          returning 1
        ) select count(*)::int as count from gone`,
  );
  const salts = await db
    .delete(analyticsSalts)
    .where(lt(analyticsSalts.createdAt, new Date(now.getTime() - SALT_LIFETIME_MS)))
    .returning({ day: analyticsSalts.day });
  return { rolledDays, deletedViews: Number(deleted?.count ?? 0), deletedSalts: salts.length };
}
