import * as z from "zod/mini";
import { IMAGE_PATH_PATTERN } from "../../content/documents.ts";
import { UUID_PATTERN } from "../../schemas/identifiers.ts";
import { optionalText, queryField, revisionIdField } from "../form-fields.ts";
import type { FieldDefinition, OrderedKindDefinition } from "./kind.ts";

// The forms of an ordered kind, drawn from its definition (kind.ts): each field checked by its
// control and its limit, every problem naming the field's label. A save may leave a field empty
// (the item is not published, or the checklist refuses Publish): what publishing needs is the
// kind's checklist (its blockers), not the form's. The team keeps its own field rules (schemas.ts)
// and shares the list's forms (orderedListForms).

/** The most items an ordered kind's order may list. */
export const ORDERED_LIST_MAX = 1000;

/** A calendar day that exists, YYYY-MM-DD, or "". */
function isDay(value: string): boolean {
  const parsed = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!parsed) return false;
  const day = new Date(Date.UTC(Number(parsed[1]), Number(parsed[2]) - 1, Number(parsed[3])));
  return day.toISOString().slice(0, 10) === value;
}

/** The ticked boxes of a "choices" field: none, one (a string) or several (an array), each one of its choices once. */
function choicesField(field: FieldDefinition) {
  const allowed = (field.choices ?? []).map((choice) => choice.value);
  const problem = `${field.label} must be chosen from its list`;
  return z._default(
    z.pipe(
      z.pipe(
        z.union([z.string(), z.array(z.string())], { error: problem }),
        z.transform((value: string | string[]) => (typeof value === "string" ? [value] : value)),
      ),
      z.array(z.string()).check(
        z.maxLength(allowed.length, problem),
        z.refine((values) => values.every((value) => allowed.includes(value)), problem),
        z.refine((values) => new Set(values).size === values.length, `${field.label} names one choice twice`),
      ),
    ),
    [],
  );
}

/** A field's rule, by its control. A text field without a limit of its own takes 300 characters. */
function fieldSchema(field: FieldDefinition) {
  const { label } = field;
  switch (field.control) {
    case "checkbox":
      // A ticked box sends "true" (or the browser's "on"); an unticked one sends nothing.
      return z._default(
        z.pipe(
          z.enum(["true", "on", "false", ""], { error: `${label} must be ticked or not` }),
          z.transform((value: "true" | "on" | "false" | "") => (value === "true" || value === "on" ? "true" : "")),
        ),
        "",
      );
    case "choices":
      return choicesField(field);
    case "date":
      return z._default(
        z.string({ error: `${label} must be a date like 2026-11-30` }).check(
          z.trim(),
          z.refine((value) => value === "" || isDay(value), `${label} must be a date that exists, like 2026-11-30`),
        ),
        "",
      );
    case "picture":
      return optionalText(label, 300, {
        pattern: IMAGE_PATH_PATTERN,
        problem: `${label} must be one of the pictures of the media library`,
      });
    case "select":
      return optionalText(label, 36, { pattern: UUID_PATTERN, problem: `${label} must be chosen from its list` });
    case "textarea":
    case "markdown":
      return optionalText(label, field.limit ?? 5000, { multiline: true });
    default:
      return optionalText(label, field.limit ?? 300);
  }
}

/** The fields of a kind's form, each by its rule. */
function fieldsSchema(fields: Readonly<Record<string, FieldDefinition>>) {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, fieldSchema(field)]));
}

/** The value a field's form holds: text, or the ticked choices. */
export type DrawnFieldValue = string | string[];

/**
 * Show, Hide, Move to trash and Restore (the revision the page showed, and which page to go back
 * to), Move up / Move down, the order after dragging (JSON) and the list's query, in the kind's words.
 */
export function orderedListForms(words: { noun: string; everyOne: string }) {
  const orderProblem = `The order must list ${words.everyOne} once, by id.`;
  return {
    action: z.object({
      baseRevisionId: revisionIdField,
      back: z._default(z.enum(["list", "member"], { error: "`back` must be list or member." }), "member"),
    }),
    move: z.object({
      direction: z.enum(["up", "down"], { error: `Choose to move the ${words.noun} up or down.` }),
    }),
    order: z.object({
      order: z
        .array(z.string({ error: orderProblem }).check(z.regex(UUID_PATTERN, orderProblem)), { error: orderProblem })
        .check(
          z.minLength(1, orderProblem),
          z.maxLength(ORDERED_LIST_MAX, orderProblem),
          z.refine(
            (ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length,
            `The order names a ${words.noun} twice.`,
          ),
        ),
    }),
    list: z.object({
      focus: queryField(
        "focus",
        (value) => /^(?:up|down)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value),
        `\`focus\` must be up-<${words.noun} id> or down-<${words.noun} id>.`,
      ),
    }),
  };
}

/** Every form of an ordered kind whose pages are drawn from its definition. */
export function drawnKindForms(kind: OrderedKindDefinition) {
  const fields = fieldsSchema(kind.fields);
  return {
    create: z.object({
      ...fields,
      visibility: z.enum(["shown", "hidden"], {
        error: `Choose whether the ${kind.noun} is published at once or not.`,
      }),
    }),
    save: z.object({ ...fields, baseRevisionId: revisionIdField }),
    ...orderedListForms({ noun: kind.noun, everyOne: `every ${kind.noun} of the list` }),
  };
}
