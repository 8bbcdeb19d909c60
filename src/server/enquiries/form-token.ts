import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { FormFields } from "#shared/api-types.ts";
import { MIN_FORM_FILL_MS } from "#shared/schemas/contact-limits.ts";

// A form carries the moment the server rendered it, signed, so the server can tell a person
// (who takes a few seconds at least) from a script that posts at once. A token is good for one
// enquiry (the idempotency key it was first used with: a resend of that enquiry is not a second
// use) and is honoured for FORM_TOKEN_LIFETIME_MS. An older one counts as no token at all, which
// is not spam (docs/decisions/010): a visitor may leave the page open overnight, and the browser
// outbox may resend days later. So a record of a used token is needed only for the lifetime.
// See docs/decisions/019-single-use-form-tokens-and-bounded-spam.md.

/** How long a token is honoured: past this it counts as missing, and its used-token record is pruned. */
export const FORM_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The signature over the moment and the nonce; tokens of the previous version had no nonce. */
function sign(secret: string, issuedAt: number, nonce: string | undefined): string {
  const what = nonce === undefined ? `form:${issuedAt}` : `form:${issuedAt}:${nonce}`;
  return createHmac("sha256", secret).update(what).digest("base64url");
}

/** `<issued at, ms>.<nonce>.<signature>`: the nonce makes two pages shown in the same millisecond differ. */
export function issueFormToken(secret: string, now: number = Date.now()): string {
  const nonce = randomBytes(12).toString("base64url");
  return `${now}.${nonce}.${sign(secret, now, nonce)}`;
}

export function issueFormFields(secret: string): FormFields {
  return { token: issueFormToken(secret), idempotencyKey: randomUUID() };
}

export type FormTokenVerdict = "ok" | "missing" | "expired" | "invalid" | "too-fast";

/** What a post's token says; a genuine one (ok or too fast) also names itself, to be recorded as used. */
export type FormTokenCheck = { verdict: FormTokenVerdict; token?: { signature: string; issuedAt: Date } };

export function checkFormToken(secret: string, token: unknown, now: number = Date.now()): FormTokenCheck {
  if (typeof token !== "string" || token === "") return { verdict: "missing" };
  const match = /^(\d{13})(?:\.([A-Za-z0-9_-]{16}))?\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { verdict: "invalid" };
  const issuedAt = Number(match[1]);
  const signature = match[3] ?? "";
  const expected = Buffer.from(sign(secret, issuedAt, match[2]));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { verdict: "invalid" };
  if (issuedAt > now + 60_000) return { verdict: "invalid" };
  if (now - issuedAt > FORM_TOKEN_LIFETIME_MS) return { verdict: "expired" };
  const verdict = now - issuedAt < MIN_FORM_FILL_MS ? "too-fast" : "ok";
  return { verdict, token: { signature, issuedAt: new Date(issuedAt) } };
}
