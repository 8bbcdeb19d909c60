import * as z from "zod/mini";
import { ENQUIRY_STATUSES, isEnquiryStatus, statusLabels } from "../inbox.ts";
import { parseIndiaDate } from "../india-time.ts";
import { serviceValues } from "../site.ts";
import { hasControlCharacters } from "../schemas/text-rules.ts";
import { emailField } from "../schemas/text-field.ts";
import { EMAIL_MAX } from "../schemas/email.ts";
import { UUID_PATTERN } from "../schemas/identifiers.ts";
import { requiredText } from "../schemas/text-field.ts";

// One zod schema per back-office form, read by the server (parseForm in forms.ts) and available to
// the pages: the same rules in both places, each problem in words at its field.

export const STAFF_ROLES = ["admin", "staff"] as const;
export const NOTE_MAX = 5000;

const role = z.enum(STAFF_ROLES, { error: "Choose a role: admin or staff." });
const optionalText = z.optional(z.string());

/** "Email me a sign-in link" on the sign-in page. */
export const signInEmailForm = z.object({ email: emailField("Email address"), next: optionalText });

/** Inviting someone on the Staff page. */
export const staffInviteForm = z.object({
  name: requiredText("Name", 100),
  email: emailField("Email address"),
  role: z._default(role, "staff"),
});

/** Changing a member's role on the Staff page. */
export const staffRoleForm = z.object({ role });

/** The version of an enquiry the form showed: a change to a newer one is refused (decision 028). */
const version = z
  .string({ error: "The form did not say which version of the enquiry it changes: reload the page and try again." })
  .check(
    z.regex(
      /^\d{1,9}$/,
      "The form did not say which version of the enquiry it changes: reload the page and try again.",
    ),
  );

const OWNER_PROBLEM = "Owner must be an active member of staff, or nobody.";

/** Status and owner of an enquiry. An empty owner is nobody. */
export const enquiryUpdateForm = z.object({
  version,
  status: z.optional(
    z.enum(ENQUIRY_STATUSES, {
      error: `Status must be one of ${ENQUIRY_STATUSES.map((value) => statusLabels[value]).join(", ")}.`,
    }),
  ),
  owner: z.optional(
    z
      .string({ error: OWNER_PROBLEM })
      .check(z.refine((value) => value === "" || UUID_PATTERN.test(value), OWNER_PROBLEM)),
  ),
});

/** A note on an enquiry. */
export const enquiryNoteForm = z.object({ note: requiredText("Note", NOTE_MAX, { multiline: true }) });

/** "Mark replied" and "Not spam": the version alone. */
export const enquiryVersionForm = z.object({ version });

/** Looking an address up for erasure (a POST, so the address is never in a URL). */
export const erasureLookupForm = z.object({ email: emailField("Email address") });

/** Erasing it: the address, and the same address again from the preview. */
export const erasureForm = z.object({ email: emailField("Email address"), confirm: optionalText });

/** Counting this browser in analytics, or not. */
export const analyticsExclusionForm = z.object({
  exclude: z.enum(["1", "0"], {
    error: "`exclude` must be 1 (stop counting this browser) or 0 (count it again).",
  }),
});

/** A query-string field: given at most once, trimmed, "" when absent, and held to `rule`. */
const queryField = (name: string, rule: (value: string) => boolean, problem: string) =>
  z._default(
    z.string({ error: `Give ${name} once.` }).check(
      z.trim(),
      z.refine((value) => value === "" || rule(value), problem),
    ),
    "",
  );

export const INBOX_SEARCH_MAX = 200;

/** The inbox's filter (a GET form: the filter lives in the URL, so a view can be bookmarked). */
export const inboxFilterForm = z.object({
  status: queryField(
    "status",
    (value) => value === "all" || isEnquiryStatus(value),
    `Status must be one of ${ENQUIRY_STATUSES.join(", ")} (or empty).`,
  ),
  owner: queryField(
    "owner",
    (value) => value === "none" || UUID_PATTERN.test(value),
    "Owner must be a member of staff or none.",
  ),
  service: queryField(
    "service",
    (value) => (serviceValues as readonly string[]).includes(value),
    `Service must be one of ${serviceValues.join(", ")} (or empty).`,
  ),
  from: queryField("from", (value) => parseIndiaDate(value) !== undefined, "From must be a date like 2026-11-23."),
  to: queryField("to", (value) => parseIndiaDate(value) !== undefined, "To must be a date like 2026-11-23."),
  q: queryField(
    "q",
    (value) => value.length <= INBOX_SEARCH_MAX && !hasControlCharacters(value),
    `Search must be one line of at most ${INBOX_SEARCH_MAX} characters.`,
  ),
});

/** The subscribers' search (a GET form). */
export const subscriberSearchForm = z.object({
  q: queryField(
    "q",
    (value) => value.length <= EMAIL_MAX && !hasControlCharacters(value),
    `Search must be one line of at most ${EMAIL_MAX} characters.`,
  ),
});

/** The audit log's filter (a GET form). An unknown action or person is left out, not refused. */
export const auditFilterForm = z.object({
  action: queryField("action", () => true, ""),
  actor: queryField("actor", () => true, ""),
  from: queryField("from", (value) => parseIndiaDate(value) !== undefined, "From must be a date like 2026-11-23."),
  to: queryField("to", (value) => parseIndiaDate(value) !== undefined, "To must be a date like 2026-11-23."),
});
