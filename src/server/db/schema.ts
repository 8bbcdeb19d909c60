import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import type { RevisionChanges } from "#shared/content/revision-changes.ts";

/**
 * Where a conversion came from (analytics): its sender's first page view that India day. All
 * null when it was not counted (no view that day, Sec-GPC, an excluded browser, ANALYTICS=false).
 */
function attributionColumns() {
  return {
    /** The path of the first page viewed that day. */
    landingPage: text("landing_page"),
    /** utm_source, else the referring site's host, else null (a direct visit). */
    attributionSource: text("attribution_source"),
    attributionMedium: text("attribution_medium"),
    attributionCampaign: text("attribution_campaign"),
  };
}

// The four tables of SPEC section 3, and the enquiry pipeline's own: newsletter subscribers, the
// mail outbox and the shared rate-limit counters. Columns are snake_case in SQL, camelCase in
// TypeScript.

/**
 * What the inbox's search looks in: the same expression in the index and in the query
 * (admin/inbox.ts), or the index is not used.
 */
export const enquirySearchText = sql.raw(
  `first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(company, '') || ' ' || message`,
);

export const contactSubmissions = pgTable(
  "contact_submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    company: text("company"),
    service: text("service"),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Made by the browser (or the server for a plain form post): the same key stores one row. */
    idempotencyKey: uuid("idempotency_key")
      .notNull()
      .unique()
      .default(sql`gen_random_uuid()`),
    /** Honeypot filled or sent too fast: kept for the record, never notified. */
    isSpam: boolean("is_spam").notNull().default(false),
    spamReason: text("spam_reason"),
    /**
     * SHA-256 of the enquiry as it was sent (its fields after trimming): a repeat of the idempotency
     * key is the same enquiry only when this matches. Kept because spam is stored shortened.
     */
    bodyDigest: text("body_digest"),
    /** The version of the privacy notice the form showed (src/shared/privacy-notice.ts); null before versions. */
    noticeVersion: text("notice_version"),
    // The back office's inbox (docs/decisions/028-…): where an enquiry stands, who handles it,
    // and when it was first answered. Spam rows carry the status "spam" (is_spam stays in step).
    /** new, contacted, qualified, proposal-sent, won, lost or spam (src/shared/inbox.ts). */
    status: text("status").notNull().default("new"),
    ownerId: uuid("owner_id").references((): AnyPgColumn => staff.id, { onDelete: "set null" }),
    /** The first reply's moment and who sent it: this stops the 24-hour clock. */
    firstReplyAt: timestamp("first_reply_at", { withTimezone: true }),
    firstReplyById: uuid("first_reply_by_id").references((): AnyPgColumn => staff.id, { onDelete: "set null" }),
    /** When it became Won or Lost: closed enquiries are deleted ENQUIRY_RETENTION_DAYS after this. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** Raised by every change from the back office: a form posting an older one is a conflict. */
    version: integer("version").notNull().default(1),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    /** Who made the latest change, for the "changed by X meanwhile" message; just a name is kept. */
    updatedByLabel: text("updated_by_label"),
    ...attributionColumns(),
    /**
     * The sender's visitor hash of that day (analytics): links the enquiry to the pages its sender
     * viewed. Cleared when the day is rolled up (analytics/rollup.ts); the attribution stays.
     */
    visitorHash: text("visitor_hash"),
  },
  (table) => [
    // The inbox's order (newest first, id breaking ties), whole and within a status.
    // (NULLS FIRST as a plain ORDER BY … DESC has it, or the planner cannot read the index in order.)
    index("contact_submissions_created_idx").on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index("contact_submissions_status_created_idx").on(
      table.status,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // The inbox's Overdue and Unassigned counts: open enquiries only (few, however many closed).
    index("contact_submissions_unreplied_idx")
      .on(table.createdAt)
      .where(sql`first_reply_at is null and status not in ('spam', 'won', 'lost')`),
    index("contact_submissions_unassigned_idx")
      .on(table.createdAt)
      .where(sql`owner_id is null and status not in ('spam', 'won', 'lost')`),
    // The inbox's search: trigrams of name, email, company and message together (pg_trgm), so that
    // a substring search (ILIKE '%…%') over 100,000 enquiries reads the index, not every message.
    index("contact_submissions_search_idx").using("gin", sql`(${enquirySearchText}) gin_trgm_ops`),
    index("contact_submissions_owner_idx").on(table.ownerId),
    index("contact_submissions_email_idx").on(sql`lower(${table.email})`),
  ],
);

/** The notes on an enquiry: a timeline, each with its author and time. */
export const enquiryNotes = pgTable(
  "enquiry_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => contactSubmissions.id, { onDelete: "cascade" }),
    authorId: uuid("author_id").references((): AnyPgColumn => staff.id, { onDelete: "set null" }),
    /** The author's name when the note was written (kept when the account goes). */
    authorLabel: text("author_label").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("enquiry_notes_submission_idx").on(table.submissionId, table.createdAt)],
);

