import { z } from "zod";
import { hasControlCharacters, lineBreakOrTab, normaliseLineBreaks } from "#shared/schemas/text-rules.ts";

// A text field of a content file, by the studio's rules: read by every kind's file loader
// (load-content.ts, testimonial-files.ts).

/** A text field of a content file: trimmed, not empty, at most `max` characters, on one line unless `multiline`. */
export const contentFileText = (max: number, options: { multiline?: boolean } = {}) =>
  z
    .string({ error: "must be text" })
    .transform((value) => (options.multiline ? normaliseLineBreaks(value) : value).trim())
    .pipe(
      z
        .string()
        .min(1, "must not be empty")
        .max(max, `must be at most ${max} characters`)
        .refine((value) => !hasControlCharacters(value), "must not contain control characters")
        .refine((value) => options.multiline || !lineBreakOrTab.test(value), "must be a single line of text"),
    );
