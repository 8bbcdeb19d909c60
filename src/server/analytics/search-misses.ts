import { sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { addIndiaDays, indiaDay, startOfIndiaDay } from "#shared/india-time.ts";
import { missText } from "#shared/search.ts";
import { type Database, queryRows } from "../db/client.ts";
import { notCountedBecause } from "./counting.ts";

// Searches that found nothing (docs/decisions/054-site-search.md): the query's words, lower-cased,
// and the India day, with a count; no address, no user agent, no hash of either. Counted only
// when a page view would be (ANALYTICS, Sec-GPC, bots, prefetches, staff's excluded browsers:
// counting.ts), kept in memory and written in batches as the views are.

/** New queries one India day may add; past it, only the queries already there count up. */
export const MAX_MISSES_PER_DAY = 1000;
const BATCH_SIZE = 200;
const BATCH_DELAY_MS = 1000;
/** Distinct (day, query) pairs waiting; more are dropped rather than kept without end. */
const MAX_WAITING = 2000;
/** Weeks the Analytics page lists, and the top queries of each. */
export const MISS_WEEKS = 8;
export const MISSES_PER_WEEK = 15;
/** Rows older than this are deleted by the daily housekeeping. */
export const MISS_RETENTION_DAYS = 400;

export class SearchMissCounter {
  private waiting = new Map<string, { day: string; query: string; count: number }>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: { db: Database; enabled: boolean; now?: () => Date; log?: FastifyBaseLogger },
  ) {}

  /** Counts a search of `query` that found nothing, unless the request's headers say not to count it. */
  count(request: FastifyRequest, query: string): void {
    if (!this.options.enabled || notCountedBecause(request.headers) !== undefined) return;
    const text = missText(query);
    if (text === "") return;
    const day = indiaDay((this.options.now ?? (() => new Date()))());
    const key = `${day}\n${text}`;
    const same = this.waiting.get(key);
    if (same) same.count += 1;
    else if (this.waiting.size < MAX_WAITING) this.waiting.set(key, { day, query: text, count: 1 });
    else return;
    if (this.waiting.size >= BATCH_SIZE) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), BATCH_DELAY_MS).unref();
  }

  /** Writes what is waiting; resolves once it (and any batch before it) is written or given up. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.waiting.values()];
    this.waiting = new Map();
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: { day: string; query: string; count: number }[]): Promise<void> {
    try {
      // One statement a batch: a query already counted that day adds up; a new one only while
      // the day holds fewer than MAX_MISSES_PER_DAY.
      await this.options.db.execute(sql`
        insert into search_misses (day, query, count)
        select batch.day, batch.query, batch.count
        from json_to_recordset(${JSON.stringify(batch)}::json) as batch(day text, query text, count integer)
        where exists (select 1 from search_misses m where m.day = batch.day and m.query = batch.query)
          or (select count(*) from search_misses m where m.day = batch.day) < ${MAX_MISSES_PER_DAY}
        on conflict (day, query) do update set count = search_misses.count + excluded.count`);
    } catch (error) {
      this.options.log?.warn({ err: error, queries: batch.length }, "writing searches that found nothing failed");
    }
  }

  async close(): Promise<void> {
    await this.flush();
  }
}

export type WeeklyMisses = { weekStart: string; queries: { query: string; count: number }[] }[];

/**
 * The last MISS_WEEKS weeks (Monday to Sunday, India days), newest first, each with its
 * MISSES_PER_WEEK most searched queries that found nothing.
 */
export async function weeklySearchMisses(db: Database, now: Date): Promise<WeeklyMisses> {
  const today = indiaDay(now);
  const weekday = (startOfIndiaDay(today).getUTCDay() + 6) % 7; // Monday 0
  const thisMonday = addIndiaDays(today, -weekday);
  const from = addIndiaDays(thisMonday, -7 * (MISS_WEEKS - 1));
  const rows = await queryRows<{ week: string; query: string; count: number | string }>(
    db,
    sql`
    select week, query, count from (
      select week, query, sum(count) as count,
        row_number() over (partition by week order by sum(count) desc, query asc) as place
      from (
        select to_char(date_trunc('week', day::date), 'YYYY-MM-DD') as week, query, count
        from search_misses where day >= ${from}
      ) as days
      group by week, query
    ) as ranked
    where place <= ${MISSES_PER_WEEK}
    order by week desc, count desc, query asc`,
  );
  const weeks = new Map<string, { query: string; count: number }[]>();
  for (const row of rows) {
    const list = weeks.get(row.week) ?? [];
    list.push({ query: row.query, count: Number(row.count) });
    weeks.set(row.week, list);
  }
  return [...weeks].map(([weekStart, queries]) => ({ weekStart, queries }));
}

/** Deletes counts older than MISS_RETENTION_DAYS (the daily housekeeping). */
export async function purgeSearchMisses(db: Database, now: Date): Promise<void> {
  await db.execute(sql`delete from search_misses where day < ${addIndiaDays(indiaDay(now), -MISS_RETENTION_DAYS)}`);
}
