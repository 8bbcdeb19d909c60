import type { FormFields } from "#shared/api-types.ts";
import { issueFormFields } from "../enquiries/form-token.ts";

// A page with a form is rendered once and kept like any other, with placeholders where the
// form's per-request fields go; each answer gets fresh ones (a signed token and an idempotency key).

/**
 * Stand for a form's per-request fields in a cached page; every response gets fresh ones. The
 * idempotency key is new for every page shown, so a form without JavaScript sent twice (a double
 * click, a resend after an error) is stored once.
 */
export const FORM_FIELD_PLACEHOLDERS: FormFields = {
  token: "__FORM_TOKEN_8d1f3c__",
  idempotencyKey: "__IDEMPOTENCY_KEY_5b7e2a__",
};

/** Whether a page rendered with the placeholders has a form whose fields need filling in. */
export function hasFormFields(html: string): boolean {
  return html.includes(FORM_FIELD_PLACEHOLDERS.token);
}

/** The page with fresh form fields in place of the placeholders; undefined when it has no form. */
export function fillFormFields(html: string, secret: string): string | undefined {
  if (!hasFormFields(html)) return undefined;
  const fields = issueFormFields(secret);
  return html
    .replaceAll(FORM_FIELD_PLACEHOLDERS.token, fields.token)
    .replaceAll(FORM_FIELD_PLACEHOLDERS.idempotencyKey, fields.idempotencyKey);
}
