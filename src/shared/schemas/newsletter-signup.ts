import * as z from "zod/mini";
import { controlCharactersMessage, hasControlCharacters } from "./text-rules.ts";

export const newsletterSignupSchema = z.object({
  email: z.string({ error: (issue) => (issue.input == null ? "Email is required" : "Email must be text") }).check(
    z.trim(),
    z.minLength(1, "Email is required"),
    z.maxLength(254, "Email must be at most 254 characters"),
    z.refine<string>((value) => !hasControlCharacters(value), controlCharactersMessage("Email")),
    z.email("Enter a valid email address"),
  ),
});

export type NewsletterSignupInput = z.input<typeof newsletterSignupSchema>;