/** The states of a subscription (docs/decisions/044-newsletter-double-opt-in.md). */
export const SUBSCRIBER_STATUSES = ["pending", "confirmed", "unsubscribed", "bouncing"] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const newsletterSubscribers = pgTable(
  "newsletter_subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stored lower-cased, so one address subscribes once. */
    email: text("email").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    ...attributionColumns(),
    /**
     * pending (asked, not yet confirmed: never mailed a newsletter, deleted after 7 days),
     * confirmed, unsubscribed, or bouncing (a newsletter to it was refused for good: not mailed
     * again until an admin lifts it).
     */
    status: text("status").$type<SubscriberStatus>().notNull().default("pending"),
    statusChangedAt: timestamp("status_changed_at", { withTimezone: true }).notNull().defaultNow(),
    /** The SHA-256 (hex) of the one confirmation link in force; cleared once used. */
    confirmTokenHash: text("confirm_token_hash").unique(),
    /** When that link stops working (48 hours after it was made). */
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }),
    /** When the last confirmation mail was queued: at most one a day per address. */
    confirmationSentAt: timestamp("confirmation_sent_at", { withTimezone: true }),
    /** The proof of consent: when the address was confirmed, from which page, and the words shown there. */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    consentPage: text("consent_page"),
    consentText: text("consent_text"),
    /** The version of the privacy notice the box showed with it; null before versions. */
    noticeVersion: text("notice_version"),
    /** Why the address is bouncing (the SMTP server's answer, redacted). */
    bounceReason: text("bounce_reason"),
  },
  (table) => [
    check(
      "newsletter_subscribers_status",
      sql`${table.status} in ('pending', 'confirmed', 'unsubscribed', 'bouncing')`,
    ),
    index("newsletter_subscribers_status_idx").on(table.status, table.statusChangedAt),
  ],
);

/** The states of a newsletter: a draft; sending (its mail queued); sent (none left to send). */
export const NEWSLETTER_STATUSES = ["draft", "sending", "sent"] as const;
export type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];

/** What a newsletter said when it was sent: the mail is made from this, never from later edits. */
export type NewsletterSnapshot = {
  subject: string;
  /** The introduction as Markdown. */
  introduction: string;
  /** The featured articles as they were published then, in order. */
  articles: {
    id: string;
    slug: string;
    title: string;
    excerpt: string;
    category: string;
    publishedAt: string;
    /** The cover's address on the site (a /media/… path), and its text. */
    image: string;
    imageAlt: string;
  }[];
};

