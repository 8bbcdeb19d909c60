import * as z from "zod/mini";
import {
  controlCharactersMessage,
  hasControlCharacters,
  lineBreakOrTab,
  normaliseLineBreaks,
  singleLineMessage,
} from "./text-rules.ts";
import { EMAIL_MAX } from "./email.ts";

// The checks of a text field, for every form's zod schema (the public forms and the back
// office's): each message names the field's label, in words a person can act on.

/** Refuses control characters (tab, line feed and carriage return excepted): see text-rules.ts. */
export const noControlCharacters = (label: string) =>
  z.refine<string>((value) => !hasControlCharacters(value), controlCharactersMessage(label));

export const singleLine = (label: string) =>
  z.refine<string>((value) => !lineBreakOrTab.test(value), singleLineMessage(label));

/** A required text of at most `max` characters: one line unless `multiline` (then LF line ends). */
export function requiredText(label: string, max: number, options: { multiline?: boolean } = {}) {
  return z
    .string({ error: (issue) => (issue.input == null ? `${label} is required` : `${label} must be text`) })
    .check(
      z.trim(),
      ...(options.multiline ? [z.overwrite<string>(normaliseLineBreaks)] : []),
      z.minLength(1, `${label} is required`),
      z.maxLength(max, `${label} must be at most ${max} characters`),
      noControlCharacters(label),
      ...(options.multiline ? [] : [singleLine(label)]),
    );
}

/** A required email field, its messages naming `label`. */
export function emailField(label = "Email", max = EMAIL_MAX) {
  return z
    .string({ error: (issue) => (issue.input == null ? `${label} is required` : `${label} must be text`) })
    .check(
      z.trim(),
      z.minLength(1, `${label} is required`),
      z.maxLength(max, `${label} must be at most ${max} characters`),
      noControlCharacters(label),
      z.email("Enter a valid email address"),
    );
}
