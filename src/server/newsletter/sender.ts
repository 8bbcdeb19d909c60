import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { site } from "#shared/site.ts";
import { type Database, queryRows } from "../db/client.ts";
import { mailOutbox, type NewsletterSnapshot, newsletters, newsletterSubscribers } from "../db/schema.ts";
import { headerSafe, type OutgoingMail } from "../mail/enquiry-email.ts";
import { DEFAULT_MAX_ATTEMPTS, type MailTransport } from "../mail/outbox-worker.ts";
import { renewClaim, sendFailure } from "../mail/send-attempt.ts";
import { errorCode } from "../plugins/request-logging.ts";
import { type NewsletterMailParts, renderNewsletter } from "./newsletter-email.ts";
import { NEWSLETTER_KIND, NEWSLETTER_TEST_KIND, snapshotOf } from "./queue.ts";
import { newsletterPaths, TEST_UNSUBSCRIBE_TOKEN, unsubscribeMailto, unsubscribeToken } from "./tokens.ts";

// Sends the newsletter's outbox rows (docs/decisions/045-newsletter-sending.md), as the enquiry
// worker sends its own (018): rows claimed with FOR UPDATE SKIP LOCKED and a lease, the lease
// renewed for each row just before its send, the row marked sent the moment the SMTP server takes
// it, and a Message-ID made of the row's id, the same on every attempt. What it adds:
// - a pace shared by every instance: claims are made in a transaction holding one advisory lock,
//   which counts the newsletter rows claimed within the last minute and takes at most the rest of
//   NEWSLETTER_PER_MINUTE, and at most a sixtieth of it (rounded up) within the last second, so
//   the mail flows evenly instead of in one burst a minute (tests to staff are not paced);
// - the subscriber's state read just before each send: an address unsubscribed (or erased, which
//   deletes the row) since the send was queued is not mailed;
// - a 5xx answer marks the address bouncing, not mailed again until an admin lifts it;
// - a newsletter with no row left pending is marked sent, once, by whichever instance sees it.

/** The advisory lock every instance's claim takes, so that the pace's count and the claim are one step. */
const PACE_LOCK_KEY = 4_500_045;

/** Stands for the recipient's token in a newsletter rendered once for all its recipients. */
const TOKEN_PLACEHOLDER = "UNSUBSCRIBE-TOKEN-PLACEHOLDER";

export type NewsletterSenderOptions = {
  db: Database;
  transport: MailTransport;
  /** MAIL_FROM. */
  from: string;
  /** SITE_URL: the links, the pictures, the unsubscribe address. */
  siteUrl: string;
  /** Signs the unsubscribe tokens (the site's form secret). */
  secret: string;
  log: FastifyBaseLogger;
  /** NEWSLETTER_PER_MINUTE: newsletter mails claimed by all instances together within `windowMs`. */
  perMinute: number;
  /** The pace's window (a minute; the tests shorten or stretch it). */
  windowMs?: number;
  pollIntervalMs?: number;
  leaseMs?: number;
  batchSize?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  maxAttempts?: number;
};

type ClaimedRow = {
  id: string;
  kind: string;
  newsletter_id: string;
  subscriber_id: string | null;
  recipient: string | null;
  attempts: number;
};

export class NewsletterSender {
  readonly instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly options: Required<
    Omit<NewsletterSenderOptions, "db" | "transport" | "from" | "siteUrl" | "secret" | "log">
  >;
  private readonly messageHost: string;
  private running = false;
  /** Set by stop(): the batch in hand ends after the message in hand. */
  private stopping = false;
  private current: Promise<void> | undefined;
  private sleepTimer: ReturnType<typeof setTimeout> | undefined;
  private wakeSleeper: (() => void) | undefined;
  private wokenWhileBusy = false;
  /** The last claim took all the pace allowed while more was due: look again when the second is over, not at a poll. */
  private pacedOut = false;
  /** When this sender last claimed paced rows (its clock): the second's share is free again a sixtieth of the window later. */
  private lastPacedClaim = 0;

  constructor(private readonly deps: NewsletterSenderOptions) {
    this.options = {
      perMinute: deps.perMinute,
      windowMs: deps.windowMs ?? 60_000,
      pollIntervalMs: deps.pollIntervalMs ?? 2000,
      leaseMs: deps.leaseMs ?? 60_000,
      batchSize: deps.batchSize ?? 10,
      retryBaseMs: deps.retryBaseMs ?? 5000,
      retryMaxMs: deps.retryMaxMs ?? 15 * 60_000,
      maxAttempts: deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    };
    this.messageHost = new URL(deps.siteUrl).hostname || "localhost";
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.current = this.loop();
  }

  /** Looks for mail to send now instead of at the next poll (a newsletter or a test was queued). */
  wake(): void {
    if (this.wakeSleeper) this.wakeSleeper();
    else this.wokenWhileBusy = true;
  }

