import { and, count, desc, eq, isNotNull, like, max, ne, or } from "drizzle-orm";
import type { NewsletterArticleChoice, NewsletterFieldsView } from "#shared/admin/pages.ts";
import { NEWSLETTER_LIMITS } from "#shared/admin/schemas.ts";
import { slugFromTitle } from "#shared/content/documents.ts";
import { indiaDay } from "#shared/india-time.ts";
import type { Database } from "../../db/client.ts";
import { newsletters, newsletterSubscribers } from "../../db/schema.ts";
import { listBlogPosts } from "../../content/public-content.ts";

// The newsletters' reads and writes for the back office. Sending is not here: it is
// src/server/newsletter/queue.ts (sendNewsletter), which freezes the snapshot and queues the mail
// in one transaction. The articles to choose from are read through the public content's own query
// (listBlogPosts), so that only public articles are offered, by the one rule of what is public.

export type NewsletterRow = typeof newsletters.$inferSelect;

/** A unique constraint refused the row (the driver's error, or drizzle's wrapping of it as `cause`). */
const isUniqueViolation = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  ((error as { code?: unknown }).code === "23505" || isUniqueViolation((error as { cause?: unknown }).cause));

/** Confirmed subscribers now: whom a send would reach. */
export async function confirmedSubscribers(db: Database): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.status, "confirmed"));
  return row?.n ?? 0;
}

/**
 * Every newsletter, newest first. Not paged: a firm sends one a month or so, and a list of a few
 * hundred rows is still one light page.
 */
export async function listNewsletters(db: Database): Promise<NewsletterRow[]> {
  return db.select().from(newsletters).orderBy(desc(newsletters.createdAt), desc(newsletters.id));
}

export async function loadNewsletter(db: Database, id: string): Promise<NewsletterRow | undefined> {
  const [row] = await db.select().from(newsletters).where(eq(newsletters.id, id));
  return row;
}

/** The public articles, newest first: what "Articles to feature" offers. */
export async function articleChoices(db: Database, now: Date): Promise<NewsletterArticleChoice[]> {
  const posts = await listBlogPosts(db, now);
  return posts.map((post) => ({ id: post.id, title: post.title, publishedAt: post.publishedAt }));
}

/** When the last newsletter was sent (sending or sent), or null when none ever was. */
export async function lastSentAt(db: Database): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(newsletters.sentAt) })
    .from(newsletters)
    .where(and(ne(newsletters.status, "draft"), isNotNull(newsletters.sentAt)));
  return row?.at ?? null;
}

/**
 * The articles a new newsletter features unless changed: those published since the last sent
 * newsletter, or the newest three when none was ever sent; never more than the form allows.
 */
export function defaultArticleIds(choices: NewsletterArticleChoice[], since: Date | null): string[] {
  const chosen = since ? choices.filter((choice) => new Date(choice.publishedAt) > since) : choices.slice(0, 3);
  return chosen.slice(0, NEWSLETTER_LIMITS.articles).map((choice) => choice.id);
}

/**
 * The campaign name (utm_campaign) of a newsletter made now: its India month and its subject,
 * e.g. `2026-11-insights-for-plant-engineers`; with `-2`, `-3`… (`suffix`) when that name is taken.
 */
export function campaignName(subject: string, now: Date, suffix = 1): string {
  const month = indiaDay(now).slice(0, 7);
  const words = slugFromTitle(subject).slice(0, 50).replace(/-+$/, "") || "newsletter";
  return suffix === 1 ? `${month}-${words}` : `${month}-${words}-${suffix}`;
}

/** The first suffix of `base` no newsletter has: one past the highest taken (a 51st was refused with a 500 when each was tried in turn). */
async function freeSuffix(db: Database, base: string): Promise<number> {
  const rows = await db
    .select({ campaign: newsletters.campaign })
    .from(newsletters)
    .where(or(eq(newsletters.campaign, base), like(newsletters.campaign, `${base.replace(/[\\%_]/g, "\\$&")}-%`)));
  let highest = 0;
  for (const { campaign } of rows) {
    const suffix = campaign === base ? 1 : Number(campaign.slice(base.length + 1));
    if (Number.isSafeInteger(suffix)) highest = Math.max(highest, suffix);
  }
  return highest + 1;
}

/** Adds a draft. Its campaign is made once, here, and stays the newsletter's for good. */
export async function createNewsletter(
  db: Database,
  input: { fields: NewsletterFieldsView; author: { id: string; label: string }; now: Date },
): Promise<NewsletterRow> {
  const { fields, author, now } = input;
  const base = campaignName(fields.subject, now);
  // Another draft made at the same moment may take the suffix found: then the next is looked for.
  for (let attempt = 1; ; attempt += 1) {
    try {
      const [row] = await db
        .insert(newsletters)
        .values({
          subject: fields.subject,
          introduction: fields.introduction,
          articleIds: fields.articleIds,
          campaign: campaignName(fields.subject, now, await freeSuffix(db, base)),
          createdBy: author.id,
          createdAt: now,
          updatedAt: now,
          updatedByLabel: author.label,
        })
        .returning();
      return row!;
    } catch (error) {
      // Only the campaign is unique among what is written: another newsletter has the name.
      if (!isUniqueViolation(error) || attempt >= 20) throw error;
    }
  }
}

export type SaveOutcome =
  | { outcome: "saved"; row: NewsletterRow }
  | { outcome: "unchanged"; row: NewsletterRow }
  | { outcome: "missing" }
  /** Not a draft any more: it was sent. */
  | { outcome: "sent"; row: NewsletterRow }
  /** Someone saved since the version the form was made from. */
  | { outcome: "stale"; row: NewsletterRow };

const sameFields = (row: NewsletterRow, fields: NewsletterFieldsView) =>
  row.subject === fields.subject &&
  row.introduction === fields.introduction &&
  row.articleIds.join() === fields.articleIds.join();

/**
 * Saves a draft's fields when it is still a draft at `expectedVersion`, raising the version: one
 * conditional update, so of two saves from one version exactly one wins, and a send (which also
 * checks the version) and a save cannot both happen from the same one.
 */
export async function saveNewsletter(
  db: Database,
  input: { id: string; expectedVersion: number; fields: NewsletterFieldsView; author: { label: string }; now: Date },
): Promise<SaveOutcome> {
  const { id, expectedVersion, fields, author, now } = input;
  const current = await loadNewsletter(db, id);
  if (!current) return { outcome: "missing" };
  if (current.status !== "draft") return { outcome: "sent", row: current };
  if (current.version !== expectedVersion) return { outcome: "stale", row: current };
  if (sameFields(current, fields)) return { outcome: "unchanged", row: current };
  const [row] = await db
    .update(newsletters)
    .set({
      subject: fields.subject,
      introduction: fields.introduction,
      articleIds: fields.articleIds,
      version: expectedVersion + 1,
      updatedAt: now,
      updatedByLabel: author.label,
    })
    .where(and(eq(newsletters.id, id), eq(newsletters.version, expectedVersion), eq(newsletters.status, "draft")))
    .returning();
  if (row) return { outcome: "saved", row };
  // Changed between the read and the update: say how it stands now.
  const after = await loadNewsletter(db, id);
  if (!after) return { outcome: "missing" };
  return after.status !== "draft" ? { outcome: "sent", row: after } : { outcome: "stale", row: after };
}
