// Rules every text a visitor sends must keep, shared by the browser's validation and the server's.
// No zod here: the site's shared chunk may import this module, and zod loads only with a form's
// schema (contact-submission.ts, newsletter-signup.ts build their checks from these rules).

/**
 * Control characters other than tab, line feed and carriage return (C0, DEL and C1). None has a
 * place in a name, an address or a message, and some break things downstream: PostgreSQL refuses
 * NUL in text, and ESC or the C1 controls can drive the terminal that shows an export.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export function hasControlCharacters(value: string): boolean {
  return controlCharacter.test(value);
}

const controlCharacters = new RegExp(controlCharacter.source, "g");

/** The value with its control characters left out (tab, line feed and carriage return kept), in one pass. */
export function withoutControlCharacters(value: string): string {
  return value.replace(controlCharacters, "");
}

export function controlCharactersMessage(label: string): string {
  return `${label} must not contain control characters`;
}

/** A line break or tab: names and company travel into mail headers and must stay on one line. */
export const lineBreakOrTab = /[\t\n\r\u2028\u2029]/;

export function singleLineMessage(label: string): string {
  return `${label} must be a single line of text`;
}

/** Browsers send a textarea's line breaks as CR LF; stored text has LF alone. */
export function normaliseLineBreaks(value: string): string {
  return value.replace(/\r\n?/g, "\n");
}

/**
 * The fields a form carries besides the visitor's own (its name, the honeypot, the signed token
 * and the idempotency key): each, when it is text, must be free of control characters too. Returns
 * each offending field and why, as the schemas' errors do.
 */
export function controlCharacterFields(
  body: Record<string, unknown>,
  fields: readonly string[],
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const value = body[field];
    if (typeof value === "string" && hasControlCharacters(value)) problems[field] = controlCharactersMessage(field);
  }
  return problems;
}

/** The hidden fields of the site's forms. */
export const hiddenFormFields = ["form-name", "bot-field", "formToken", "idempotencyKey", "noticeVersion"] as const;
