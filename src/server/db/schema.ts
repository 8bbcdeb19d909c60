import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";

// The four tables of SPEC section 3, and the enquiry pipeline's own: newsletter subscribers, the
// mail outbox and the shared rate-limit counters. Columns are snake_case in SQL, camelCase in
// TypeScript.

export const contactSubmissions = pgTable("contact_submissions", {
  id: uuid("id").primaryKey().defaultRandom(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  email: text("email").notNull(),
  company: text("company"),
  service: text("service"),
  message: text("message").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** Made by the browser (or the server for a plain form post): the same key stores one row. */
  idempotencyKey: uuid("idempotency_key").notNull().unique().default(sql`gen_random_uuid()`),
  /** Honeypot filled or sent too fast: kept for the record, never notified. */
  isSpam: boolean("is_spam").notNull().default(false),
  spamReason: text("spam_reason"),
});

export const newsletterSubscribers = pgTable("newsletter_subscribers", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Stored lower-cased, so one address subscribes once. */
  email: text("email").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => contactSubmissions.id, { onDelete: "cascade" }),
    /** "notification" to the firm, "acknowledgement" to the visitor. */
    kind: text("kind").notNull(),
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
  },
  (table) => [
    unique("mail_outbox_submission_kind_unique").on(table.submissionId, table.kind),
    index("mail_outbox_due_idx").on(table.status, table.nextAttemptAt),
  ],
);

export const rateLimitHits = pgTable(
  "rate_limit_hits",
  {
    /** A keyed hash of the client address and the limited action, never the address itself. */
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

export const blogPosts = pgTable("blog_posts", {
  id: uuid("id").primaryKey().defaultRandom(),
  title: text("title").notNull(),
  excerpt: text("excerpt").notNull(),
  content: text("content").notNull(),
  category: text("category").notNull(),
  imageUrl: text("image_url").notNull(),
  publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  slug: text("slug").notNull().unique(),
  /** The team member who wrote it, by name, when the content file names one. */
  authorName: text("author_name"),
});

export const teamMembers = pgTable("team_members", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  title: text("title").notNull(),
  expertise: text("expertise").notNull(),
  imageUrl: text("image_url").notNull(),
  linkedinUrl: text("linkedin_url"),
  email: text("email"),
  order: integer("order").notNull().default(0),
});

export const projects = pgTable("projects", {
  id: uuid("id").primaryKey().defaultRandom(),
  title: text("title").notNull(),
  description: text("description").notNull(),
  category: text("category").notNull(),
  imageUrl: text("image_url").notNull(),
  year: text("year").notNull(),
  capacity: text("capacity"),
  timeline: text("timeline"),
  slug: text("slug").notNull().unique(),
});

export type ContactSubmissionRow = typeof contactSubmissions.$inferSelect;
export type BlogPostRow = typeof blogPosts.$inferSelect;
export type TeamMemberRow = typeof teamMembers.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type MailOutboxRow = typeof mailOutbox.$inferSelect;

/** Settings the instances share, such as the generated secret that signs form timestamps. */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});