export const newsletters = pgTable(
  "newsletters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subject: text("subject").notNull().default(""),
    /** Markdown. */
    introduction: text("introduction").notNull().default(""),
    /** The featured articles, in order (blog_posts ids). */
    articleIds: uuid("article_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** utm_campaign of every link to the site: fixed when the newsletter is made, unique. */
    campaign: text("campaign").notNull().unique(),
    status: text("status").$type<NewsletterStatus>().notNull().default("draft"),
    /** Bumped by every save: a save based on an older version is refused (409). */
    version: integer("version").notNull().default(1),
    createdBy: uuid("created_by").references((): AnyPgColumn => staff.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** The name of who saved last (kept when the account goes). */
    updatedByLabel: text("updated_by_label"),
    /** Set once, by the send: what was sent, when, by whom, to how many. */
    snapshot: jsonb("snapshot").$type<NewsletterSnapshot>(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    sentBy: uuid("sent_by").references((): AnyPgColumn => staff.id, { onDelete: "set null" }),
    sentByLabel: text("sent_by_label"),
    recipients: integer("recipients"),
    /** When the last of its mail was sent or given up. */
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    check("newsletters_status", sql`${table.status} in ('draft', 'sending', 'sent')`),
    check("newsletters_sent_has_snapshot", sql`${table.status} = 'draft' or ${table.snapshot} is not null`),
    index("newsletters_created_idx").on(table.createdAt),
  ],
);

export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The enquiry a mail is about; none for staff mail (a sign-in link). */
    submissionId: uuid("submission_id").references(() => contactSubmissions.id, { onDelete: "cascade" }),
    /**
     * "notification" to the firm, "acknowledgement" to the visitor, "staff-sign-in-link" and
     * "staff-invitation" to a member of staff.
     */
    kind: text("kind").notNull(),
    /** The address of a mail whose recipient is not the enquiry's visitor or the firm (staff mail). */
    recipient: text("recipient"),
    /** What a staff mail says (the link); cleared once it is sent or given up. */
    payload: jsonb("payload").$type<Record<string, string>>(),
    /**
     * pending → sent, or failed (rejected with a 5xx, or out of attempts; `lastError` says why);
     * "unconfigured" when no SMTP server was set when it was queued.
     */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** A claim by one instance's worker; another may take the mail once it has passed. */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    leaseOwner: text("lease_owner"),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * A newsletter's mail ("newsletter" to a subscriber, "newsletter-test" to a member of staff):
     * sent by the newsletter sender (src/server/newsletter/), paced, never by the enquiry worker.
     */
    newsletterId: uuid("newsletter_id").references(() => newsletters.id, { onDelete: "cascade" }),
    /** The subscriber a newsletter mail goes to: one row per newsletter and subscriber, ever. */
    subscriberId: uuid("subscriber_id").references(() => newsletterSubscribers.id, { onDelete: "cascade" }),
    /** When a sender last claimed the row: the pace counts these across instances. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
  },
  (table) => [
    unique("mail_outbox_submission_kind_unique").on(table.submissionId, table.kind),
    unique("mail_outbox_newsletter_subscriber_unique").on(table.newsletterId, table.subscriberId),
    index("mail_outbox_due_idx").on(table.status, table.nextAttemptAt),
    index("mail_outbox_newsletter_idx").on(table.newsletterId, table.status),
    index("mail_outbox_claimed_idx").on(table.claimedAt),
  ],
);

/**
 * The fixed one-minute windows of the previous version's rate limit. No longer written: kept so
 * that instances of that version still running during a rolling update keep working; a later
 * migration drops it.
 */
export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

/** Sliding-window rate limits (enquiries/rate-limit.ts): the moments of the hits allowed in the window. */
export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    /** A keyed hash of the limited action and the client (or recipient), never the address itself. */
    key: text("key").primaryKey(),
    /** When each allowed hit still inside the window happened, oldest first; at most the limit. */
    hits: timestamp("hits", { withTimezone: true }).array().notNull(),
    /** Whether the latest hit was allowed (read back by the statement that made it). */
    lastAllowed: boolean("last_allowed").notNull().default(true),
    /** After this the row says nothing any more and is pruned. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("rate_limit_windows_expires_idx").on(table.expiresAt)],
);

/** Form tokens already used, each with the enquiry (idempotency key) that used it. */
export const usedFormTokens = pgTable(
  "used_form_tokens",
  {
    /** The token's signature: unique to the token. */
    signature: text("signature").primaryKey(),
    idempotencyKey: uuid("idempotency_key").notNull(),
    /** When the token was issued; a record is pruned once its token is past its lifetime. */
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("used_form_tokens_issued_idx").on(table.issuedAt)],
);

/** Spam per hour: how many were stored, and how many more were only counted (over the hourly cap). */
export const spamTally = pgTable("spam_tally", {
  hour: timestamp("hour", { withTimezone: true }).primaryKey(),
  stored: integer("stored").notNull().default(0),
  dropped: integer("dropped").notNull().default(0),
  /** Whether the latest spam counted was stored (read back by the statement that counted it). */
  lastStored: boolean("last_stored").notNull().default(true),
});

// Articles, projects and team members (docs/decisions/038-the-database-holds-the-content.md). Each
// table is one row per item: its published copy (what the public reads, written only when a
// revision is published), where the item stands, and where it came from. The words being edited
// live in content_revisions; the row points at the newest (`head_revision_id`).

/** The columns every content item has besides its published copy. */
function studioColumns() {
  return {
    /** "draft" (never published), "published" (public once published_at is past) or "unpublished". */
    status: text("status").notNull().default("draft"),
    /** The newest revision: the text being edited. */
    headRevisionId: bigint("head_revision_id", { mode: "number" }),
    /** The revision the published copy was made from; null until the first publish. */
    publishedRevisionId: bigint("published_revision_id", { mode: "number" }),
    /** SHA-256 of the file's canonical document as last imported; null for an item made in the studio. */
    originHash: text("origin_hash"),
    /** Set by every studio write, cleared by an import that writes the item. */
    studioChangedAt: timestamp("studio_changed_at", { withTimezone: true }),
    studioChangedByLabel: text("studio_changed_by_label"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** In the trash since then: restorable for 30 days, then deleted. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedByLabel: text("deleted_by_label"),
  };
}

export const blogPosts = pgTable(
  "blog_posts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // The published copy: null until the article is first published.
    title: text("title"),
    excerpt: text("excerpt"),
    content: text("content"),
    category: text("category"),
    imageUrl: text("image_url"),
    imageAlt: text("image_alt"),
    /** When it goes (or went) public; in the future while scheduled. */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** The published address; a draft's address is in its head revision. */
    slug: text("slug").unique(),
    /** The author's name as published (the team member's name when it was published). */
    authorName: text("author_name"),
    /** The team member who wrote it, as published. */
    authorId: uuid("author_id").references((): AnyPgColumn => teamMembers.id, { onDelete: "set null" }),
    ...studioColumns(),
  },
  (table) => [
    check(
      "blog_posts_published_copy",
      sql`${table.publishedRevisionId} is null or (${table.title} is not null and ${table.excerpt} is not null and ${table.content} is not null and ${table.category} is not null and ${table.imageUrl} is not null and ${table.publishedAt} is not null and ${table.slug} is not null)`,
    ),
    check("blog_posts_status", sql`${table.status} in ('draft', 'published', 'unpublished')`),
    index("blog_posts_public_idx").on(table.status, table.publishedAt),
  ],
);

export const teamMembers = pgTable(
  "team_members",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Its file name in content/team, without .yaml: what articles name as their author. */
    slug: text("slug").unique(),
    // The published copy: null until the member is first shown.
    name: text("name"),
    title: text("title"),
    expertise: text("expertise"),
    imageUrl: text("image_url"),
    linkedinUrl: text("linkedin_url"),
    email: text("email"),
    /** Where the member stands on the About page and the home page: lowest first. Set at once by the studio's Move up / Move down, not by a revision. */
    order: integer("order").notNull().default(0),
    ...studioColumns(),
  },
  (table) => [
    check(
      "team_members_published_copy",
      sql`${table.publishedRevisionId} is null or (${table.name} is not null and ${table.title} is not null and ${table.expertise} is not null and ${table.imageUrl} is not null)`,
    ),
    check("team_members_status", sql`${table.status} in ('draft', 'published', 'unpublished')`),
  ],
);

export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // The published copy: null until the project is first published.
    title: text("title"),
    description: text("description"),
    category: text("category"),
    imageUrl: text("image_url"),
    year: text("year"),
    capacity: text("capacity"),
    timeline: text("timeline"),
    /** The published address; a draft's address is in its head revision. */
    slug: text("slug").unique(),
    /**
     * When it goes (or went) public; in the future while scheduled; null for a project published
     * with no time of its own (from a file): public as soon as it is published.
     */
    publishedAt: timestamp("published_at", { withTimezone: true }),
    ...studioColumns(),
  },
  (table) => [
    // published_at may be null on a published project: one published from a file, which carries
    // no time, is public from its publication on, whatever an instance's clock says (decision 042).
    check(
      "projects_published_copy",
      sql`${table.publishedRevisionId} is null or (${table.title} is not null and ${table.description} is not null and ${table.category} is not null and ${table.imageUrl} is not null and ${table.year} is not null and ${table.slug} is not null)`,
    ),
    check("projects_status", sql`${table.status} in ('draft', 'published', 'unpublished')`),
    index("projects_public_idx").on(table.status, table.publishedAt),
  ],
);

