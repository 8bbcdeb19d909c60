import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import type { FormFields } from "#shared/api-types.ts";
import { MIN_FORM_FILL_MS } from "#shared/schemas/contact-limits.ts";

// A form carries the moment the server rendered it, signed, so the server can tell a person
// (who takes a few seconds at least) from a script that posts at once. Old tokens stay valid:
// a visitor may take an hour, and the browser outbox may resend days later.

function sign(secret: string, issuedAt: number): string {
  return createHmac("sha256", secret).update(`form:${issuedAt}`).digest("base64url");
}

export function issueFormToken(secret: string, now: number = Date.now()): string {
  return `${now}.${sign(secret, now)}`;
}

export function issueFormFields(secret: string): FormFields {
  return { token: issueFormToken(secret), idempotencyKey: randomUUID() };
}

export type FormTokenVerdict = "ok" | "missing" | "invalid" | "too-fast";

export function checkFormToken(secret: string, token: unknown, now: number = Date.now()): FormTokenVerdict {
  if (typeof token !== "string" || token === "") return "missing";
  const match = /^(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return "invalid";
  const issuedAt = Number(match[1]);
  const expected = Buffer.from(sign(secret, issuedAt));
  const given = Buffer.from(match[2] ?? "");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  if (issuedAt > now + 60_000) return "invalid";
  return now - issuedAt < MIN_FORM_FILL_MS ? "too-fast" : "ok";
}
