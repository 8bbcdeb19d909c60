import { randomUUID } from "node:crypto";
import type { ContactSubmission } from "#shared/api-types.ts";
import type { StoredEnquiry } from "#server/db/contact-repository.ts";
import { issueFormToken } from "#server/enquiries/form-token.ts";

export const TEST_FORM_SECRET = "test-form-secret-0123456789";

/** A form token as a page rendered `ageMs` ago would carry it. */
export function formTokenIssued(ageMs = 10_000): string {
  return issueFormToken(TEST_FORM_SECRET, Date.now() - ageMs);
}

export function enquiry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: "Asha",
    lastName: "Patel",
    email: "asha.patel@example.com",
    company: "Kutch Solar Park Pvt Ltd",
    service: "grid-integration",
    message: "We need a grid connectivity study for a 120 MW solar plant at a 220 kV substation.",
    formToken: formTokenIssued(),
    idempotencyKey: randomUUID(),
    ...overrides,
  };
}

export function formBody(fields: Record<string, unknown>): string {
  return new URLSearchParams(
    Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  ).toString();
}

/** The enquiry a storeEnquiry call created (or found): fails the test when the call stored none. */
export function storedSubmission(stored: StoredEnquiry): ContactSubmission {
  if (stored.outcome === "spam-counted") throw new Error("the enquiry was counted as spam, not stored");
  return stored.submission;
}
