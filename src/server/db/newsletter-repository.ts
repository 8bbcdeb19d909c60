import { sql } from "drizzle-orm";
import { type Database, queryRows } from "./client.ts";

/** Subscribes an address once; a second subscription is a success that changes nothing. */
export async function subscribeToNewsletter(db: Database, email: string): Promise<{ created: boolean }> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into newsletter_subscribers (email) values (${email.toLowerCase()})
        on conflict (email) do nothing returning id`,
  );
  return { created: rows.length > 0 };
}
