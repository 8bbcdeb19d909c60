import * as z from "zod/mini";
import { ENQUIRY_STATUSES, isEnquiryStatus, statusLabels } from "../inbox.ts";
import { parseIndiaDate } from "../india-time.ts";
import { serviceValues } from "../site.ts";
import { hasControlCharacters } from "../schemas/text-rules.ts";
import { emailField } from "../schemas/text-field.ts";
import { EMAIL_MAX } from "../schemas/email.ts";
import { UUID_PATTERN } from "../schemas/identifiers.ts";
import { MAX_TERM_CHARS, MAX_TERMS_PER_GROUP, queryWords } from "../search.ts";
import { isSubscriberState, SUBSCRIBER_STATES } from "./subscriber-states.ts";
import { ARTICLES, PROJECTS, TEAM } from "./collections/index.ts";
import { ORDERED_LIST_MAX, orderedListForms } from "./collections/forms.ts";
import { optionalText, queryField, revisionIdField } from "./form-fields.ts";

export { revisionIdField };
import { noControlCharacters, requiredText, singleLine } from "../schemas/text-field.ts";
import {
  ARTICLE_STATUSES,
  CONTENT_LIMITS,
  IMAGE_PATH_PATTERN,
  isArticleStatus,
  PROJECT_CATEGORIES,
  PROJECT_LIMITS,
  PROJECT_YEAR_PATTERN,
  SLUG_PATTERN,
  TEAM_MEMBER_LIMITS,
} from "../content/documents.ts";

// One zod schema per back-office form, read by the server (parseForm in forms.ts) and available to
// the pages: the same rules in both places, each problem in words at its field.

export const STAFF_ROLES = ["admin", "staff"] as const;
export const NOTE_MAX = 5000;

const role = z.enum(STAFF_ROLES, { error: "Choose a role: admin or staff." });
const optionalString = z.optional(z.string());

/** The longest the synonyms field may be: every term at its longest, with a separator each. */
export const SYNONYM_FIELD_MAX = MAX_TERMS_PER_GROUP * (MAX_TERM_CHARS + 2);

