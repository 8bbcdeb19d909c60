import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { mailOutbox } from "../db/schema.ts";
import { redactPersonalData } from "../plugins/request-logging.ts";

// What the enquiry outbox worker and the newsletter sender share about one outbox row's attempt
// (docs/decisions/018-the-mail-outbox.md, 045-newsletter-sending.md): renewing the row's claim
// just before sending it, and what a failed send means.

/**
 * Renews this worker's claim on one pending row; false when the row is no longer its own (a slow
 * batch can outlast its lease, and another instance may have taken the row since).
 */
export async function renewClaim(db: Database, rowId: string, owner: string, leaseMs: number): Promise<boolean> {
  const renewed = await db
    .update(mailOutbox)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(and(eq(mailOutbox.id, rowId), eq(mailOutbox.leaseOwner, owner), eq(mailOutbox.status, "pending")))
    .returning({ id: mailOutbox.id });
  return renewed.length > 0;
}

export type RetryPolicy = { maxAttempts: number; retryBaseMs: number; retryMaxMs: number };

export type SendFailure = {
  /** The error's text, redacted. */
  reason: string;
  /** The SMTP server's answer code, when it answered (nodemailer puts it on the error). */
  responseCode: unknown;
  /** Refused for good: a 5xx answer. */
  rejected: boolean;
} & ({ givenUp: true; lastError: string } | { givenUp: false; retryInMs: number });

/** A 5xx answer or the last attempt gives the row up; anything else is retried with backoff. */
export function sendFailure(error: unknown, attempts: number, policy: RetryPolicy): SendFailure {
  const reason = redactPersonalData((error as Error).message ?? String(error));
  const responseCode = (error as { responseCode?: unknown }).responseCode;
  const rejected = typeof responseCode === "number" && responseCode >= 500 && responseCode < 600;
  if (rejected || attempts >= policy.maxAttempts) {
    const lastError = rejected
      ? `rejected by the SMTP server: ${reason}`
      : `gave up after ${attempts} attempts: ${reason}`;
    return { reason, responseCode, rejected, givenUp: true, lastError };
  }
  const retryInMs = Math.min(policy.retryBaseMs * 2 ** (attempts - 1), policy.retryMaxMs);
  return { reason, responseCode, rejected, givenUp: false, retryInMs };
}
