import { PERMISSION_USE_LABELS, PERMISSION_USES, TESTIMONIAL_LIMITS } from "../../content/testimonials.ts";

// The client's permission, the same four fields in every kind that quotes or shows a client
// (testimonials, client logos): who gave it, when, for what, and when to ask again
// (docs/decisions/061-testimonials-and-client-logos.md).

const group = "The client's permission";

export const PERMISSION_FIELDS = {
  permissionBy: {
    label: "Permission given by",
    control: "text",
    limit: TESTIMONIAL_LIMITS.permissionBy,
    hint: "Who approved it, and how: “Anita Shah, Head of Projects, by email”.",
    group,
  },
  permissionOn: { label: "Given on", control: "date", group },
  permissionUses: {
    label: "Permission covers",
    control: "choices",
    choices: PERMISSION_USES.map((value) => ({ value, label: PERMISSION_USE_LABELS[value] })),
    hint: "Only what covers “This website” is shown on the site.",
    group,
  },
  permissionReview: {
    label: "Review on",
    control: "date",
    hint: "When to ask the client again. Admins get a mail each month listing those past this date.",
    group,
  },
} as const;