  /**
   * Stops after the message in hand: the rest of its batch is let go at once (its lease cleared),
   * so another instance, or this one restarted, sends it. Then closes the transport.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
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
        this.deps.log.warn({ errCode: errorCode(error) }, "newsletter: could not read due mail");
      }
      if (!this.running) break;
      if (claimed >= this.options.batchSize || this.wokenWhileBusy) {
        this.wokenWhileBusy = false;
        continue;
      }
      const pause = this.pacedOut
        ? Math.min(
            this.options.pollIntervalMs,
            Math.max(50, this.lastPacedClaim + this.options.windowMs / 60 - Date.now()),
          )
        : this.options.pollIntervalMs;
      await new Promise<void>((resolve) => {
        this.wakeSleeper = resolve;
        this.sleepTimer = setTimeout(resolve, pause);
      });
      clearTimeout(this.sleepTimer);
      this.wakeSleeper = undefined;
    }
  }

  /**
   * Claims due rows: tests to staff as they come, newsletter mail within what is left of the pace
   * (counted over every instance's claims of the last window, under one advisory lock, so two
   * instances claiming at once cannot both take the same budget). Exposed for the tests, which
   * make a sender that claims and then "dies".
   */
  async claimDue(): Promise<ClaimedRow[]> {
    const { leaseMs, windowMs, perMinute, batchSize } = this.options;
    const claim = (tx: Database, kind: string, limit: number) =>
      queryRows<ClaimedRow>(
        tx,
        sql`update mail_outbox
            set lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
                lease_owner = ${this.instanceId},
                claimed_at = now(),
                attempts = attempts + 1
            where id in (
              select id from mail_outbox
              where kind = ${kind} and newsletter_id is not null and status = 'pending'
                and next_attempt_at <= now() and (lease_until is null or lease_until < now())
              order by next_attempt_at, id
              limit ${limit}
              for update skip locked)
            returning id, kind, newsletter_id, subscriber_id, recipient, attempts`,
      );
    const tests = await claim(this.deps.db, NEWSLETTER_TEST_KIND, batchSize);
    const paced = await this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${PACE_LOCK_KEY})`);
      const [used] = await queryRows<{ window: number; second: number }>(
        tx,
        sql`select count(*)::int as window,
                   (count(*) filter (where claimed_at > now() - make_interval(secs => ${windowMs / 60_000})))::int as second
            from mail_outbox
            where kind = ${NEWSLETTER_KIND} and claimed_at > now() - make_interval(secs => ${windowMs / 1000})`,
      );
      const budget = Math.min(
        batchSize,
        perMinute - Number(used?.window ?? 0),
        Math.ceil(perMinute / 60) - Number(used?.second ?? 0),
      );
      const rows = budget > 0 ? await claim(tx, NEWSLETTER_KIND, budget) : [];
      if (rows.length) this.lastPacedClaim = Date.now();
      // Held back by the pace (not by an empty queue): worth looking again as soon as it allows.
      this.pacedOut = budget < batchSize && rows.length === Math.max(budget, 0);
      return rows;
    });
    return [...tests, ...paced];
  }

  /** Claims and sends one batch; returns how many rows it claimed. */
  async sendDueBatch(): Promise<number> {
    const claimed = await this.claimDue();
    const rendered = new Map<string, NewsletterMailParts | null>();
    let index = 0;
    for (; index < claimed.length && !this.stopping; index++) await this.sendOne(claimed[index]!, rendered);
    // Stopped mid-batch: the rows not reached are let go, for another instance to take at once.
    const left = claimed.slice(index).map((row) => row.id);
    if (left.length)
      await queryRows(
        this.deps.db,
        sql`update mail_outbox set lease_until = null, attempts = attempts - 1
            where lease_owner = ${this.instanceId} and status = 'pending'
              and id in (${sql.join(
                left.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})`,
      );
    await this.finishNewsletters();
    return claimed.length;
  }

  /** Marks sent every newsletter with nothing pending left; the status condition makes it once. */
  async finishNewsletters(): Promise<void> {
    const finished = await queryRows<{ id: string }>(
      this.deps.db,
      sql`update newsletters set status = 'sent', finished_at = now()
          where status = 'sending' and not exists (
            select 1 from mail_outbox
            where mail_outbox.newsletter_id = newsletters.id and mail_outbox.kind = ${NEWSLETTER_KIND}
              and mail_outbox.status = 'pending')
          returning id`,
    );
    for (const row of finished)
      this.deps.log.info({ newsletterId: row.id }, "newsletter: all its mail sent or given up");
  }

  /** The newsletter's mail with a placeholder for the recipient's token, rendered once per batch. */
  private async renderFor(
    row: ClaimedRow,
    rendered: Map<string, NewsletterMailParts | null>,
  ): Promise<NewsletterMailParts | null> {
    const key = `${row.kind}:${row.newsletter_id}`;
    if (rendered.has(key)) return rendered.get(key)!;
    const [newsletter] = await this.deps.db.select().from(newsletters).where(eq(newsletters.id, row.newsletter_id));
    let parts: NewsletterMailParts | null = null;
    if (newsletter) {
      // A subscriber gets what was frozen at the send; a test shows the newsletter as it is now.
      const snapshot: NewsletterSnapshot | null =
        row.kind === NEWSLETTER_TEST_KIND
          ? (newsletter.snapshot ?? (await snapshotOf(this.deps.db, newsletter, new Date())))
          : newsletter.snapshot;
      if (snapshot)
        parts = renderNewsletter(snapshot, {
          siteUrl: this.deps.siteUrl,
          campaign: newsletter.campaign,
          unsubscribeUrl: `${this.deps.siteUrl}${newsletterPaths.unsubscribe(TOKEN_PLACEHOLDER)}`,
        });
    }
    rendered.set(key, parts);
    return parts;
  }

  private mailOf(row: ClaimedRow, parts: NewsletterMailParts, recipient: string, token: string): OutgoingMail {
    const unsubscribeUrl = `${this.deps.siteUrl}${newsletterPaths.unsubscribe(token)}`;
    const test = row.kind === NEWSLETTER_TEST_KIND;
    return {
      from: this.deps.from,
      to: headerSafe(recipient),
      subject: headerSafe(`${test ? "[Test] " : ""}${parts.subject}`),
      text: parts.text.replaceAll(TOKEN_PLACEHOLDER, token),
      html: parts.html.replaceAll(TOKEN_PLACEHOLDER, token),
      messageId: `<${row.id}@${this.messageHost}>`,
      // RFC 2369 and RFC 8058: the mail providers' unsubscribe button, one click, no sign-in.
      headers: {
        "List-Unsubscribe": `<${unsubscribeUrl}>, <${unsubscribeMailto(site.email, token)}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    };
  }

  private async sendOne(row: ClaimedRow, rendered: Map<string, NewsletterMailParts | null>): Promise<void> {
    const { db, log } = this.deps;
    const mine = and(eq(mailOutbox.id, row.id), eq(mailOutbox.leaseOwner, this.instanceId));
    const giveUp = (status: "failed" | "cancelled", lastError: string) =>
      db.update(mailOutbox).set({ status, lastError, leaseUntil: null }).where(mine);

    // Renew the claim for this one row just before sending, and leave it if it is no longer ours
    // (a slow batch can outlast its lease, and another instance may have taken the row since).
    if (!(await renewClaim(db, row.id, this.instanceId, this.options.leaseMs))) return;

    let recipient = row.recipient;
    let token = TEST_UNSUBSCRIBE_TOKEN;
    if (row.kind === NEWSLETTER_KIND) {
      const [subscriber] = row.subscriber_id
        ? await db
            .select({ email: newsletterSubscribers.email, status: newsletterSubscribers.status })
            .from(newsletterSubscribers)
            .where(eq(newsletterSubscribers.id, row.subscriber_id))
        : [];
      if (!subscriber || subscriber.status !== "confirmed") {
        await giveUp("cancelled", `not sent: the address is ${subscriber?.status ?? "gone"}`);
        return;
      }
      recipient = subscriber.email;
      token = unsubscribeToken(this.deps.secret, row.subscriber_id!);
    }
    const parts = await this.renderFor(row, rendered);
    if (!parts || !recipient) {
      await giveUp("failed", parts ? "no recipient" : "newsletter not found");
      return;
    }
    const mail = this.mailOf(row, parts, recipient, token);
    try {
      await this.deps.transport.send(mail);
      await db
        .update(mailOutbox)
        .set({ status: "sent", sentAt: new Date(), leaseUntil: null, lastError: null })
        .where(mine);
    } catch (error) {
      const failure = sendFailure(error, row.attempts, this.options);
      const { responseCode, rejected } = failure;
      if (failure.givenUp) {
        const { lastError } = failure;
        await db.transaction(async (tx) => {
          await tx.update(mailOutbox).set({ status: "failed", leaseUntil: null, lastError }).where(mine);
          // Refused for good: the address is not mailed again until an admin lifts it.
          if (rejected && row.kind === NEWSLETTER_KIND && row.subscriber_id)
            await tx
              .update(newsletterSubscribers)
              .set({ status: "bouncing", bounceReason: lastError, statusChangedAt: new Date() })
              .where(
                and(eq(newsletterSubscribers.id, row.subscriber_id), eq(newsletterSubscribers.status, "confirmed")),
              );
        });
        log.error(
          { outboxId: row.id, kind: row.kind, attempts: row.attempts, responseCode, errCode: errorCode(error) },
          rejected
            ? "newsletter mail rejected by the SMTP server; address marked bouncing"
            : "newsletter mail given up",
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
        "newsletter mail not sent; will retry",
      );
    }
  }
}