/**
 * The permission a client gave to be quoted or shown (docs/decisions/061-testimonials-and-client-logos.md):
 * who approved it, when, for which uses, and when to ask again. Part of the published copy: a
 * testimonial or a logo is public only while its uses include "website".
 */
function permissionColumns() {
  return {
    /** Who approved it, in words ("Anita Shah, Head of Projects, by email"). */
    permissionBy: text("permission_by"),
    permissionOn: date("permission_on", { mode: "string" }),
    /** Of PERMISSION_USES (src/shared/content/testimonials.ts): "website", "proposals", "social". */
    permissionUses: text("permission_uses").array(),
    /** When to review it with the client: the monthly mail lists those past (testimonial-review.ts). */
    permissionReview: date("permission_review", { mode: "string" }),
  };
}

/** The permission is complete: every column set and at least one use. */
const permissionComplete = (table: {
  permissionBy: AnyPgColumn;
  permissionOn: AnyPgColumn;
  permissionUses: AnyPgColumn;
  permissionReview: AnyPgColumn;
}) =>
  sql`${table.permissionBy} is not null and ${table.permissionOn} is not null and ${table.permissionReview} is not null and coalesce(cardinality(${table.permissionUses}), 0) > 0`;

/**
 * What a client said of the firm. No draft step and no slug of its own: the back office publishes
 * (shows) and withdraws (hides) it, and orders it by hand, as the team (decision 043). An
 * anonymised one shows its description instead of the person and the organisation, which never
 * leave the server (public-content.ts, listPublicTestimonials).
 */
export const testimonials = pgTable(
  "testimonials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Its file name in content/testimonials, without .yaml; null for one made in the back office. */
    slug: text("slug").unique(),
    // The published copy: null until first published.
    quote: text("quote"),
    personName: text("person_name"),
    personRole: text("person_role"),
    organisation: text("organisation"),
    anonymised: boolean("anonymised").notNull().default(false),
    /** What an anonymised one shows instead of the person and the organisation. */
    description: text("description"),
    /** The organisation's logo: a media-library reference, as team_members.image_url. */
    logoUrl: text("logo_url"),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "set null" }),
    /** The services it speaks of: SERVICE_SLUGS (src/shared/content/testimonials.ts). */
    services: text("services").array(),
    /** The industries it speaks of: INDUSTRY_SLUGS. */
    industries: text("industries").array(),
    ...permissionColumns(),
    /** Where it stands on the pages: lowest first. Set by the back office's order, not by a revision. */
    order: integer("order").notNull().default(0),
    ...studioColumns(),
  },
  (table) => [
    check(
      "testimonials_published_copy",
      sql`${table.publishedRevisionId} is null or (${table.quote} is not null and (case when ${table.anonymised} then ${table.description} is not null else ${table.personName} is not null and ${table.organisation} is not null end))`,
    ),
    check("testimonials_permission", sql`${table.status} <> 'published' or (${permissionComplete(table)})`),
    check("testimonials_status", sql`${table.status} in ('draft', 'published', 'unpublished')`),
  ],
);

