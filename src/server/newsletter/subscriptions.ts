import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { CONFIRMATION_PAGE_TEXT } from "#shared/newsletter-consent.ts";
import { PRIVACY_NOTICE_VERSION } from "#shared/privacy-notice.ts";
import { type Database, queryRows } from "../db/client.ts";
import { mailOutbox, newsletterSubscribers } from "../db/schema.ts";
import type { Attribution } from "../analytics/counting.ts";
import { clientRateLimitKey, hitRateLimit, rateLimitKey } from "../enquiries/rate-limit.ts";
import { SUBSCRIPTION_MAIL_KIND } from "../mail/subscription-email.ts";
import { canonicalMailbox } from "./mailbox.ts";
import {
  CONFIRMATION_LINK_HOURS,
  CONFIRMATION_MAIL_INTERVAL_HOURS,
  hashToken,
  isConfirmationToken,
  newConfirmationToken,
  newsletterPaths,
  PENDING_SUBSCRIPTION_DAYS,
  subscriberOfUnsubscribeToken,
  TEST_UNSUBSCRIBE_TOKEN,
} from "./tokens.ts";

// Double opt-in (docs/decisions/044-newsletter-double-opt-in.md). A subscription only asks: the
// address is kept as pending and sent one link, which confirms it by POST from the page it opens.
// Every subscription gets the same answer, whatever the address's state, so the form tells
// nobody who is on the list; and an address gets at most one confirmation mail a day, a mailbox
// (its +tags, and Gmail's dots, aside) CONFIRMATION_MAILS_PER_MAILBOX_DAY, and one client
// CONFIRMATION_MAILS_PER_CLIENT_DAY, so the form cannot be used to fill someone's inbox.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Confirmation mails one mailbox gets in any 24 hours, whatever addresses of it were typed
 * (`victim+1@…`, `victim+2@…`, `v.ictim@gmail.com`): the first link, and two more tries.
 */
export const CONFIRMATION_MAILS_PER_MAILBOX_DAY = 3;
/**
 * Confirmation mails one client (its IP address, an IPv6 /64) has sent in any 24 hours: as many as
 * it may send enquiries without a form token a day; more addresses from one place is a list
 * being fed in, not people subscribing.
 */
export const CONFIRMATION_MAILS_PER_CLIENT_DAY = 20;
const DAY_SECONDS = 24 * 60 * 60;

/** Where a subscription's confirmation mail goes and what it says: one outbox row, sent by the enquiry worker. */
type QueueContext = { siteUrl: string; mailConfigured: boolean; now: Date };

/**
 * Gives a subscriber a new confirmation link and queues the mail carrying it, in the caller's
 * transaction. The link is the row's payload until the mail is sent (then cleared: it is a
 * credential). An older confirmation mail still waiting is cancelled: its link no longer works.
 */
async function queueConfirmation(
  tx: Database,
  subscriber: { id: string; email: string },
  context: QueueContext,
  changes: Partial<typeof newsletterSubscribers.$inferInsert> = {},
): Promise<void> {
  const { token, hash } = newConfirmationToken();
  await tx
    .update(newsletterSubscribers)
    .set({
      ...changes,
      confirmTokenHash: hash,
      confirmExpiresAt: new Date(context.now.getTime() + CONFIRMATION_LINK_HOURS * HOUR),
      confirmationSentAt: context.now,
    })
    .where(eq(newsletterSubscribers.id, subscriber.id));
  await tx
    .update(mailOutbox)
    .set({ status: "cancelled", payload: null, leaseUntil: null, lastError: "replaced by a newer confirmation mail" })
    .where(
      and(
        eq(mailOutbox.subscriberId, subscriber.id),
        eq(mailOutbox.kind, SUBSCRIPTION_MAIL_KIND),
        eq(mailOutbox.status, "pending"),
      ),
    );
  await tx.insert(mailOutbox).values({
    kind: SUBSCRIPTION_MAIL_KIND,
    recipient: subscriber.email,
    subscriberId: subscriber.id,
    newsletterId: null,
    payload: { link: `${context.siteUrl}${newsletterPaths.confirm(token)}` },
    status: context.mailConfigured ? "pending" : "unconfigured",
  });
}

