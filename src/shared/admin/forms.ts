import type * as z from "zod/mini";
import { type FieldErrors, fieldErrorsFrom } from "../schemas/field-errors.ts";
import { withoutControlCharacters } from "../schemas/text-rules.ts";

// The back office's form kit, shared by the server and the pages: every form has a zod schema in
// src/shared/admin/ (schemas.ts), the server parses a post with parseForm, and a refused post
// renders the same page again with `form`: what was typed (every field, so nothing is lost) and
// the first problem of each field, in words, shown at the field by the page's <Field>.

/** What a page shows in a form after a refused post: the values typed, and each field's problem. */
export type FormState = { values: Record<string, string>; errors: FieldErrors };

export type ParsedForm<Output> = { ok: true; data: Output } | { ok: false; form: FormState };

/** The longest value kept to show again, and without control characters: they have no place in a page. */
const SHOWN_MAX = 100_000;
const shown = (value: string) => withoutControlCharacters(value.slice(0, SHOWN_MAX));

/** The string fields of a body (a form post or a JSON object), each once. */
export function formValues(body: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  if (typeof body !== "object" || body === null) return values;
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string") values[key] = shown(value);
  }
  return values;
}

/** Parses a posted body with a form's schema: the data, or what to show again with its problems. */
export function parseForm<Schema extends z.ZodMiniType>(schema: Schema, body: unknown): ParsedForm<z.output<Schema>> {
  const result = schema.safeParse(typeof body === "object" && body !== null ? body : {});
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, form: { values: formValues(body), errors: fieldErrorsFrom(result.error.issues) } };
}

/**
 * The first problem of a refused form, for an answer that has no page to show it at its field
 * (a filter, a JSON route, a refusal page): `fallback` when no field names one.
 */
export function firstProblem(form: FormState, fallback: string): string {
  return Object.values(form.errors).find(Boolean) ?? fallback;
}

/** A form state that shows one problem at one field (a check the schema cannot make, like "already used"). */
export function formProblem(body: unknown, field: string, message: string): FormState {
  return { values: formValues(body), errors: { [field]: message } };
}
