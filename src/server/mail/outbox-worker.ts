import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { ContactSubmission } from "#shared/api-types.ts";
import { type Database, queryRows } from "../db/client.ts";
import { contactSubmissions, mailOutbox, newsletterSubscribers } from "../db/schema.ts";
import { errorCode } from "../plugins/request-logging.ts";
import { REMINDER_KIND } from "../enquiries/reply-reminders.ts";
import { acknowledgementEmail, notificationEmail, type OutgoingMail, reminderEmail } from "./enquiry-email.ts";
import { renewClaim, sendFailure } from "./send-attempt.ts";
import { isStaffMailKind, staffEmail } from "./staff-email.ts";
import { HEALTH_ALERT_KIND, healthAlertEmail, healthAlertPayload } from "./health-email.ts";
import { confirmationEmail, SUBSCRIPTION_MAIL_KIND } from "./subscription-email.ts";
import { TESTIMONIAL_REVIEW_KIND, testimonialReviewEmail, testimonialReviewItems } from "./testimonial-review-email.ts";

// Sends the mail the enquiries queued, at least once and in practice exactly once: a worker
// claims due rows with FOR UPDATE SKIP LOCKED and a lease, so instances never take the same
// row at once, and a row whose instance died is taken again when its lease runs out. A failed
// send is retried with exponential backoff, unless the SMTP server rejected the message for good
// (a 5xx answer) or it has failed `maxAttempts` times: the row is then marked 'failed', with the
// reason, and stays in the database for the firm to see (`npm run enquiries`). A newsletter's
// mail (rows with a newsletter_id) is not this worker's: the newsletter sender paces it.

export type MailTransport = { send: (mail: OutgoingMail) => Promise<void>; close: () => void };

export type OutboxWorkerOptions = {
  db: Database;
  transport: MailTransport;
  from: string;
  to: string[];
  log: FastifyBaseLogger;
  pollIntervalMs?: number;
  leaseMs?: number;
  batchSize?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Attempts before a message that keeps failing is given up (default about a day of retries). */
  maxAttempts?: number;
};

/**
 * With the default backoff (5 s doubling up to 15 min) this is about a day: an SMTP outage that
 * long still delivers, and a message that can never go out stops being tried.
 */
export const DEFAULT_MAX_ATTEMPTS = 100;

type ClaimedRow = {
  id: string;
  submission_id: string | null;
  kind: string;
  attempts: number;
  recipient: string | null;
  payload: Record<string, string> | null;
  subscriber_id: string | null;
};

export class OutboxWorker {
  readonly instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly options: Required<Omit<OutboxWorkerOptions, "db" | "transport" | "from" | "to" | "log">>;
  private running = false;
  private current: Promise<void> | undefined;
  private sleepTimer: ReturnType<typeof setTimeout> | undefined;
  private wakeSleeper: (() => void) | undefined;
  private wokenWhileBusy = false;