export type SubscribeInput = {
  email: string;
  /** The page the box was on (a path of the route table). */
  consentPage: string;
  /** The box's wording as shown (#shared/newsletter-consent.ts). */
  consentText: string;
  /** The version of the privacy notice the box showed (src/shared/privacy-notice.ts); the current one when not given. */
  noticeVersion?: string;
  attribution?: Attribution;
};

/** Who asked for a subscription, for the daily limits of confirmation mails. */
export type SubscribeClient = {
  /** The client's address as the app sees it (request.ip). */
  address: string;
  /** The key of the limits' hashes (the site's form secret): no address is stored. */
  secret: string;
};

export type SubscribeResult = {
  /** A confirmation mail was queued (false: the address is confirmed, bouncing, or was mailed within the day). */
  queued: boolean;
  /** The address was not on the list before. */
  created: boolean;
  /** Which daily limit kept the mail from being sent (nothing was changed then). */
  limited?: "mailbox" | "client";
};

/** A daily limit refused the mail: thrown to roll the subscription back, the other limit's count with it. */
class MailLimited extends Error {
  constructor(readonly limit: "mailbox" | "client") {
    super(`the ${limit}'s daily limit of confirmation mails`);
  }
}

/**
 * Counts a confirmation mail against the mailbox's and the client's daily limits, in the caller's
 * transaction; throws MailLimited when either is spent (the transaction's rollback takes back
 * the other's count, so a refused mail spends nothing).
 */
async function countConfirmationMail(tx: Database, email: string, client: SubscribeClient): Promise<void> {
  const mailbox = await hitRateLimit(
    tx,
    rateLimitKey(client.secret, "newsletter-confirmation-mailbox", canonicalMailbox(email)),
    CONFIRMATION_MAILS_PER_MAILBOX_DAY,
    DAY_SECONDS,
  );
  if (!mailbox.allowed) throw new MailLimited("mailbox");
  const perClient = await hitRateLimit(
    tx,
    clientRateLimitKey(client.secret, "newsletter-confirmation-client", client.address),
    CONFIRMATION_MAILS_PER_CLIENT_DAY,
    DAY_SECONDS,
  );
  if (!perClient.allowed) throw new MailLimited("client");
}

/**
 * A subscription from the box. New → pending with a link mailed; pending or unsubscribed → a new
 * link mailed, unless one was mailed in the last CONFIRMATION_MAIL_INTERVAL_HOURS; confirmed or
 * bouncing → nothing. A mail is sent only within the mailbox's and the client's daily limits;
 * beyond them nothing changes (a new address is not kept: unmailed, it would be asked by the daily
 * purge as an old one). One transaction: two subscriptions of one address at once send one mail.
 */
export async function subscribe(
  db: Database,
  input: SubscribeInput,
  context: QueueContext & { client: SubscribeClient },
): Promise<SubscribeResult> {
  try {
    return await subscribeInTransaction(db, input, context);
  } catch (error) {
    if (error instanceof MailLimited) return { queued: false, created: false, limited: error.limit };
    throw error;
  }
}