/** A client's logo, shown on the home page with the client's permission. Published and ordered as a testimonial. */
export const clientLogos = pgTable(
  "client_logos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Its file name in content/client-logos, without .yaml; null for one made in the back office. */
    slug: text("slug").unique(),
    // The published copy: null until first published.
    organisation: text("organisation"),
    /** A media-library reference, as team_members.image_url. */
    logoUrl: text("logo_url"),
    ...permissionColumns(),
    order: integer("order").notNull().default(0),
    ...studioColumns(),
  },
  (table) => [
    check(
      "client_logos_published_copy",
      sql`${table.publishedRevisionId} is null or (${table.organisation} is not null and ${table.logoUrl} is not null)`,
    ),
    check("client_logos_permission", sql`${table.status} <> 'published' or (${permissionComplete(table)})`),
    check("client_logos_status", sql`${table.status} in ('draft', 'published', 'unpublished')`),
  ],
);

/**
 * Every saved version of an item, whole: append-only (no code updates one). `id` is what a form
 * carries as the revision it was made from; `number` counts 1, 2, … per item.
 */
export const contentRevisions = pgTable(
  "content_revisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    articleId: uuid("article_id").references(() => blogPosts.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    teamMemberId: uuid("team_member_id").references(() => teamMembers.id, { onDelete: "cascade" }),
    testimonialId: uuid("testimonial_id").references(() => testimonials.id, { onDelete: "cascade" }),
    clientLogoId: uuid("client_logo_id").references(() => clientLogos.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    /** The revision this one was made from (what the editor showed); null for the first. */
    baseRevisionId: bigint("base_revision_id", { mode: "number" }),
    authorId: uuid("author_id").references(() => staff.id, { onDelete: "set null" }),
    /** Who saved it, as shown: their name then, "command line", "content files". */
    authorLabel: text("author_label").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** "studio", "autosave", "restore", "import" or "seed". */
    source: text("source").notNull(),
    restoredFromId: bigint("restored_from_id", { mode: "number" }),
    /** The whole item (src/shared/content/documents.ts), slug included. */
    document: jsonb("document").$type<Record<string, unknown>>().notNull(),
    /** SHA-256 of the canonical document: equal hashes, equal documents. */
    hash: text("hash").notNull(),
    /**
     * What changed from the revision before it, worked out when it was saved (History shows it:
     * docs/decisions/058-history-says-what-changed.md); null for the first revision and for those
     * saved before this column.
     */
    changes: jsonb("changes").$type<RevisionChanges>(),
  },
  (table) => [
    check(
      "content_revisions_one_item",
      sql`num_nonnulls(${table.articleId}, ${table.projectId}, ${table.teamMemberId}, ${table.testimonialId}, ${table.clientLogoId}) = 1`,
    ),
    unique("content_revisions_article_number").on(table.articleId, table.number),
    unique("content_revisions_project_number").on(table.projectId, table.number),
    unique("content_revisions_team_member_number").on(table.teamMemberId, table.number),
    unique("content_revisions_testimonial_number").on(table.testimonialId, table.number),
    unique("content_revisions_client_logo_number").on(table.clientLogoId, table.number),
  ],
);

/**
 * An old address of an article or a project: it answers a 301 to the item's current address while
 * the item is public. A row names the item, never a slug, so chains collapse by themselves.
 */
export const contentRedirects = pgTable(
  "content_redirects",
  {
    /** "article" or "project". */
    kind: text("kind").notNull(),
    oldSlug: text("old_slug").notNull(),
    articleId: uuid("article_id").references(() => blogPosts.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdByLabel: text("created_by_label").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.kind, table.oldSlug] }),
    check("content_redirects_one_item", sql`num_nonnulls(${table.articleId}, ${table.projectId}) = 1`),
  ],
);

/**
 * A link that shows an article's or a project's draft to whoever holds it: "preview" (1 hour) or
 * "share" (7 days). It names one item (a check says exactly one).
 */