/** The terms of a synonym group as typed: one a line or separated by commas, trimmed, each once. */
export function synonymTerms(value: string): string[] {
  const seen = new Set<string>();
  return value
    .split(/[,\n\r]+/)
    .map((term) => term.replace(/\s+/g, " ").trim())
    .filter((term) => {
      const key = queryWords(term).join(" ");
      if (term === "" || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** A synonym group on the Search synonyms page: "LVRT, low-voltage ride-through". */
export const synonymGroupForm = z.object({
  terms: z.string({ error: "Synonyms: write two or more words or phrases, separated by commas." }).check(
    z.refine((value) => value.length <= SYNONYM_FIELD_MAX, {
      error: `Synonyms: at most ${SYNONYM_FIELD_MAX} characters.`,
      abort: true,
    }),
    z.refine((value) => !hasControlCharacters(value.replace(/[\r\n\t]/g, " ")), {
      error: "Synonyms: control characters are not allowed.",
      abort: true,
    }),
    z.refine((value) => synonymTerms(value).length >= 2, {
      error: "Synonyms: write two or more different words or phrases, separated by commas.",
      abort: true,
    }),
    z.refine((value) => synonymTerms(value).length <= MAX_TERMS_PER_GROUP, {
      error: `Synonyms: at most ${MAX_TERMS_PER_GROUP} words or phrases in a group.`,
      abort: true,
    }),
    z.refine((value) => synonymTerms(value).every((term) => term.length <= MAX_TERM_CHARS), {
      error: `Synonyms: each word or phrase at most ${MAX_TERM_CHARS} characters.`,
      abort: true,
    }),
    z.refine((value) => synonymTerms(value).every((term) => queryWords(term).length > 0), {
      error: "Synonyms: each one needs a letter or a digit.",
    }),
  ),
});

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

/**
 * The editor's address after a refused publish (item-routes.ts): `refused` is how it was asked
 * for (now or scheduled), `publishedAt` the Publish date a project's form gave, as typed.
 */
export const publishRefusedQuery = z.object({
  refused: queryField(
    "refused",
    (value) => value === "now" || value === "scheduled",
    "`refused` must be now or scheduled.",
  ),
  publishedAt: queryField(
    "publishedAt",
    (value) => value.length <= 40,
    "`publishedAt` must be a date and time of at most 40 characters.",
  ),
  /** The share link Share preview just made (its id): shown here to the browser that made it. */
  shared: queryField("shared", (value) => UUID_PATTERN.test(value), "`shared` must be a share link's id."),
});

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

/** The subscribers' search and state filter (a GET form: both live in the URL). */
export const subscriberSearchForm = z.object({
  q: queryField(
    "q",
    (value) => value.length <= EMAIL_MAX && !hasControlCharacters(value),
    `Search must be one line of at most ${EMAIL_MAX} characters.`,
  ),
  // An unknown state is refused with its name (cut short and quoted, so nothing typed into the URL
  // shows as more than text), not ignored: a mistyped bookmark should not show every address.
  state: z._default(
    z.string({ error: "Give state once." }).check(
      z.trim(),
      z.refine((value) => value === "" || isSubscriberState(value), {
        error: (issue) =>
          `State ${JSON.stringify(String(issue.input).slice(0, 40))} is not one of ${SUBSCRIBER_STATES.join(", ")} (or empty).`,
      }),
    ),
    "",
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

/** A publish date as a datetime-local field gives it, in India time: 2026-11-26T14:30. */
export const INDIA_DATETIME_PATTERN = /^(20\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d)$/;

/** The Author field's problem: it names no one the Author list offers. */
export const AUTHOR_PROBLEM = "Author must be a member of the team or of staff";

/** The fields of each kind, as its definition labels them (src/shared/admin/collections/). */
const A = ARTICLES.fields;
const P = PROJECTS.fields;
const T = TEAM.fields;

/** The editor's fields: what "Save draft", autosave, "Publish" and "Schedule" send. */
export const articleFields = {
  title: requiredText(A.title.label, CONTENT_LIMITS.title),
  slug: optionalText(A.slug.label, CONTENT_LIMITS.slug, {
    pattern: SLUG_PATTERN,
    problem: "Slug must be lower-case letters and digits joined by hyphens, like grid-code-compliance",
  }),
  excerpt: optionalText(A.excerpt.label, CONTENT_LIMITS.excerpt, { multiline: true }),
  category: optionalText(A.category.label, CONTENT_LIMITS.category),
  author: optionalText(A.author.label, CONTENT_LIMITS.slug, {
    pattern: SLUG_PATTERN,
    problem: AUTHOR_PROBLEM,
  }),
  imageUrl: optionalText(A.imageUrl.label, 300, {
    pattern: IMAGE_PATH_PATTERN,
    problem: "Cover image must be one of the site's pictures, under /images/",
  }),
  imageAlt: optionalText(A.imageAlt.label, CONTENT_LIMITS.imageAlt),
  publishedAt: optionalText(A.publishedAt.label, 16, {
    pattern: INDIA_DATETIME_PATTERN,
    problem: "Publish date must be a date and time, like 2026-11-26T14:30",
  }),
  body: optionalText(A.body.label, CONTENT_LIMITS.body, { multiline: true, markdown: true }),
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

const SHARE_KEY_PROBLEM = "This Share preview form is out of date: reload the page, then press Share preview again.";

/**
 * Share preview (decision 058): the key the editor rendered into its form, which becomes the new
 * link's id, so the same form sent twice (a double press, a replay) makes one link.
 */
export const shareLinkForm = z.object({
  requestKey: z.string({ error: SHARE_KEY_PROBLEM }).check(z.regex(UUID_PATTERN, SHARE_KEY_PROBLEM)),
});

/** The live preview: Markdown in, the article page's HTML out. */
export const markdownPreviewForm = z.object({
  body: optionalText("Body", CONTENT_LIMITS.body, { multiline: true, markdown: true }),
});

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

/** A page of an item's history: ?page=N, REVISIONS_PER_PAGE revisions each, newest first. */
export const revisionHistoryForm = z.object({
  page: queryField("page", (value) => /^[1-9]\d{0,5}$/.test(value), "Page must be a number from 1."),
});

/**
 * Revisions a page of an item's history lists, and Compare offers to choose from (the newest, and
 * the two compared): an item edited for years has thousands, and a page of every one of them held
 * the event loop for seconds (the event-loop kit).
 */
export const REVISIONS_PER_PAGE = 100;

/** Comparing two revisions: ?from=<revision id>&to=<revision id>. */
export const revisionCompareForm = z.object({
  from: queryField("from", (value) => /^[1-9]\d{0,14}$/.test(value), "From must be a revision."),
  to: queryField("to", (value) => /^[1-9]\d{0,14}$/.test(value), "To must be a revision."),
});

// Projects in the studio (docs/decisions/042-projects-in-the-studio.md): the article's flow with
// the spec's project fields. The list's filter, the action forms and the comparison are the
// articles' own schemas (articleFilterForm, articleActionForm, revisionCompareForm).

/** The project editor's fields: what "Save draft", autosave, "Publish" and "Schedule" send. */
export const projectFields = {
  title: requiredText(P.title.label, PROJECT_LIMITS.title),
  slug: optionalText(P.slug.label, PROJECT_LIMITS.slug, {
    pattern: SLUG_PATTERN,
    problem: "Slug must be lower-case letters and digits joined by hyphens, like kutch-solar-park",
  }),
  description: optionalText(P.description.label, PROJECT_LIMITS.description, { multiline: true }),
  category: z._default(
    z.string({ error: "Category must be text" }).check(
      z.trim(),
      z.refine(
        (value) => value === "" || (PROJECT_CATEGORIES as readonly string[]).includes(value),
        `Category must be one of ${PROJECT_CATEGORIES.join(", ")}`,
      ),
    ),
    "",
  ),
  imageUrl: optionalText(P.imageUrl.label, 300, {
    pattern: IMAGE_PATH_PATTERN,
    problem: "Image must be one of the pictures of the media library",
  }),
  // A year that is too long is not four digits: one message for both (the length is only a bound).
  year: optionalText(P.year.label, 40, {
    pattern: PROJECT_YEAR_PATTERN,
    problem: "Year must be four digits, like 2024",
  }),
  capacity: optionalText(P.capacity.label, PROJECT_LIMITS.capacity),
  timeline: optionalText(P.timeline.label, PROJECT_LIMITS.timeline),
};

/** "New project": the first save makes the project. */
export const projectCreateForm = z.object(projectFields);

/** A save of a project (the form, or autosave as JSON): the fields and the revision they were made from. */
export const projectSaveForm = z.object({ ...projectFields, baseRevisionId: revisionIdField });

/**
 * "Publish" and "Schedule" of a project: its fields (saved first when they differ), what to do,
 * and for "Schedule" the time to go public. A project's document holds no date (its files have
 * none), so the time travels with the publish alone and is kept in projects.published_at.
 */
export const projectPublishForm = z.object({
  ...projectFields,
  baseRevisionId: revisionIdField,
  when: z.enum(["now", "scheduled"], { error: "Choose to publish now or at the publish date." }),
  publishedAt: optionalText("Publish date", 16, {
    pattern: INDIA_DATETIME_PATTERN,
    problem: "Publish date must be a date and time, like 2026-11-26T14:30",
  }),
});

/** "Can publish" on the Staff page. */
export const staffCanPublishForm = z.object({
  canPublish: z.enum(["true", "false"], { error: "Say whether this person can publish." }),
});

// The team (src/server/admin/team/; docs/decisions/043-the-team-order-is-not-a-revision.md): the
// same limits as the content files' (TEAM_MEMBER_LIMITS), so every member the studio saves
// exports to a file that imports again.

/** A text a member may leave out: "" when empty, else held to `rule`. */
function optionalTeamText(
  label: string,
  max: number,
  rule: (value: string) => boolean,
  problem: string,
  normalise: (value: string) => string = (value) => value,
) {
  return z._default(
    z.string({ error: `${label} must be text` }).check(
      z.trim(),
      z.overwrite(normalise),
      z.maxLength(max, `${label} must be at most ${max} characters`),
      noControlCharacters(label),
      singleLine(label),
      z.refine<string>((value) => value === "" || rule(value), problem),
    ),
    "",
  );
}

/**
 * A LinkedIn address as people copy it: "linkedin.com/in/meera" or "www.linkedin.com/in/meera"
 * without its scheme gets https:// in front; anything else is left for isLinkedInAddress to judge.
 */
export function withLinkedInScheme(value: string): string {
  return /^(?:[a-z0-9-]+\.)*linkedin\.com(?:[/?#]|$)/i.test(value) ? `https://${value}` : value;
}

/** An https:// address on linkedin.com, with no user name or password in it. */
export function isLinkedInAddress(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === "https:" &&
    url.username === "" &&
    url.password === "" &&
    (url.hostname === "linkedin.com" || url.hostname.endsWith(".linkedin.com"))
  );
}

export const TEAM_PHOTO_PROBLEM = "Photo must be one of the pictures of the media library";

/** A member's fields: what "Add member" and "Save" send. */
export const teamMemberFields = {
  name: requiredText(T.name.label, TEAM_MEMBER_LIMITS.name),
  title: requiredText(T.title.label, TEAM_MEMBER_LIMITS.title),
  expertise: requiredText(T.expertise.label, TEAM_MEMBER_LIMITS.expertise),
  imageUrl: z
    .string({ error: (issue) => (issue.input == null ? "Choose a photo" : "Photo must be text") })
    .check(
      z.trim(),
      z.minLength(1, "Choose a photo"),
      z.maxLength(300, TEAM_PHOTO_PROBLEM),
      z.regex(IMAGE_PATH_PATTERN, TEAM_PHOTO_PROBLEM),
    ),
  email: optionalTeamText(
    T.email.label,
    TEAM_MEMBER_LIMITS.email,
    (value) => z.regexes.email.test(value),
    "Email must be an email address, like meera.iyer@example.com",
  ),
  linkedinUrl: optionalTeamText(
    T.linkedinUrl.label,
    TEAM_MEMBER_LIMITS.linkedinUrl,
    isLinkedInAddress,
    "LinkedIn must be the https:// address of a LinkedIn profile, like https://www.linkedin.com/in/meera-iyer",
    withLinkedInScheme,
  ),
};

/** "Add member": the fields, and whether the new member is on the site at once. */
export const teamMemberCreateForm = z.object({
  ...teamMemberFields,
  visibility: z.enum(["shown", "hidden"], { error: "Choose whether the member is shown on the site or hidden." }),
});

/** "Save": the fields and the revision they were made from. */
export const teamMemberSaveForm = z.object({ ...teamMemberFields, baseRevisionId: revisionIdField });

/**
 * Show, Hide, Move to trash and Restore; Move up / Move down; the order after dragging (JSON, at
 * most ORDERED_LIST_MAX ids); and the list's query: the forms every ordered kind has, in the
 * team's words.
 */
export const {
  action: teamMemberActionForm,
  move: teamMoveForm,
  order: teamOrderForm,
  list: teamListQuery,
} = orderedListForms({ noun: "member", everyOne: "every member of the team" });

/** The most items an ordered kind's order may list. */
export const TEAM_ORDER_MAX = ORDERED_LIST_MAX;

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

/** The longest search of the picture chooser, in characters. */
export const PICTURE_SEARCH_MAX = 100;

/** The picture chooser's list (/admin/api/media/choices): a search of names and alt text, and a page. */
export const pictureChoicesQuery = z.object({
  q: queryField(
    "q",
    (value) => value.length <= PICTURE_SEARCH_MAX,
    `Search must be at most ${PICTURE_SEARCH_MAX} characters.`,
  ),
  page: queryField("page", (value) => /^[1-9]\d{0,2}$/.test(value), "Page must be a number from 1 to 999."),
});

// Newsletters (src/server/admin/newsletters/; docs/back-office.md, "Newsletters").

export const NEWSLETTER_LIMITS = { subject: 150, introduction: 5000, articles: 12 } as const;
const NEWSLETTER_ARTICLES_PROBLEM = "Articles to feature must be chosen from the list of public articles";
const NEWSLETTER_VERSION_PROBLEM =
  "The form did not say which version of the newsletter it was made from: reload the page and try again.";

/** The checked boxes of "Articles to feature": none, one (a string) or several (an array), each an id. */
const newsletterArticleIds = z._default(
  z.pipe(
    z.pipe(
      z.union([z.string(), z.array(z.string())], { error: NEWSLETTER_ARTICLES_PROBLEM }),
      z.transform((value: string | string[]) => (typeof value === "string" ? [value] : value)),
    ),
    z.array(z.string().check(z.regex(UUID_PATTERN, NEWSLETTER_ARTICLES_PROBLEM))).check(
      z.maxLength(
        NEWSLETTER_LIMITS.articles,
        `Articles to feature: choose at most ${NEWSLETTER_LIMITS.articles} articles`,
      ),
      z.refine(
        (ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length,
        "Articles to feature names an article twice",
      ),
    ),
  ),
  [],
);

const newsletterFields = {
  subject: requiredText("Subject", NEWSLETTER_LIMITS.subject),
  introduction: optionalText("Introduction", NEWSLETTER_LIMITS.introduction, { multiline: true }),
  articleIds: newsletterArticleIds,
};

/** The version a newsletter's form was made from. */
const newsletterVersion = z
  .string({ error: NEWSLETTER_VERSION_PROBLEM })
  .check(z.regex(/^[1-9]\d{0,8}$/, NEWSLETTER_VERSION_PROBLEM));

/** "New newsletter". */
export const newsletterCreateForm = z.object(newsletterFields);

/** "Save draft": the fields, and the version they were based on. */
export const newsletterSaveForm = z.object({ ...newsletterFields, version: newsletterVersion });

/** "Yes, send it": the version confirmed, and the number of subscribers the question named. */
export const newsletterSendForm = z.object({
  version: newsletterVersion,
  recipients: z
    .string({ error: "The form did not say how many subscribers it was confirmed for: go back and try again." })
    .check(
      z.regex(/^\d{1,9}$/, "The form did not say how many subscribers it was confirmed for: go back and try again."),
    ),
});