async function subscribeInTransaction(
  db: Database,
  input: SubscribeInput,
  context: QueueContext & { client: SubscribeClient },
): Promise<SubscribeResult> {
  const email = input.email.toLowerCase();
  const a = input.attribution;
  return db.transaction(async (transaction) => {
    const tx: Database = transaction;
    const inserted = await tx
      .insert(newsletterSubscribers)
      .values({
        email,
        createdAt: context.now,
        landingPage: a?.landingPage ?? null,
        attributionSource: a?.attributionSource ?? null,
        attributionMedium: a?.attributionMedium ?? null,
        attributionCampaign: a?.attributionCampaign ?? null,
        status: "pending",
        statusChangedAt: context.now,
        consentPage: input.consentPage,
        consentText: input.consentText,
        noticeVersion: input.noticeVersion ?? PRIVACY_NOTICE_VERSION,
      })
      .onConflictDoNothing({ target: newsletterSubscribers.email })
      .returning({ id: newsletterSubscribers.id });
    if (inserted[0]) {
      await countConfirmationMail(tx, email, context.client);
      await queueConfirmation(tx, { id: inserted[0].id, email }, context);
      return { queued: true, created: true };
    }
    // Already known: lock the row, so a subscription at the same moment waits and sees this one's mail.
    const [existing] = await queryRows<{ id: string; status: string; confirmation_sent_at: string | Date | null }>(
      tx,
      sql`select id, status, confirmation_sent_at from newsletter_subscribers where email = ${email} for update`,
    );
    if (!existing || existing.status === "confirmed" || existing.status === "bouncing")
      return { queued: false, created: false };
    const lastMail = existing.confirmation_sent_at ? new Date(existing.confirmation_sent_at).getTime() : undefined;
    if (lastMail !== undefined && context.now.getTime() - lastMail < CONFIRMATION_MAIL_INTERVAL_HOURS * HOUR)
      return { queued: false, created: false };
    await countConfirmationMail(tx, email, context.client);
    // Pending again (from unsubscribed), or still pending: the week before deletion starts again,
    // and the consent to prove is this latest subscription's.
    await queueConfirmation(tx, { id: existing.id, email }, context, {
      status: "pending",
      statusChangedAt: context.now,
      consentPage: input.consentPage,
      consentText: input.consentText,
      noticeVersion: input.noticeVersion ?? PRIVACY_NOTICE_VERSION,
      confirmedAt: null,
    });
    return { queued: true, created: false };
  });
}

export type LinkVerdict = "valid" | "invalid" | "expired";

/** What a confirmation link would do, without doing it (its page, opened by GET). */
export async function checkConfirmationLink(db: Database, token: string, now: Date): Promise<LinkVerdict> {
  if (!isConfirmationToken(token)) return "invalid";
  const [row] = await db
    .select({ status: newsletterSubscribers.status, expiresAt: newsletterSubscribers.confirmExpiresAt })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.confirmTokenHash, hashToken(token)));
  if (!row || row.status !== "pending") return "invalid";
  return !row.expiresAt || row.expiresAt.getTime() <= now.getTime() ? "expired" : "valid";
}

/**
 * Confirms the subscription a link was made for (the page's POST), once: the link is cleared, and
 * the proof of consent completed (when, from which page, the words of the box and of this page).
 */
export async function confirmSubscription(db: Database, token: string, now: Date): Promise<LinkVerdict> {
  if (!isConfirmationToken(token)) return "invalid";
  return db.transaction(async (transaction) => {
    const tx: Database = transaction;
    const [row] = await queryRows<{
      id: string;
      status: string;
      confirm_expires_at: string | Date | null;
      consent_text: string | null;
    }>(
      tx,
      sql`select id, status, confirm_expires_at, consent_text from newsletter_subscribers
          where confirm_token_hash = ${hashToken(token)} for update`,
    );
    if (!row || row.status !== "pending") return "invalid";
    if (!row.confirm_expires_at || new Date(row.confirm_expires_at).getTime() <= now.getTime()) return "expired";
    await tx
      .update(newsletterSubscribers)
      .set({
        status: "confirmed",
        statusChangedAt: now,
        confirmedAt: now,
        confirmTokenHash: null,
        confirmExpiresAt: null,
        // An address collected before confirmation existed saw no box wording we can vouch for:
        // its consent is the confirmation page's alone, given there.
        consentText: row.consent_text ? `${row.consent_text}\n\n${CONFIRMATION_PAGE_TEXT}` : CONFIRMATION_PAGE_TEXT,
        consentPage: sql`coalesce(${newsletterSubscribers.consentPage}, '/newsletter/confirm')`,
      })
      .where(eq(newsletterSubscribers.id, row.id));
    return "valid";
  });
}