export const contentLinks = pgTable(
  "content_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** SHA-256 of the random token, hex: the token itself is never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    kind: text("kind").notNull(),
    articleId: uuid("article_id").references(() => blogPosts.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    createdBy: uuid("created_by").references(() => staff.id, { onDelete: "set null" }),
    createdByLabel: text("created_by_label").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [check("content_links_one_item", sql`num_nonnulls(${table.articleId}, ${table.projectId}) = 1`)],
);

/**
 * Who has an article or a project open in the editor: one row per item and session, beaten every
 * 15 s while visible. It names one item (a check says exactly one).
 */
export const contentPresence = pgTable(
  "content_presence",
  {
    articleId: uuid("article_id").references(() => blogPosts.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    sessionIdHash: text("session_id_hash")
      .notNull()
      .references(() => staffSessions.idHash, { onDelete: "cascade" }),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique("content_presence_article_session").on(table.articleId, table.sessionIdHash),
    unique("content_presence_project_session").on(table.projectId, table.sessionIdHash),
    check("content_presence_one_item", sql`num_nonnulls(${table.articleId}, ${table.projectId}) = 1`),
  ],
);

export type ContentRevisionRow = typeof contentRevisions.$inferSelect;

export type ContactSubmissionRow = typeof contactSubmissions.$inferSelect;
export type BlogPostRow = typeof blogPosts.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type TestimonialRow = typeof testimonials.$inferSelect;
export type ClientLogoRow = typeof clientLogos.$inferSelect;
export type MailOutboxRow = typeof mailOutbox.$inferSelect;
export type EnquiryNoteRow = typeof enquiryNotes.$inferSelect;

/** Settings the instances share, such as the generated secret that signs form timestamps. */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

// The back office (docs/decisions/0NN-passkeys-and-database-sessions.md): staff, their passkeys,
// sessions, one-time links, WebAuthn challenges and the audit trail.

export const staff = pgTable("staff", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Stored lower-cased: one account per address. */
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  /** "admin" manages staff and reads the audit trail; "staff" works in the inbox. */
  role: text("role").notNull().default("staff"),
  /** May publish, schedule, unpublish and trash articles without being an admin ("Can publish"). */
  canPublish: boolean("can_publish").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
  /** The WebAuthn user handle: random, so it reveals nothing about the person. */
  webauthnUserId: text("webauthn_user_id").notNull().unique(),
});

export const passkeys = pgTable(
  "passkeys",
  {
    /** The credential ID, base64url, as the authenticator made it. */
    id: text("id").primaryKey(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    publicKey: bytea("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array(),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    /** A label for the person: the browser and system it was made on. */
    label: text("label").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [index("passkeys_staff_idx").on(table.staffId)],
);

export const staffSessions = pgTable(
  "staff_sessions",
  {
    /** SHA-256 of the random ID the cookie holds: the table alone cannot be used to sign in. */
    idHash: text("id_hash").primaryKey(),
    staffId: uuid("staff_id")
      .notNull()
      .references(() => staff.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** The absolute end: 7 days after sign-in, however active. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** How it began: "passkey", "invitation" or "sign-in-link". */
    method: text("method").notNull(),
    /** The browser and system, for the person's list of sessions (never the full user agent). */
    device: text("device").notNull().default(""),
  },
  (table) => [index("staff_sessions_staff_idx").on(table.staffId)],
);

export const staffTokens = pgTable("staff_tokens", {
  /** SHA-256 of the token in the link. */
  tokenHash: text("token_hash").primaryKey(),
  /** "invitation" (24 hours) or "sign-in" (15 minutes). */
  kind: text("kind").notNull(),
  staffId: uuid("staff_id")
    .notNull()
    .references(() => staff.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
});

export const webauthnChallenges = pgTable("webauthn_challenges", {
  challenge: text("challenge").primaryKey(),
  /** "registration" or "authentication". */
  purpose: text("purpose").notNull(),
  /** Whose passkey is being registered; none for a sign-in, where the passkey says who. */
  staffId: uuid("staff_id").references(() => staff.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** Who acted: a member of staff, or none (a failed sign-in, the command line). */
    actorId: uuid("actor_id").references(() => staff.id, { onDelete: "set null" }),
    /** The actor as shown: a name, "command line", "unknown passkey". */
    actorLabel: text("actor_label").notNull(),
    action: text("action").notNull(),
    /** What was acted on: "staff", "enquiry", "subscriber", "passkey", "session", "export"… */
    targetType: text("target_type"),
    targetId: text("target_id"),
    /** The target as shown (a person's name or address): cleared when that person is erased. */
    targetLabel: text("target_label"),
    /** The client address the rate limit uses; null for the command line. */
    clientAddress: text("client_address"),
    /** Counts and other facts of the event; never a visitor's message. */
    details: jsonb("details").$type<Record<string, unknown>>(),
  },
  (table) => [
    index("audit_events_at_idx").on(table.at),
    index("audit_events_target_idx").on(table.targetType, table.targetId),
  ],
);

export type StaffRow = typeof staff.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;
export type AuditEventRow = typeof auditEvents.$inferSelect;

// Analytics without cookies (docs/decisions/031-cookieless-analytics.md): a random salt per India
// day, the page views (no address, no user agent), and the daily roll-up kept after them.

/** One random salt per India day, shared by the instances; deleted 48 hours after it was made. */
export const analyticsSalts = pgTable("analytics_salts", {
  /** The India date, YYYY-MM-DD. */
  day: text("day").primaryKey(),
  salt: text("salt").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One row per counted view of a public page; deleted after ANALYTICS_RETENTION_DAYS. */
export const pageViews = pgTable(
  "page_views",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /** Without its query string. */
    path: text("path").notNull(),
    /** The referring site's host; null for none or the site itself. */
    referrerHost: text("referrer_host"),
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
    /** "mobile", "tablet", "desktop" or "other". */
    device: text("device").notNull(),
    /** HMAC of the client address and user agent keyed by the day's salt: one visitor, one day. */
    visitorHash: text("visitor_hash").notNull(),
    /** Identical views of one batch (the same visitor, page and source within a second or so) share a row. */
    views: integer("views").notNull().default(1),
  },
  (table) => [index("page_views_at_idx").on(table.at), index("page_views_visitor_idx").on(table.visitorHash, table.at)],
);

/**
 * The daily roll-up: per India day and dimension ("total", "page", "source", "campaign",
 * "device", "funnel") and value, the views, visitors, enquiries and subscriptions. Kept after the
 * raw views are deleted, so old periods still show their totals.
 */
export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    day: text("day").notNull(),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    views: integer("views").notNull().default(0),
    visitors: integer("visitors").notNull().default(0),
    enquiries: integer("enquiries").notNull().default(0),
    subscriptions: integer("subscriptions").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.dimension, table.value] })],
);

/** The India days already rolled up: their numbers come from analytics_daily from then on. */
export const analyticsRolledDays = pgTable("analytics_rolled_days", {
  day: text("day").primaryKey(),
  rolledAt: timestamp("rolled_at", { withTimezone: true }).notNull().defaultNow(),
});

// A day's roll-up in batches (src/server/analytics/rollup.ts): its raw views are read a few
// thousand at a time into a row per visitor and per visitor and page, whose rows then go into
// analytics_daily a few thousand at a time; the day is marked rolled when none are left. Each
// batch is a transaction under the lock of the day's row here, so instances take turns.

/** A day being rolled up: how far it has got. Deleted with the day's mark. */
export const analyticsRollupProgress = pgTable("analytics_rollup_progress", {
  day: text("day").primaryKey(),
  /** "views" (reading raw views), "visitors", "pages" (adding the staged rows up), "last". */
  phase: text("phase").notNull().default("views"),
  /** The time of the last raw view read: the next batch starts after it. */
  afterAt: timestamp("after_at", { withTimezone: true }),
});

/** A visitor's day so far: views, the funnel's pages, and the first view's source, campaign and device. */
export const analyticsRollupVisitors = pgTable(
  "analytics_rollup_visitors",
  {
    day: text("day").notNull(),
    visitorHash: text("visitor_hash").notNull(),
    views: integer("views").notNull(),
    interested: boolean("interested").notNull(),
    contact: boolean("contact").notNull(),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull(),
    firstId: bigint("first_id", { mode: "number" }).notNull(),
    source: text("source").notNull(),
    campaign: text("campaign"),
    device: text("device").notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.visitorHash] })],
);

