import * as z from "zod/mini";
import { markdownHeadingsProblem, markdownNestingProblem } from "../content/markdown-rules.ts";
import { noControlCharacters, singleLine } from "../schemas/text-field.ts";
import { hasControlCharacters, normaliseLineBreaks } from "../schemas/text-rules.ts";

// Fields many back-office forms share (schemas.ts, and the forms drawn from a kind's definition in
// collections/forms.ts): an optional text, a query-string field, the revision a form was made from.

/** An optional text of at most `max` characters: "" when left empty. */
export function optionalText(
  label: string,
  max: number,
  options: { multiline?: boolean; pattern?: RegExp; problem?: string; markdown?: boolean } = {},
) {
  return z._default(
    z.string({ error: `${label} must be text` }).check(
      z.trim(),
      ...(options.multiline ? [z.overwrite<string>(normaliseLineBreaks)] : []),
      z.maxLength(max, `${label} must be at most ${max} characters`),
      noControlCharacters(label),
      ...(options.multiline ? [] : [singleLine(label)]),
      ...(options.markdown
        ? [
            z.refine<string>((value) => markdownNestingProblem(label, value) === undefined, {
              error: (issue) => markdownNestingProblem(label, String(issue.input)),
            }),
            z.refine<string>((value) => markdownHeadingsProblem(label, value) === undefined, {
              error: (issue) => markdownHeadingsProblem(label, String(issue.input)),
            }),
          ]
        : []),
      ...(options.pattern
        ? [
            z.refine<string>(
              (value) => value === "" || options.pattern!.test(value),
              options.problem ?? `${label} is not valid`,
            ),
          ]
        : []),
    ),
    "",
  );
}

/**
 * A query-string field: given at most once, trimmed, "" when absent, held to `rule`, and free of
 * control characters (PostgreSQL refuses a NUL in text, which answered 500). The field's own
 * `problem` comes first, since it says what the field takes; a free-text field that its rule lets
 * through is told about the control character.
 */
export const queryField = (name: string, rule: (value: string) => boolean, problem: string) =>
  z._default(
    z.string({ error: `Give ${name} once.` }).check(
      z.trim(),
      z.refine((value) => value === "" || rule(value), { error: problem, abort: true }),
      z.refine((value) => !hasControlCharacters(value), {
        error: `${name === "q" ? "Search" : `${name[0]!.toUpperCase()}${name.slice(1)}`} must not contain control characters.`,
      }),
    ),
    "",
  );

/** The revision a form was made from: a save based on an older one is refused (decision 038, section 4). */
export const revisionIdField = z
  .string({ error: "The form did not say which revision it was made from: reload the page and try again." })
  .check(
    z.regex(/^[1-9]\d{0,14}$/, "The form did not say which revision it was made from: reload the page and try again."),
  );
