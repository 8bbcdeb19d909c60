// An email address, one rule for every form of the site and the back office (the contact form,
// the newsletter, staff invitations, sign-in links, erasure): at most 254 characters (RFC 5321's
// path limit), no control characters, and the shape zod checks (emailField, in text-field.ts:
// this module stays free of zod, since the newsletter box's script imports it). Stored
// lower-cased where an address identifies someone (staff, subscribers).

export const EMAIL_MAX = 254;

/** Something@something.tld, without spaces: the browser's quick check before the server's full one. */
export function isPlausibleEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** The same address however it was typed: trimmed and lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
