import { createHmac } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client.ts";
import { rateLimitHits, rateLimitWindows } from "../db/schema.ts";
import { clientSubject } from "../http/client-address.ts";

// Sliding-window limits, counted in the database so that every instance over one PostgreSQL
// shares them: a key keeps the moments of its allowed hits inside the window, and a hit is allowed
// while fewer than `limit` remain there. No span of the window's length ever holds more than the
// limit (a fixed calendar minute let twice the limit through across its boundary). One statement
// does the counting, under the row's lock, so two instances never both take the last place.
// Refused hits are not kept: the row holds at most `limit` moments.

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A keyed hash of the action and the subject: no address is stored. */
export function rateLimitKey(secret: string, action: string, subject: string): string {
  return createHmac("sha256", secret).update(`${action}\n${subject}`).digest("base64url");
}

/** The key of a client's limit for an action: IPv6 clients are counted by their /64. */
export function clientRateLimitKey(secret: string, action: string, clientAddress: string): string {
  return rateLimitKey(secret, action, clientSubject(clientAddress));
}

export async function hitRateLimit(
  db: Database,
  key: string,
  limit: number,
  windowSeconds = 60,
): Promise<RateLimitVerdict> {
  const window = sql`(${windowSeconds}::int * interval '1 second')`;
  const kept = sql`array(select h from unnest(w.hits) as h where h > now() - ${window} order by h)`;
  const [row] = await queryRows<{ allowed: boolean; retry_after: number | null }>(
    db,
    sql`insert into rate_limit_windows as w (key, hits, last_allowed, expires_at)
        values (${key}, array[now()], true, now() + ${window})
        on conflict (key) do update set
          hits = case when cardinality(${kept}) < ${limit}::int then ${kept} || now() else ${kept} end,
          last_allowed = cardinality(${kept}) < ${limit}::int,
          expires_at = now() + ${window}
        returning last_allowed as allowed,
          ceil(extract(epoch from (hits[1] + ${window} - now())))::int as retry_after`,
  );
  if (!row || row.allowed) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, row.retry_after ?? windowSeconds) };
}

/**
 * Whether a key still has room, without taking any: for limits that count failures alone, where
 * the door looks before the attempt and hits only when it failed (docs/back-office.md, "Limits").
 */
export async function peekRateLimit(
  db: Database,
  key: string,
  limit: number,
  windowSeconds = 60,
): Promise<RateLimitVerdict> {
  const window = sql`(${windowSeconds}::int * interval '1 second')`;
  const [row] = await queryRows<{ used: number; retry_after: number | null }>(
    db,
    sql`select cardinality(array(select h from unnest(w.hits) as h where h > now() - ${window}))::int as used,
          ceil(extract(epoch from ((select min(h) from unnest(w.hits) as h where h > now() - ${window}) + ${window} - now())))::int as retry_after
        from rate_limit_windows as w where w.key = ${key}`,
  );
  if (!row || row.used < limit) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, row.retry_after ?? windowSeconds) };
}

/** Drops the windows nothing has hit for longer than their length (and the previous version's counters). */
export async function pruneRateLimits(db: Database): Promise<void> {
  await db.delete(rateLimitWindows).where(lt(rateLimitWindows.expiresAt, sql`now()`));
  await db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, sql`now() - interval '1 hour'`));
}
