import { and, eq, inArray, sql } from "drizzle-orm";
import { isUuid } from "#shared/schemas/identifiers.ts";
import { type Database, queryRows } from "../db/client.ts";
import { mailOutbox, type NewsletterSnapshot, type NewsletterStatus, newsletters } from "../db/schema.ts";
import { listNewsletterArticles } from "../content/public-content.ts";

// What the back office asks of the newsletter's sending (docs/decisions/045-newsletter-sending.md):
// freeze what a newsletter says and queue one outbox row per confirmed subscriber, once; queue a
// test to a member of staff; count each newsletter's mail. The sender (sender.ts) sends the rows.

/** The kind of an outbox row holding a newsletter to a subscriber (paced). */
export const NEWSLETTER_KIND = "newsletter";
/** The kind of an outbox row holding a test of a newsletter to a member of staff (not paced, not counted). */
export const NEWSLETTER_TEST_KIND = "newsletter-test";

/** What a newsletter says now, with only its featured articles that are public (the send freezes this). */
export async function snapshotOf(
  db: Database,
  newsletter: { subject: string; introduction: string; articleIds: string[] },
  now: Date,
): Promise<NewsletterSnapshot> {
  return {
    subject: newsletter.subject,
    introduction: newsletter.introduction,
    articles: await listNewsletterArticles(db, newsletter.articleIds, now),
  };
}

export type SendResult =
  { ok: true; queued: number } | { ok: false; reason: "not-found" | "already-sent" | "stale" | "nothing-to-send" };

/**
 * Sends a newsletter, once: freezes its snapshot, marks it sending, and queues one outbox row per
 * confirmed subscriber (unique per newsletter and subscriber), all in one transaction. "stale"
 * when `expectedVersion` is not the newsletter's version; "already-sent" when it is not a draft;
 * "nothing-to-send" when it has no subject, or neither an introduction nor a public article.
 */
export async function sendNewsletter(
  db: Database,
  input: { newsletterId: string; expectedVersion: number; actor: { id: string; label: string }; now: Date },
): Promise<SendResult> {
  if (!isUuid(input.newsletterId)) return { ok: false, reason: "not-found" };
  return db.transaction(async (tx): Promise<SendResult> => {
    // The row lock makes two sends of one newsletter (two tabs, two instances) take turns: the
    // second finds it no longer a draft.
    const [newsletter] = await tx
      .select()
      .from(newsletters)
      .where(eq(newsletters.id, input.newsletterId))
      .for("update");
    if (!newsletter) return { ok: false, reason: "not-found" };
    if (newsletter.status !== "draft") return { ok: false, reason: "already-sent" };
    if (newsletter.version !== input.expectedVersion) return { ok: false, reason: "stale" };
    const snapshot = await snapshotOf(tx, newsletter, input.now);
    if (!snapshot.subject.trim() || (!snapshot.introduction.trim() && snapshot.articles.length === 0))
      return { ok: false, reason: "nothing-to-send" };
    // One statement for every recipient, however many: the unique (newsletter_id, subscriber_id)
    // makes a row per subscriber at most once, ever.
    const [inserted] = await queryRows<{ count: number }>(
      tx,
      sql`with queued as (
            insert into mail_outbox (kind, newsletter_id, subscriber_id, recipient, status, next_attempt_at)
            select ${NEWSLETTER_KIND}, ${newsletter.id}, id, email, 'pending', now()
            from newsletter_subscribers where status = 'confirmed'
            on conflict (newsletter_id, subscriber_id) do nothing
            returning 1)
          select count(*)::int as count from queued`,
    );
    const queued = Number(inserted?.count ?? 0);
    await tx
      .update(newsletters)
      .set({
        snapshot,
        // With nobody to send to, there is nothing to wait for.
        status: queued === 0 ? "sent" : "sending",
        finishedAt: queued === 0 ? input.now : null,
        sentAt: input.now,
        sentBy: input.actor.id,
        sentByLabel: input.actor.label,
        recipients: queued,
        version: newsletter.version + 1,
        updatedAt: input.now,
      })
      .where(eq(newsletters.id, newsletter.id));
    return { ok: true, queued };
  });
}

/** Queues a test of the newsletter as it is now to one member of staff (any number of times). */
export async function queueTestSend(
  db: Database,
  input: { newsletterId: string; recipient: string },
): Promise<{ ok: true } | { ok: false; reason: "not-found" }> {
  if (!isUuid(input.newsletterId)) return { ok: false, reason: "not-found" };
  // No subscriber: the unique (newsletter_id, subscriber_id) does not hold nulls to one row, so a
  // test may be sent again. The sender renders it from the newsletter as it is when it goes out.
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into mail_outbox (kind, newsletter_id, recipient, status, next_attempt_at)
        select ${NEWSLETTER_TEST_KIND}, id, ${input.recipient}, 'pending', now()
        from newsletters where id = ${input.newsletterId}
        returning id`,
  );
  return rows.length ? { ok: true } : { ok: false, reason: "not-found" };
}

export type NewsletterProgress = {
  status: NewsletterStatus;
  recipients: number;
  /** Waiting to be sent (pending, including those being retried). */
  queued: number;
  sent: number;
  failed: number;
};

/** The counts of each newsletter's mail to subscribers (tests not counted), by newsletter id. */
export async function newsletterProgress(db: Database, ids: string[]): Promise<Map<string, NewsletterProgress>> {
  const wanted = [...new Set(ids.filter(isUuid))];
  const progress = new Map<string, NewsletterProgress>();
  if (wanted.length === 0) return progress;
  const rows = await db
    .select({ id: newsletters.id, status: newsletters.status, recipients: newsletters.recipients })
    .from(newsletters)
    .where(inArray(newsletters.id, wanted));
  for (const row of rows)
    progress.set(row.id, { status: row.status, recipients: row.recipients ?? 0, queued: 0, sent: 0, failed: 0 });
  const counts = await db
    .select({ id: mailOutbox.newsletterId, status: mailOutbox.status, count: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.newsletterId, wanted), eq(mailOutbox.kind, NEWSLETTER_KIND)))
    .groupBy(mailOutbox.newsletterId, mailOutbox.status);
  for (const count of counts) {
    const entry = count.id ? progress.get(count.id) : undefined;
    if (!entry) continue;
    // Cancelled rows (unsubscribed or bouncing before their turn) are neither sent nor failed.
    if (count.status === "pending") entry.queued += Number(count.count);
    else if (count.status === "sent") entry.sent += Number(count.count);
    else if (count.status === "failed") entry.failed += Number(count.count);
  }
  return progress;
}
