import { sql } from "drizzle-orm";
import { REMINDER_BEFORE_MS, REPLY_WITHIN_MS } from "#shared/inbox.ts";
import { type Database, queryRows } from "../db/client.ts";

// The reply promise's reminder: 4 hours before an enquiry is due, its owner (or MAIL_TO when it
// has none) gets one mail through the outbox. "One" is the outbox's unique (submission, kind):
// every instance may run this at once, and the insert of the second finds the first's row and
// does nothing. Enquiries already past due get none (a site started after a long stop does not
// send a burst of late reminders); replied, closed and spam enquiries get none.

export const REMINDER_KIND = "reply-reminder";

/** Queues the reminders due at `now`; returns how many this call queued. */
export async function queueReplyReminders(db: Database, options: { now: Date; siteUrl: string }): Promise<number> {
  const remindFrom = new Date(options.now.getTime() - (REPLY_WITHIN_MS - REMINDER_BEFORE_MS)).toISOString();
  const dueAfter = new Date(options.now.getTime() - REPLY_WITHIN_MS).toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into mail_outbox (submission_id, kind, recipient, payload, status)
        select s.id, ${REMINDER_KIND}, owner.email,
               jsonb_build_object('link', ${`${options.siteUrl}/admin/enquiries/`} || s.id::text),
               'pending'
        from contact_submissions s
        left join staff owner on owner.id = s.owner_id and owner.disabled_at is null
        where s.status not in ('spam', 'won', 'lost') and not s.is_spam and s.first_reply_at is null
          and s.created_at <= ${remindFrom}::timestamptz and s.created_at > ${dueAfter}::timestamptz
        on conflict on constraint mail_outbox_submission_kind_unique do nothing
        returning id`,
  );
  return rows.length;
}
