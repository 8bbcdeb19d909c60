import * as z from "zod/mini";
import { controlCharactersMessage, hasControlCharacters } from "./text-rules.ts";

// An email address, one rule for every form of the site and the back office (the contact form,
// the newsletter, staff invitations, sign-in links, erasure): at most 254 characters (RFC 5321's
// path limit), no control characters, and the shape zod checks. Stored lower-cased where an
// address identifies someone (staff, subscribers).

export const EMAIL_MAX = 254;

/** Something@something.tld, without spaces: the browser's quick check before the server's full one. */
export function isPlausibleEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** The same address however it was typed: trimmed and lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** A required email field, its messages naming `label`. */
export function emailField(label = "Email", max = EMAIL_MAX) {
  return z.string({ error: (issue) => (issue.input == null ? `${label} is required` : `${label} must be text`) }).check(
    z.trim(),
    z.minLength(1, `${label} is required`),
    z.maxLength(max, `${label} must be at most ${max} characters`),
    z.refine<string>((value) => !hasControlCharacters(value), controlCharactersMessage(label)),
    z.email("Enter a valid email address"),
  );
}
