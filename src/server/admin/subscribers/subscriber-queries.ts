import { and, count, desc, eq, ilike, type SQL } from "drizzle-orm";
import type { SubscriberView } from "#shared/admin/pages.ts";
import { SUBSCRIBER_STATES, type SubscriberState } from "#shared/admin/subscriber-states.ts";
import type { Database } from "../../db/client.ts";
import { newsletterSubscribers } from "../../db/schema.ts";

// The subscribers' queries: the list (search, state filter, pages), the counts per state, and
// lifting a bounce.

export type SubscriberFilter = { q: string; state: SubscriberState | "" };

function whereOf(filter: SubscriberFilter): SQL | undefined {
  const pattern = `%${filter.q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return and(
    filter.q ? ilike(newsletterSubscribers.email, pattern) : undefined,
    filter.state ? eq(newsletterSubscribers.status, filter.state) : undefined,
  );
}

/** One page of the subscribers a filter finds, newest first. */
export async function listSubscribers(db: Database, filter: SubscriberFilter, page: number, limit: number) {
  const rows = await db
    .select()
    .from(newsletterSubscribers)
    .where(whereOf(filter))
    .orderBy(desc(newsletterSubscribers.createdAt), desc(newsletterSubscribers.id))
    .limit(limit + 1)
    .offset((page - 1) * limit);
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

export type SubscriberRow = Awaited<ReturnType<typeof listSubscribers>>["rows"][number];

export function subscriberView(row: SubscriberRow): SubscriberView {
  return {
    id: row.id,
    email: row.email,
    createdAt: row.createdAt.toISOString(),
    state: row.status,
    stateChangedAt: row.statusChangedAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    consentPage: row.consentPage,
    consentText: row.consentText,
    noticeVersion: row.noticeVersion,
    bounceReason: row.bounceReason,
  };
}

/** How many addresses are in each state (an index on the state serves it). */
export async function subscriberCounts(db: Database): Promise<Record<SubscriberState, number>> {
  const rows = await db
    .select({ state: newsletterSubscribers.status, count: count() })
    .from(newsletterSubscribers)
    .groupBy(newsletterSubscribers.status);
  const counts = Object.fromEntries(SUBSCRIBER_STATES.map((state) => [state, 0])) as Record<SubscriberState, number>;
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}

/**
 * Lifts the bounce of a bouncing address: confirmed again, its reason cleared, in one statement
 * that changes only a row still bouncing (two admins lifting at once: the second finds none).
 * "lifted" with the row, "not-bouncing" with its state, or "missing".
 */
export async function liftBounce(
  db: Database,
  id: string,
  now: Date,
): Promise<
  | { outcome: "lifted"; row: SubscriberRow }
  | { outcome: "not-bouncing"; state: SubscriberState }
  | { outcome: "missing" }
> {
  const [lifted] = await db
    .update(newsletterSubscribers)
    .set({ status: "confirmed", bounceReason: null, statusChangedAt: now })
    .where(and(eq(newsletterSubscribers.id, id), eq(newsletterSubscribers.status, "bouncing")))
    .returning();
  if (lifted) return { outcome: "lifted", row: lifted };
  const [current] = await db
    .select({ state: newsletterSubscribers.status })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.id, id));
  return current ? { outcome: "not-bouncing", state: current.state } : { outcome: "missing" };
}
