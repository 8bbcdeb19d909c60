import { lt, sql } from "drizzle-orm";
import { retention } from "#shared/retention.ts";
import type { ContactSubmissionData } from "#shared/schemas/contact-submission.ts";
import { type Database, queryRows } from "../db/client.ts";
import { spamTally, usedFormTokens } from "../db/schema.ts";
import { FORM_TOKEN_LIFETIME_MS } from "./form-token.ts";

// Bounds on what spam may cost: each stored spam is shortened, at most SPAM_STORED_PER_HOUR are
// stored in an hour (over all clients and instances), and the rest are only counted. See
// docs/decisions/019-single-use-form-tokens-and-bounded-spam.md.

/** Spam stored in one hour; more is counted in spam_tally, not stored. */
export const SPAM_STORED_PER_HOUR = 100;
/** Characters of a spam message kept (the other fields are short already). */
export const SPAM_MESSAGE_CHARACTERS = 500;
/** Characters kept of each other text field of a spam post, but the email address. */
export const SPAM_FIELD_CHARACTERS = 100;

/** A database or a transaction: the statements here run inside the enquiry's transaction. */
type Executor = Pick<Database, "execute">;

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The enquiry as spam is stored: each field cut to a bounded length, but the email address, kept
 * whole (the form allows 254 characters): erasure finds an enquiry by its whole address.
 */
export function shortenedSpam(data: ContactSubmissionData): ContactSubmissionData {
  return {
    ...data,
    firstName: shorten(data.firstName, SPAM_FIELD_CHARACTERS),
    lastName: shorten(data.lastName, SPAM_FIELD_CHARACTERS),
    company: data.company ? shorten(data.company, SPAM_FIELD_CHARACTERS) : data.company,
    message: shorten(data.message, SPAM_MESSAGE_CHARACTERS),
  };
}

/**
 * Counts one spam in this hour's tally and says whether it may be stored (fewer than the cap
 * stored so far this hour). One statement under the row's lock, so instances never overshoot.
 */
export async function countSpam(db: Executor, capPerHour: number = SPAM_STORED_PER_HOUR): Promise<{ store: boolean }> {
  const [row] = await queryRows<{ store: boolean }>(
    db as Database,
    sql`insert into spam_tally as t (hour, stored, dropped, last_stored)
        values (date_trunc('hour', now()), 1, 0, true)
        on conflict (hour) do update set
          stored = t.stored + (t.stored < ${capPerHour}::int)::int,
          dropped = t.dropped + (t.stored >= ${capPerHour}::int)::int,
          last_stored = t.stored < ${capPerHour}::int
        returning last_stored as store`,
  );
  return { store: row?.store ?? true };
}

/**
 * Records that a form token was used by the enquiry with this idempotency key. Returns the key
 * that used it first: this one, or another (the token is being used a second time).
 */
export async function useFormToken(
  db: Executor,
  token: { signature: string; issuedAt: Date },
  idempotencyKey: string,
): Promise<string> {
  const inserted = await queryRows<{ idempotency_key: string }>(
    db as Database,
    sql`insert into used_form_tokens (signature, idempotency_key, issued_at)
        values (${token.signature}, ${idempotencyKey}, ${token.issuedAt.toISOString()})
        on conflict (signature) do nothing
        returning idempotency_key`,
  );
  if (inserted.length) return idempotencyKey;
  // A statement of its own: it sees a record committed by another instance while the insert waited.
  const [first] = await queryRows<{ idempotency_key: string }>(
    db as Database,
    sql`select idempotency_key from used_form_tokens where signature = ${token.signature}`,
  );
  return first?.idempotency_key ?? idempotencyKey;
}

/** Spam not stored (over the hourly cap) in the last `days` days. */
export async function spamNotStored(db: Database, days: number = retention.spamDays): Promise<number> {
  const [row] = await queryRows<{ dropped: number }>(
    db,
    sql`select coalesce(sum(dropped), 0)::int as dropped from spam_tally where hour > now() - ${days}::int * interval '1 day'`,
  );
  return row?.dropped ?? 0;
}

/** Drops used-token records whose tokens are past their lifetime, and tallies past spam retention. */
export async function pruneSpamRecords(db: Database): Promise<void> {
  // An hour's margin beyond the lifetime: instances' clocks and the database's may differ a little.
  const tokenCutoff = new Date(Date.now() - FORM_TOKEN_LIFETIME_MS - 60 * 60 * 1000);
  await db.delete(usedFormTokens).where(lt(usedFormTokens.issuedAt, tokenCutoff));
  await db.delete(spamTally).where(lt(spamTally.hour, sql`now() - ${retention.spamDays}::int * interval '1 day'`));
}
