import * as z from "zod/mini";
import { emailField } from "./text-field.ts";

export const newsletterSignupSchema = z.object({ email: emailField("Email") });

export type NewsletterSignupInput = z.input<typeof newsletterSignupSchema>;