/** A visitor's day on a page so far: views and the first view's time. */
export const analyticsRollupPages = pgTable(
  "analytics_rollup_pages",
  {
    day: text("day").notNull(),
    path: text("path").notNull(),
    visitorHash: text("visitor_hash").notNull(),
    views: integer("views").notNull(),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.path, table.visitorHash] })],
);

// The media library (docs/decisions/040-the-media-library.md). One row per picture, by the SHA-256
// of the upright, stripped original the site keeps; its files (that original and every width of
// the ladder in AVIF, WebP and JPEG) are rows of media_files, so every instance serves what any
// instance received.

export const media = pgTable(
  "media",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The first 16 hex digits of the SHA-256 of the kept original: its addresses are /media/<key>/<file>. */
    key: text("key").notNull().unique(),
    /** The uploaded file's name, cleaned, for the library and downloads. */
    fileName: text("file_name").notNull(),
    /** The kept original's format: "jpeg", "png", "webp" or "avif". */
    format: text("format").notNull(),
    /** Of the kept original, turned upright. */
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** The size of the file as uploaded. */
    uploadedBytes: integer("uploaded_bytes").notNull(),
    /** What the picture shows, for those who cannot see it; "" while unwritten or when decorative. */
    alt: text("alt").notNull().default(""),
    /** Marked as adding nothing a reader needs: shown with alt="". */
    decorative: boolean("decorative").notNull().default(false),
    /** For a picture brought in from public/images: its old address (/images/…), which content may still name. */
    sourcePath: text("source_path").unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdById: uuid("created_by_id").references(() => staff.id, { onDelete: "set null" }),
    /** Who added it, as shown: their name then, "command line", "content files". */
    createdByLabel: text("created_by_label").notNull(),
  },
  (table) => [check("media_format", sql`${table.format} in ('jpeg', 'png', 'webp', 'avif')`)],
);