  constructor(private readonly deps: OutboxWorkerOptions) {
    this.options = {
      pollIntervalMs: deps.pollIntervalMs ?? 2000,
      leaseMs: deps.leaseMs ?? 60_000,
      batchSize: deps.batchSize ?? 20,
      retryBaseMs: deps.retryBaseMs ?? 5000,
      retryMaxMs: deps.retryMaxMs ?? 15 * 60_000,
      maxAttempts: deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.current = this.loop();
  }

  /** Looks for due mail now instead of at the next poll. */
  wake(): void {
    if (this.wakeSleeper) this.wakeSleeper();
    else this.wokenWhileBusy = true;
  }

  /** Stops polling after the batch in hand is sent (or its sends fail), then closes the transport. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.current;
    this.deps.transport.close();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.sendDueBatch();
      } catch (error) {
        this.deps.log.warn({ errCode: errorCode(error) }, "mail outbox: could not read due mail");
      }
      if (!this.running) break;
      if (claimed >= this.options.batchSize || this.wokenWhileBusy) {
        this.wokenWhileBusy = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        this.wakeSleeper = resolve;
        this.sleepTimer = setTimeout(resolve, this.options.pollIntervalMs);
      });
      clearTimeout(this.sleepTimer);
      this.wakeSleeper = undefined;
    }
  }

  /** Claims and sends one batch of due mail; returns how many rows it claimed. */
  async sendDueBatch(): Promise<number> {
    const { db } = this.deps;
    const claimed = await queryRows<ClaimedRow>(
      db,
      sql`update mail_outbox
          set lease_until = now() + make_interval(secs => ${this.options.leaseMs / 1000}),
              lease_owner = ${this.instanceId},
              attempts = attempts + 1
          where id in (
            select id from mail_outbox
            where status = 'pending' and next_attempt_at <= now() and (lease_until is null or lease_until < now())
              and newsletter_id is null
            order by next_attempt_at
            limit ${this.options.batchSize}
            for update skip locked)
          returning id, submission_id, kind, attempts, recipient, payload, subscriber_id`,
    );
    if (claimed.length === 0) return 0;
    const submissionIds = [...new Set(claimed.flatMap((row) => (row.submission_id ? [row.submission_id] : [])))];
    const rows = submissionIds.length
      ? await db.select().from(contactSubmissions).where(inArray(contactSubmissions.id, submissionIds))
      : [];
    const submissions = new Map(
      rows.map((row): [string, ContactSubmission] => [row.id, { ...row, createdAt: row.createdAt.toISOString() }]),
    );
    // One at a time, each recorded as sent the moment the SMTP server takes it: if this process
    // dies, at most the one message in hand can go out again (with the same Message-ID).
    for (const row of claimed)
      await this.sendOne(row, row.submission_id ? submissions.get(row.submission_id) : undefined);
    return claimed.length;
  }

  private async sendOne(row: ClaimedRow, submission: ContactSubmission | undefined): Promise<void> {
    const { db, log } = this.deps;
    const mine = and(eq(mailOutbox.id, row.id), eq(mailOutbox.leaseOwner, this.instanceId));
    const mailOptions = { from: this.deps.from, outboxId: row.id, hostname: "sabarmatigrid.site" };
    let mail: OutgoingMail;
    if (isStaffMailKind(row.kind)) {
      if (!row.recipient || !row.payload?.link) {
        await db
          .update(mailOutbox)
          .set({ status: "failed", lastError: "nothing to send", leaseUntil: null })
          .where(mine);
        return;
      }
      mail = staffEmail(row.kind, row.recipient, { link: row.payload.link, name: row.payload.name }, mailOptions);
    } else if (row.kind === SUBSCRIPTION_MAIL_KIND) {
      // Confirmed or unsubscribed since it was queued (a deleted address takes its row with it):
      // the link would no longer work, so the mail is not sent.
      const [subscriber] = row.subscriber_id
        ? await db
            .select({ status: newsletterSubscribers.status })
            .from(newsletterSubscribers)
            .where(eq(newsletterSubscribers.id, row.subscriber_id))
        : [];
      if (!row.recipient || !row.payload?.link || subscriber?.status !== "pending") {
        await db
          .update(mailOutbox)
          .set({ status: "cancelled", lastError: "no longer needed: not pending", leaseUntil: null, payload: null })
          .where(mine);
        return;
      }
      mail = confirmationEmail(row.recipient, { link: row.payload.link }, mailOptions);
    } else if (row.kind === HEALTH_ALERT_KIND) {
      // The Health page's alert to an admin (src/server/admin/health/health-alerts.ts).
      const payload = healthAlertPayload(row.payload);
      if (!row.recipient || !payload) {
        await db
          .update(mailOutbox)
          .set({ status: "failed", lastError: "nothing to send", leaseUntil: null })
          .where(mine);
        return;
      }
      mail = healthAlertEmail(row.recipient, payload, mailOptions);
    } else if (row.kind === TESTIMONIAL_REVIEW_KIND) {
      // The permissions' monthly review (src/server/content/testimonial-review.ts).
      const items = testimonialReviewItems(row.payload);
      if (!row.recipient || !items) {
        await db
          .update(mailOutbox)
          .set({ status: "failed", lastError: "nothing to send", leaseUntil: null })
          .where(mine);
        return;
      }
      mail = testimonialReviewEmail(row.recipient, items, mailOptions);
    } else if (row.kind === REMINDER_KIND) {
      if (!submission) {
        await db
          .update(mailOutbox)
          .set({ status: "failed", lastError: "enquiry not found", leaseUntil: null })
          .where(mine);
        return;
      }
      // Replied (or closed, or found to be spam) since it was queued: nothing to remind of.
      const [state] = await db
        .select({ firstReplyAt: contactSubmissions.firstReplyAt, status: contactSubmissions.status })
        .from(contactSubmissions)
        .where(eq(contactSubmissions.id, submission.id));
      if (!state || state.firstReplyAt || ["spam", "won", "lost"].includes(state.status)) {
        await db
          .update(mailOutbox)
          .set({
            status: "cancelled",
            lastError: "no longer needed: replied or closed",
            leaseUntil: null,
            payload: null,
          })
          .where(mine);
        return;
      }
      mail = reminderEmail(submission, { ...mailOptions, to: row.recipient ?? this.deps.to, link: row.payload?.link });
    } else if (!submission) {
      await db
        .update(mailOutbox)
        .set({ status: "failed", lastError: "enquiry not found", leaseUntil: null })
        .where(mine);
      return;
    } else {
      mail =
        row.kind === "acknowledgement"
          ? acknowledgementEmail(submission, mailOptions)
          : notificationEmail(submission, { ...mailOptions, to: this.deps.to });
    }
    // A batch is sent one message at a time, so a claim made for the whole batch can run out
    // before its last rows are reached, and another instance may have taken them since. Renew
    // the claim for this one row just before sending, and leave it if it is no longer ours.
    if (!(await renewClaim(db, row.id, this.instanceId, this.options.leaseMs))) return;
    try {
      await this.deps.transport.send(mail);
      // A staff mail's or a confirmation mail's link is a credential: it is not kept once it has gone out.
      await db
        .update(mailOutbox)
        .set({ status: "sent", sentAt: new Date(), leaseUntil: null, lastError: null, payload: null })
        .where(mine);
      log.info({ outboxId: row.id, kind: row.kind, attempts: row.attempts }, "mail sent");
    } catch (error) {
      const failure = sendFailure(error, row.attempts, this.options);
      const { responseCode, rejected } = failure;
      if (failure.givenUp) {
        const { lastError } = failure;
        await db.update(mailOutbox).set({ status: "failed", leaseUntil: null, lastError, payload: null }).where(mine);
        // The SMTP server's text stays in the row: it may quote an address.
        log.error(
          { outboxId: row.id, kind: row.kind, attempts: row.attempts, responseCode, errCode: errorCode(error) },
          rejected
            ? "mail rejected by the SMTP server; not retried"
            : "mail not sent after the last attempt; not retried",
        );
        return;
      }
      const delay = failure.retryInMs;
      await db
        .update(mailOutbox)
        .set({ leaseUntil: null, lastError: failure.reason, nextAttemptAt: new Date(Date.now() + delay) })
        .where(mine);
      log.warn(
        { outboxId: row.id, kind: row.kind, attempts: row.attempts, retryInMs: delay, errCode: errorCode(error) },
        "mail not sent; will retry",
      );
    }
  }
}
