import { and, eq, lt, or } from "drizzle-orm";
import { retention } from "#shared/retention.ts";
import type { Database } from "../db/client.ts";
import { contactSubmissions } from "../db/schema.ts";

// The privacy notice's promise made true: enquiries older than the stated period, and spam after
// a month, are deleted (their queued mail goes with them: mail_outbox cascades). Every instance
// runs this; the delete is idempotent, so two instances running it at once delete each row once.

export type RetentionResult = { enquiries: number; spam: number };

export async function deleteExpiredEnquiries(db: Database, now: Date = new Date()): Promise<RetentionResult> {
  const enquiryCutoff = new Date(now);
  enquiryCutoff.setUTCMonth(enquiryCutoff.getUTCMonth() - retention.enquiryMonths);
  const spamCutoff = new Date(now.getTime() - retention.spamDays * 86_400_000);
  const deleted = await db
    .delete(contactSubmissions)
    .where(
      or(
        and(eq(contactSubmissions.isSpam, false), lt(contactSubmissions.createdAt, enquiryCutoff)),
        and(eq(contactSubmissions.isSpam, true), lt(contactSubmissions.createdAt, spamCutoff)),
      ),
    )
    .returning({ isSpam: contactSubmissions.isSpam });
  const spam = deleted.filter((row) => row.isSpam).length;
  return { enquiries: deleted.length - spam, spam };
}