export type UnsubscribeLink = { kind: "test" } | { kind: "invalid" } | { kind: "subscriber"; id: string };

/** Whose an unsubscribe link is: a test send's, a forged one, or a subscriber's (checked by its signature alone). */
export function readUnsubscribeLink(secret: string, token: string): UnsubscribeLink {
  if (token === TEST_UNSUBSCRIBE_TOKEN) return { kind: "test" };
  const id = subscriberOfUnsubscribeToken(secret, token);
  return id ? { kind: "subscriber", id } : { kind: "invalid" };
}

/**
 * Unsubscribes at once (RFC 8058 one-click, or the page's button): the address is marked
 * unsubscribed and any of its mail still waiting is cancelled, a newsletter being sent to it
 * included. Repeating it changes nothing more. A subscriber since deleted is unsubscribed already.
 * Returns whether the state changed.
 */
export async function unsubscribe(db: Database, subscriberId: string, now: Date): Promise<boolean> {
  return db.transaction(async (transaction) => {
    const tx: Database = transaction;
    const changed = await tx
      .update(newsletterSubscribers)
      .set({ status: "unsubscribed", statusChangedAt: now, confirmTokenHash: null, confirmExpiresAt: null })
      .where(and(eq(newsletterSubscribers.id, subscriberId), sql`${newsletterSubscribers.status} <> 'unsubscribed'`))
      .returning({ id: newsletterSubscribers.id });
    await tx
      .update(mailOutbox)
      .set({ status: "cancelled", payload: null, leaseUntil: null, lastError: "unsubscribed" })
      .where(and(eq(mailOutbox.subscriberId, subscriberId), eq(mailOutbox.status, "pending")));
    return changed.length > 0;
  });
}

/**
 * Deletes the addresses still pending PENDING_SUBSCRIPTION_DAYS after they last changed (their
 * confirmation mail goes with them: the outbox row cascades). Part of the daily purge.
 */
export async function deleteUnconfirmedSubscribers(db: Database, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - PENDING_SUBSCRIPTION_DAYS * DAY);
  const deleted = await db
    .delete(newsletterSubscribers)
    .where(and(eq(newsletterSubscribers.status, "pending"), lt(newsletterSubscribers.statusChangedAt, cutoff)))
    .returning({ id: newsletterSubscribers.id });
  return deleted.length;
}

/** Addresses asked per statement batch: a first run may find thousands. */
const LEGACY_BATCH = 500;

/**
 * The addresses collected before confirmation existed (pending, never sent a confirmation mail:
 * migration 0010 made them so) are each asked once to confirm. Their week before deletion is
 * not restarted: it runs from the migration. Marking them asked and queueing their mail is one
 * transaction with the daily purge's claim, so two instances, or two runs, never ask twice.
 * Returns how many were asked.
 */
export async function askLegacySubscribers(
  db: Database,
  context: { siteUrl: string; now: Date; mailConfigured?: boolean },
): Promise<number> {
  let asked = 0;
  for (;;) {
    const batch = await db
      .select({ id: newsletterSubscribers.id, email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      .where(and(eq(newsletterSubscribers.status, "pending"), isNull(newsletterSubscribers.confirmationSentAt)))
      .limit(LEGACY_BATCH)
      .for("update", { skipLocked: true });
    for (const subscriber of batch)
      await queueConfirmation(db, subscriber, { mailConfigured: context.mailConfigured ?? true, ...context });
    asked += batch.length;
    if (batch.length < LEGACY_BATCH) return asked;
  }
}