export const mediaFiles = pgTable(
  "media_files",
  {
    mediaId: uuid("media_id")
      .notNull()
      .references(() => media.id, { onDelete: "cascade" }),
    /** The file's name under /media/<key>/: "original.jpg", "640.avif", … */
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  (table) => [primaryKey({ columns: [table.mediaId, table.name] })],
);

// Backups, their restore drills and copies off the machine, the erasure ledger a restore applies,
// and the Health page's alert states (docs/decisions/051-backups-that-restore.md).

/** One row per backup made, by the schedule, from the Health page or by `npm run backup`. */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** "scheduled", "health-page" or "command". */
    trigger: text("trigger").notNull(),
    /** For a scheduled backup, the India date it is for: one per day however many instances. */
    scheduledDay: text("scheduled_day").unique(),
    /** Who asked: a staff member's name, "command line", or the instance that ran the schedule. */
    requestedBy: text("requested_by").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** "running", "done" or "failed". */
    status: text("status").notNull().default("running"),
    /** The archive's file name in BACKUP_DIR (site-<UTC time>.tar.gz, .enc when encrypted). */
    fileName: text("file_name"),
    bytes: bigint("bytes", { mode: "number" }),
    /** Why it failed, in words; null when it did not. */
    error: text("error"),
    /** The restore drill: null while not run, "passed" or "failed", with what it found. */
    drillStatus: text("drill_status"),
    drillAt: timestamp("drill_at", { withTimezone: true }),
    drillDetail: text("drill_detail"),
    /** The copy to BACKUP_S3_URL: null when none is set or not yet tried, "copied" or "failed". */
    copyStatus: text("copy_status"),
    copyAt: timestamp("copy_at", { withTimezone: true }),
    copyDetail: text("copy_detail"),
  },
  (table) => [index("backup_runs_started_idx").on(table.startedAt)],
);

/**
 * Every erasure (admin/privacy, `npm run subscribers -- --remove`): a one-way hash of the address
 * and the time, nothing else. Written beside the backups too, so that restoring a backup made
 * before an erasure erases that address again.
 */
export const erasureLedger = pgTable(
  "erasure_ledger",
  {
    /** SHA-256 (hex) of the lower-cased address. */
    addressHash: text("address_hash").notNull(),
    erasedAt: timestamp("erased_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.addressHash, table.erasedAt] })],
);

/** The Health page's lines that can turn red, and what the admins were last mailed about each. */
export const healthAlerts = pgTable("health_alerts", {
  /** "backups", "mail", "publishing" or "disk". */
  line: text("line").primaryKey(),
  red: boolean("red").notNull(),
  /** The reason in words, as the page and the mail say it. */
  reason: text("reason").notNull(),
  /** When it turned the colour it is. */
  since: timestamp("since", { withTimezone: true }).notNull(),
  /** The last mail about it: one when it turns red, one a day while it stays red, one when clear. */
  lastMailedAt: timestamp("last_mailed_at", { withTimezone: true }),
});

export type BackupRunRow = typeof backupRuns.$inferSelect;
export type HealthAlertRow = typeof healthAlerts.$inferSelect;

// Site search (docs/decisions/054-site-search.md): one row per thing a visitor can find, its
// words weighted title (A) > headings (B) > body (C). The rows of articles, projects and team
// members are written by triggers from their published copy (migration 0013), so no write path
// can forget them; a search joins each row to its item and applies the public read condition of
// public-content.ts, so a draft, an unpublished, a trashed or a scheduled item is never found and
// a scheduled one is found the minute its time comes. Services and industries are pages in code:
// their rows are written by the site (src/server/content/search.ts).

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** The weighted words of a row: search_fold (migration 0013) joins "IEEE-519", "IEEE519" and "IEEE 519". */
export const searchVector = sql.raw(
  `setweight(to_tsvector('english'::regconfig, search_fold(title)), 'A') || setweight(to_tsvector('english'::regconfig, search_fold(headings)), 'B') || setweight(to_tsvector('english'::regconfig, search_fold(body)), 'C')`,
);

export const searchDocuments = pgTable(
  "search_documents",
  {
    /** "article", "project", "team", "service" or "industry". */
    kind: text("kind").notNull(),
    /** The item's id, or a page part's own key for services and industries. */
    key: text("key").notNull(),
    articleId: uuid("article_id").references(() => blogPosts.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    teamMemberId: uuid("team_member_id").references(() => teamMembers.id, { onDelete: "cascade" }),
    /** Where a service or an industry is shown (an item's address comes from its published slug). */
    path: text("path"),
    title: text("title").notNull(),
    headings: text("headings").notNull().default(""),
    /** Plain text: Markdown's marks taken out, what the excerpt is cut from. */
    body: text("body").notNull().default(""),
    vector: tsvector("vector")
      .notNull()
      .generatedAlwaysAs(() => searchVector),
  },
  (table) => [
    primaryKey({ columns: [table.kind, table.key] }),
    index("search_documents_vector_idx").using("gin", table.vector),
    index("search_documents_article_idx").on(table.articleId),
    index("search_documents_project_idx").on(table.projectId),
    index("search_documents_team_member_idx").on(table.teamMemberId),
  ],
);

/** A group of words and phrases that mean the same ("LVRT", "low-voltage ride-through"), kept by admins. */
export const searchSynonyms = pgTable("search_synonyms", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** The terms, folded and lower-cased as a query is (#shared/search.ts), in the order typed. */
  terms: text("terms").array().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  createdByLabel: text("created_by_label").notNull(),
});

/**
 * Searches that found nothing, per India day and query text (folded, lower-cased, at most 200
 * characters): nothing else, so nothing says who searched.
 */
export const searchMisses = pgTable(
  "search_misses",
  {
    /** The India date, YYYY-MM-DD. */
    day: text("day").notNull(),
    query: text("query").notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.day, table.query] })],
);

export type SearchSynonymRow = typeof searchSynonyms.$inferSelect;
