import * as z from "zod/mini";
import { serviceValues } from "../site.ts";
import { contactFieldLimits } from "./contact-limits.ts";
import { emailField, noControlCharacters, requiredText, singleLine } from "./text-field.ts";

// The contact-submission insert shape (SPEC sections 3 and 5), used by the browser form and by
// the server. zod/mini keeps the browser bundle small.

export { contactFieldLimits } from "./contact-limits.ts";
export { type FieldErrors, fieldErrorsFrom } from "./field-errors.ts";

export const contactSubmissionSchema = z.object({
  firstName: requiredText("First name", contactFieldLimits.firstName),
  lastName: requiredText("Last name", contactFieldLimits.lastName),
  email: emailField("Email", contactFieldLimits.email),
  company: z.optional(
    z.nullable(
      z
        .string({ error: "Company must be text" })
        .check(
          z.trim(),
          z.maxLength(contactFieldLimits.company, `Company must be at most ${contactFieldLimits.company} characters`),
          noControlCharacters("Company"),
          singleLine("Company"),
        ),
    ),
  ),
  service: z.optional(
    z.nullable(
      z.union([z.literal(""), z.enum(serviceValues)], {
        error: "Service must be one of the listed services",
      }),
    ),
  ),
  message: requiredText("Project details", contactFieldLimits.message, { multiline: true }),
});

export type ContactSubmissionInput = z.input<typeof contactSubmissionSchema>;
export type ContactSubmissionData = z.output<typeof contactSubmissionSchema>;
