import { sql } from "drizzle-orm";
import type { ErasureCounts } from "#shared/admin/pages.ts";
import { recordErasure } from "../../backup/erasure-ledger.ts";
import { type Database, queryRows } from "../../db/client.ts";

// Erasure at /admin/privacy (admins only): every enquiry, note, queued mail and subscription of
// one address, and the newsletter mail to it (its confirmation mail and each newsletter's row,
// sent ones included: the row holds the address's subscriber id), previewed and then deleted in
// one transaction. The audit trail records that an
// erasure happened and its counts, never the address; earlier events about that person keep
// their action and time but lose the address and name (their target label).

type Count = { count: number | string };

/** The subscription ids of an address (one at most: addresses are unique), as a subquery. */
const subscriberIdsOf = (email: string) => sql`select id from newsletter_subscribers where email = ${email}`;

/** What an erasure of `email` would delete. */
export async function erasurePreview(db: Database, email: string): Promise<ErasureCounts> {
  const [row] = await queryRows<{
    enquiries: number | string;
    notes: number | string;
    mail: number | string;
    subscriptions: number | string;
    newsletter_mail: number | string;
  }>(
    db,
    sql`select
          (select count(*) from contact_submissions where lower(email) = ${email}) as enquiries,
          (select count(*) from enquiry_notes n join contact_submissions s on s.id = n.submission_id where lower(s.email) = ${email}) as notes,
          (select count(*) from mail_outbox m left join contact_submissions s on s.id = m.submission_id
             where (lower(s.email) = ${email} or lower(m.recipient) = ${email})
               and (m.subscriber_id is null or m.subscriber_id not in (${subscriberIdsOf(email)}))) as mail,
          (select count(*) from newsletter_subscribers where email = ${email}) as subscriptions,
          (select count(*) from mail_outbox where subscriber_id in (${subscriberIdsOf(email)})) as newsletter_mail`,
  );
  return {
    enquiries: Number(row?.enquiries ?? 0),
    notes: Number(row?.notes ?? 0),
    mail: Number(row?.mail ?? 0),
    subscriptions: Number(row?.subscriptions ?? 0),
    newsletterMail: Number(row?.newsletter_mail ?? 0),
  };
}

/**
 * Deletes everything of `email` and scrubs it from earlier audit events; returns the counts. The
 * erasure is written to the erasure ledger (a hash of the address and the time, in the same
 * transaction) unless `ledger` is false: a restore erasing again what the ledger names.
 */
export async function eraseAddress(
  db: Database,
  email: string,
  options: { ledger?: boolean; now?: Date } = {},
): Promise<ErasureCounts> {
  return db.transaction(async (tx) => {
    const t = tx;
    if (options.ledger !== false) await recordErasure(t, email, options.now ?? new Date());
    const enquiries = await queryRows<{ id: string; first_name: string; last_name: string }>(
      t,
      sql`select id, first_name, last_name from contact_submissions where lower(email) = ${email} for update`,
    );
    const ids = enquiries.map((row) => row.id);
    const idList = ids.length
      ? sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )
      : sql`null::uuid`;
    const notes = await queryRows<Count>(
      t,
      sql`delete from enquiry_notes where submission_id in (${idList}) returning 1 as count`,
    );
    // The newsletter mail first (its rows name the subscription, which the next statement
    // deletes), then the rest: each row counted once, where the preview counted it.
    const newsletterMail = await queryRows<Count>(
      t,
      sql`delete from mail_outbox where subscriber_id in (${subscriberIdsOf(email)}) returning 1 as count`,
    );
    const mail = await queryRows<Count>(
      t,
      sql`delete from mail_outbox where submission_id in (${idList}) or lower(recipient) = ${email} returning 1 as count`,
    );
    const subscribers = await queryRows<{ id: string }>(
      t,
      sql`delete from newsletter_subscribers where email = ${email} returning id`,
    );
    await queryRows(t, sql`delete from contact_submissions where id in (${idList}) returning id`);
    // Earlier events about this person: the enquiries' and the subscription's, and any label
    // naming the address. Their action and time stay.
    const subscriberIds = subscribers.map((row) => row.id);
    const subscriberList = subscriberIds.length
      ? sql.join(
          subscriberIds.map((id) => sql`${id}`),
          sql`, `,
        )
      : sql`null`;
    await queryRows(
      t,
      sql`update audit_events set target_label = null
          where (target_type = 'enquiry' and target_id in (${
            ids.length
              ? sql.join(
                  ids.map((id) => sql`${id}`),
                  sql`, `,
                )
              : sql`null`
          }))
             or (target_type = 'subscriber' and target_id in (${subscriberList}))
             or lower(target_label) like ${`%${email.replace(/[\\%_]/g, (char) => `\\${char}`)}%`}
          returning id`,
    );
    return {
      enquiries: ids.length,
      notes: notes.length,
      mail: mail.length,
      subscriptions: subscribers.length,
      newsletterMail: newsletterMail.length,
    };
  });
}
