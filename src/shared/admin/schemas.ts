import * as z from "zod/mini";
import { ENQUIRY_STATUSES, isEnquiryStatus, statusLabels } from "../inbox.ts";
import { parseIndiaDate } from "../india-time.ts";
import { serviceValues } from "../site.ts";
import { hasControlCharacters } from "../schemas/text-rules.ts";
import { emailField } from "../schemas/text-field.ts";
import { EMAIL_MAX } from "../schemas/email.ts";
import { UUID_PATTERN } from "../schemas/identifiers.ts";
import { noControlCharacters, requiredText, singleLine } from "../schemas/text-field.ts";
import { normaliseLineBreaks } from "../schemas/text-rules.ts";
import {
  ARTICLE_STATUSES,
  CONTENT_LIMITS,
  IMAGE_PATH_PATTERN,
  isArticleStatus,
  SLUG_PATTERN,
} from "../content/documents.ts";

// One zod schema per back-office form, read by the server (parseForm in forms.ts) and available to
// the pages: the same rules in both places, each problem in words at its field.

export const STAFF_ROLES = ["admin", "staff"] as const;
export const NOTE_MAX = 5000;

const role = z.enum(STAFF_ROLES, { error: "Choose a role: admin or staff." });
const optionalString = z.optional(z.string());

/** "Email me a sign-in link" on the sign-in page. */
export const signInEmailForm = z.object({ email: emailField("Email address"), next: optionalString });

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
export const erasureForm = z.object({ email: emailField("Email address"), confirm: optionalString });

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

// The content studio (docs/decisions/038-the-database-holds-the-content.md). A draft may be
// incomplete: each field is checked as far as it is written, and the publish checklist
// (publishBlockers in src/shared/content/documents.ts) says what publishing needs besides.

/** An optional text of at most `max` characters: "" when left empty. */
function optionalText(
  label: string,
  max: number,
  options: { multiline?: boolean; pattern?: RegExp; problem?: string } = {},
) {
  return z._default(
    z
      .string({ error: `${label} must be text` })
      .check(
        z.trim(),
        ...(options.multiline ? [z.overwrite<string>(normaliseLineBreaks)] : []),
        z.maxLength(max, `${label} must be at most ${max} characters`),
        noControlCharacters(label),
        ...(options.multiline ? [] : [singleLine(label)]),
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

/** The revision a form was made from: a save based on an older one is refused (decision 038, section 4). */
export const revisionIdField = z
  .string({ error: "The form did not say which revision it was made from: reload the page and try again." })
  .check(
    z.regex(/^[1-9]\d{0,14}$/, "The form did not say which revision it was made from: reload the page and try again."),
  );

/** A publish date as a datetime-local field gives it, in India time: 2026-11-26T14:30. */
export const INDIA_DATETIME_PATTERN = /^(20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d)$/;

/** The editor's fields: what "Save draft", autosave, "Publish" and "Schedule" send. */
export const articleFields = {
  title: requiredText("Title", CONTENT_LIMITS.title),
  slug: optionalText("Slug", CONTENT_LIMITS.slug, {
    pattern: SLUG_PATTERN,
    problem: "Slug must be lower-case letters and digits joined by hyphens, like grid-code-compliance",
  }),
  excerpt: optionalText("Excerpt", CONTENT_LIMITS.excerpt, { multiline: true }),
  category: optionalText("Category", CONTENT_LIMITS.category),
  author: optionalText("Author", CONTENT_LIMITS.slug, {
    pattern: SLUG_PATTERN,
    problem: "Author must be a member of the team",
  }),
  imageUrl: optionalText("Cover image", 300, {
    pattern: IMAGE_PATH_PATTERN,
    problem: "Cover image must be one of the site's pictures, under /images/",
  }),
  imageAlt: optionalText("Alt text", CONTENT_LIMITS.imageAlt),
  publishedAt: optionalText("Publish date", 16, {
    pattern: INDIA_DATETIME_PATTERN,
    problem: "Publish date must be a date and time, like 2026-11-26T14:30",
  }),
  body: optionalText("Body", CONTENT_LIMITS.body, { multiline: true }),
};

/** "New article": the first save makes the article. */
export const articleCreateForm = z.object(articleFields);

/** A save of an article (the form, or autosave as JSON): the fields and the revision they were made from. */
export const articleSaveForm = z.object({ ...articleFields, baseRevisionId: revisionIdField });

/** "Publish" and "Schedule": the editor's fields (saved first when they differ) and what to do. */
export const articlePublishForm = z.object({
  ...articleFields,
  baseRevisionId: revisionIdField,
  when: z.enum(["now", "scheduled"], { error: "Choose to publish now or at the publish date." }),
});

/** Unpublish, trash, restore from the trash: the revision the page showed. */
export const articleActionForm = z.object({ baseRevisionId: revisionIdField });

/** The live preview: Markdown in, the article page's HTML out. */
export const markdownPreviewForm = z.object({ body: optionalText("Body", CONTENT_LIMITS.body, { multiline: true }) });

/** The articles list's search and status filter. */
export const articleFilterForm = z.object({
  q: queryField("q", (value) => value.length <= 200, "The search must be at most 200 characters."),
  status: queryField(
    "status",
    (value) => value === "all" || isArticleStatus(value),
    `Status must be one of ${ARTICLE_STATUSES.join(", ")} (or empty).`,
  ),
  page: queryField("page", (value) => /^[1-9]\d{0,5}$/.test(value), "Page must be a number from 1."),
});

/** Comparing two revisions: ?from=<revision id>&to=<revision id>. */
export const revisionCompareForm = z.object({
  from: queryField("from", (value) => /^[1-9]\d{0,14}$/.test(value), "From must be a revision."),
  to: queryField("to", (value) => /^[1-9]\d{0,14}$/.test(value), "To must be a revision."),
});

/** "Can publish" on the Staff page. */
export const staffCanPublishForm = z.object({
  canPublish: z.enum(["true", "false"], { error: "Say whether this person can publish." }),
});

// The media library (docs/decisions/040-the-media-library.md).

export const MEDIA_ALT_PROBLEM =
  "Write the alt text (what the picture shows, for those who cannot see it), or tick Decorative if it adds nothing a reader needs.";

/**
 * A picture's alt text, or "Decorative" (then the alt text is ""): one of the two, since a picture
 * with neither is not offered to content. The form's checkbox sends "on"; the editor's dialog
 * sends "true" or "false".
 */
export const mediaAltForm = z
  .object({
    alt: optionalText("Alt text", CONTENT_LIMITS.imageAlt),
    decorative: z._default(z.enum(["", "on", "true", "false"], { error: "Decorative must be ticked or not." }), ""),
  })
  .check(
    z.refine((value) => value.alt !== "" || value.decorative === "on" || value.decorative === "true", {
      message: MEDIA_ALT_PROBLEM,
      path: ["alt"],
    }),
  );

/** Whether a parsed alt form says "Decorative". */
export const isDecorative = (value: { decorative: string }) => value.decorative === "on" || value.decorative === "true";

/** The library's list: ?show=needs-alt, ?page=N. */
export const mediaListForm = z.object({
  show: queryField("show", (value) => value === "needs-alt", "Show must be needs-alt (or empty)."),
  page: queryField("page", (value) => /^[1-9]\d{0,5}$/.test(value), "Page must be a number from 1."),
});
