import { sql } from "drizzle-orm";
import { type Database, queryRows } from "./client.ts";
import type { Attribution } from "../analytics/counting.ts";

/**
 * Adds an address as pending without mailing it, as the addresses collected before confirmation
 * existed were (tests, and data brought from elsewhere): the daily purge asks it once to confirm.
 * Visitors subscribe through src/server/newsletter/subscriptions.ts, which mails the link.
 */
export async function subscribeToNewsletter(
  db: Database,
  email: string,
  attribution?: Attribution,
  createdAt?: Date,
): Promise<{ created: boolean }> {
  const a = attribution;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into newsletter_subscribers (email, created_at, landing_page, attribution_source, attribution_medium, attribution_campaign)
        values (${email.toLowerCase()}, coalesce(${createdAt?.toISOString() ?? null}::timestamptz, now()),
                ${a?.landingPage ?? null}, ${a?.attributionSource ?? null}, ${a?.attributionMedium ?? null}, ${a?.attributionCampaign ?? null})
        on conflict (email) do nothing returning id`,
  );
  return { created: rows.length > 0 };
}

/** Removes an address from the newsletter (an unsubscribe request); false when it was not subscribed. */
export async function unsubscribeFromNewsletter(db: Database, email: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from newsletter_subscribers where email = ${email.toLowerCase()} returning id`,
  );
  return rows.length > 0;
}
