import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isUuid } from "#shared/schemas/identifiers.ts";

// The newsletter's links (docs/decisions/044-newsletter-double-opt-in.md):
// - a confirmation link holds a random token, of which the database keeps only the SHA-256: it
//   works once, for CONFIRMATION_LINK_HOURS;
// - an unsubscribe link holds the subscriber's id signed with the site's secret: it works for as
//   long as the subscription exists, needs nothing stored, and cannot be made for another address.

/** How long a confirmation link works. */
export const CONFIRMATION_LINK_HOURS = 48;
/** Unconfirmed addresses are deleted this long after they last changed. */
export const PENDING_SUBSCRIPTION_DAYS = 7;
/** At most one confirmation mail per address in this many hours. */
export const CONFIRMATION_MAIL_INTERVAL_HOURS = 24;

/** The unsubscribe token of a test send (to a member of staff): its page says there is nothing to stop. */
export const TEST_UNSUBSCRIBE_TOKEN = "test";

export const newsletterPaths = {
  confirm: (token: string) => `/newsletter/confirm/${token}`,
  unsubscribe: (token: string) => `/newsletter/unsubscribe/${token}`,
} as const;

/** A new confirmation token (43 URL-safe characters) and the hash the database keeps of it. */
export function newConfirmationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether a string has the shape of a confirmation token (checked before any database work). */
export function isConfirmationToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

function signature(secret: string, subscriberId: string): Buffer {
  return createHmac("sha256", secret).update(`newsletter-unsubscribe:${subscriberId.toLowerCase()}`).digest();
}

/** `<subscriber id>.<signature>`: the token of every unsubscribe link to this subscriber. */
export function unsubscribeToken(secret: string, subscriberId: string): string {
  return `${subscriberId.toLowerCase()}.${signature(secret, subscriberId).toString("base64url")}`;
}

/** The subscriber an unsubscribe token was made for, or undefined when it is not one of ours. */
export function subscriberOfUnsubscribeToken(secret: string, token: string): string | undefined {
  const match = /^([0-9a-fA-F-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match || !isUuid(match[1]!)) return undefined;
  const given = Buffer.from(match[2]!, "base64url");
  const expected = signature(secret, match[1]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? match[1]!.toLowerCase() : undefined;
}

/** The mailto: of List-Unsubscribe: a message to `address` whose subject names the token. */
export function unsubscribeMailto(address: string, token: string): string {
  return `mailto:${address}?subject=${encodeURIComponent(`unsubscribe ${token}`)}`;
}
