import type { Database } from "../db/client.ts";
import type { NewsletterSnapshot, NewsletterStatus } from "../db/schema.ts";

// PLACEHOLDER (helper B builds it): what the back office asks of the newsletter's sending.

/** What a newsletter says now, with only its featured articles that are public (the send freezes this). */
export async function snapshotOf(
  db: Database,
  newsletter: { subject: string; introduction: string; articleIds: string[] },
  now: Date,
): Promise<NewsletterSnapshot> {
  void db;
  void newsletter;
  void now;
  throw new Error("not built yet");
}

export type SendResult =
  { ok: true; queued: number } | { ok: false; reason: "not-found" | "already-sent" | "stale" | "nothing-to-send" };

/**
 * Sends a newsletter, once: freezes its snapshot, marks it sending, and queues one outbox row per
 * confirmed subscriber (unique per newsletter and subscriber), all in one transaction. "stale"
 * when `expectedVersion` is not the newsletter's version; "already-sent" when it is not a draft.
 */
export async function sendNewsletter(
  db: Database,
  input: { newsletterId: string; expectedVersion: number; actor: { id: string; label: string }; now: Date },
): Promise<SendResult> {
  void db;
  void input;
  throw new Error("not built yet");
}

/** Queues a test of the newsletter as it is now to one member of staff (any number of times). */
export async function queueTestSend(
  db: Database,
  input: { newsletterId: string; recipient: string },
): Promise<{ ok: true } | { ok: false; reason: "not-found" }> {
  void db;
  void input;
  throw new Error("not built yet");
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
  void db;
  void ids;
  throw new Error("not built yet");
}
