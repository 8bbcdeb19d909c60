import { createHmac } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client.ts";
import { rateLimitHits } from "../db/schema.ts";

// A fixed one-minute window per client and action, counted in the database so that every
// instance over one PostgreSQL shares it. The key is a keyed hash: no address is stored.

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function rateLimitKey(secret: string, action: string, clientAddress: string): string {
  return createHmac("sha256", secret).update(`${action}\n${clientAddress}`).digest("base64url");
}

export const clientRateLimitKey = (secret: string, action: string, address: string) => rateLimitKey(secret, action, address);
export async function hitRateLimit(db: Database, key: string, limitPerMinute: number, _windowSeconds = 60): Promise<RateLimitVerdict> {
  const [row] = await queryRows<{ hits: number; retry_after: number }>(
    db,
    sql`insert into rate_limit_hits (key, window_start, hits)
        values (${key}, date_trunc('minute', now()), 1)
        on conflict (key, window_start) do update set hits = rate_limit_hits.hits + 1
        returning hits, ceil(extract(epoch from (window_start + interval '1 minute' - now())))::int as retry_after`,
  );
  if (!row || row.hits <= limitPerMinute) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, row.retry_after) };
}

/** Drops windows that ended more than an hour ago. */
export async function pruneRateLimits(db: Database): Promise<void> {
  await db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, sql`now() - interval '1 hour'`));
}
