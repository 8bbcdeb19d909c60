import { and, eq, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import { retention } from "#shared/retention.ts";
import { recordAudit } from "../admin/audit/audit.ts";
import { type Database, queryRows } from "../db/client.ts";
import { auditEvents, blogPosts, contactSubmissions, contentRevisions } from "../db/schema.ts";

// The privacy notice's promise made true: spam after SPAM_RETENTION_DAYS, closed enquiries (Won,
// Lost) ENQUIRY_RETENTION_DAYS after they closed, and any enquiry once it is older than the outer
// bound the notice states, are deleted (their notes and queued mail go with them: both cascade;
// their audit events lose their labels).
// The delete is idempotent; the site runs it once a day on one instance (claimDailyRun).

export type RetentionResult = { enquiries: number; spam: number };
export type RetentionPeriods = { spamDays: number; closedEnquiryDays: number };

export const defaultRetentionPeriods: RetentionPeriods = {
  spamDays: retention.spamDays,
  closedEnquiryDays: retention.closedEnquiryDays,
};

export async function deleteExpiredEnquiries(
  db: Database,
  now: Date = new Date(),
  periods: RetentionPeriods = defaultRetentionPeriods,
): Promise<RetentionResult> {
  const enquiryCutoff = new Date(now);
  enquiryCutoff.setUTCMonth(enquiryCutoff.getUTCMonth() - retention.enquiryMonths);
  const spamCutoff = new Date(now.getTime() - periods.spamDays * 86_400_000);
  const closedCutoff = new Date(now.getTime() - periods.closedEnquiryDays * 86_400_000);
  const deleted = await db
    .delete(contactSubmissions)
    .where(
      or(
        and(eq(contactSubmissions.isSpam, false), lt(contactSubmissions.createdAt, enquiryCutoff)),
        and(
          eq(contactSubmissions.isSpam, false),
          inArray(contactSubmissions.status, ["won", "lost"]),
          isNotNull(contactSubmissions.closedAt),
          lt(contactSubmissions.closedAt, closedCutoff),
        ),
        and(eq(contactSubmissions.isSpam, true), lt(contactSubmissions.createdAt, spamCutoff)),
      ),
    )
    .returning({ id: contactSubmissions.id, isSpam: contactSubmissions.isSpam });
  await blankAuditLabels(
    db,
    deleted.map((row) => row.id),
  );
  const spam = deleted.filter((row) => row.isSpam).length;
  return { enquiries: deleted.length - spam, spam };
}

/** Ids per statement: a first purge can delete many enquiries, and a statement takes 65,535 parameters at most. */
const LABEL_BATCH = 1000;

/**
 * Blanks the audit trail's labels of deleted enquiries, as erasure does: events written before
 * 2026-11-25 name the visitor ("ENQ-… First Last"), and the audit trail outlives the enquiry
 * (retention.auditMonths). The events keep their action, time and the enquiry's id.
 */
async function blankAuditLabels(db: Database, enquiryIds: string[]): Promise<void> {
  for (let from = 0; from < enquiryIds.length; from += LABEL_BATCH) {
    await db
      .update(auditEvents)
      .set({ targetLabel: null })
      .where(
        and(
          eq(auditEvents.targetType, "enquiry"),
          inArray(auditEvents.targetId, enquiryIds.slice(from, from + LABEL_BATCH)),
          isNotNull(auditEvents.targetLabel),
        ),
      );
  }
}

/**
 * Claims today's run of a daily job for this instance: true for exactly one caller per day (in
 * UTC) however many instances ask at once. The row in app_settings holds the last day claimed;
 * the conditional update lets one transaction move it forward, and the others find it moved.
 */
export async function claimDailyRun(db: Database, job: string, now: Date = new Date()): Promise<boolean> {
  const day = now.toISOString().slice(0, 10);
  const rows = await queryRows<{ key: string }>(
    db,
    sql`insert into app_settings (key, value) values (${`daily:${job}`}, ${day})
        on conflict (key) do update set value = excluded.value where app_settings.value < excluded.value
        returning key`,
  );
  return rows.length === 1;
}

// The content studio's trash and autosaves (docs/decisions/038-the-database-holds-the-content.md,
// section 2): an article in the trash for 30 days is deleted, its revisions, links, presence and
// redirects with it (each cascades), and old autosaves are thinned.

/** Days an article stays in the trash, restorable, before the daily purge deletes it. */
export const TRASH_DAYS = 30;
/** Autosaves older than this are thinned to the last of each hour per author and item. */
export const AUTOSAVE_KEEP_DAYS = 30;

/** Deletes the articles in the trash for more than TRASH_DAYS, each recorded as "article-purged" by "retention". */
export async function purgeTrashedArticles(db: Database, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - TRASH_DAYS * 86_400_000);
  const purged = await db
    .delete(blogPosts)
    .where(and(isNotNull(blogPosts.deletedAt), lt(blogPosts.deletedAt, cutoff)))
    .returning({ id: blogPosts.id, title: blogPosts.title, headRevisionId: blogPosts.headRevisionId });
  for (const article of purged) {
    // A never-published article has no title in its row; its head revision (gone now) had it,
    // so the audit trail names what it can.
    await recordAudit(
      db,
      {
        actor: { id: null, label: "retention" },
        action: "article-purged",
        target: { type: "article", id: article.id, label: article.title },
        details: { revision: article.headRevisionId, trashDays: TRASH_DAYS },
      },
      now,
    );
  }
  return purged.length;
}

/**
 * Thins autosaves older than AUTOSAVE_KEEP_DAYS to the last of each hour (UTC) per item and
 * author. Never an item's head or published revision, a restore's source, or a revision an audit
 * event names as published or scheduled; every other source (explicit saves, imports, restores)
 * is kept for the item's life.
 */
export async function thinAutosaves(db: Database, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - AUTOSAVE_KEEP_DAYS * 86_400_000);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from ${contentRevisions} r
        where r.source = 'autosave'
          and r.created_at < ${cutoff.toISOString()}
          and not exists (select 1 from blog_posts i where r.id in (i.head_revision_id, i.published_revision_id))
          and not exists (select 1 from projects i where r.id in (i.head_revision_id, i.published_revision_id))
          and not exists (select 1 from team_members i where r.id in (i.head_revision_id, i.published_revision_id))
          and not exists (select 1 from content_revisions x where x.restored_from_id = r.id)
          and not exists (
            select 1 from audit_events e
            where e.action in ('article-published', 'article-scheduled')
              and e.target_id = r.article_id::text
              and e.details->>'revision' in (r.id::text, r.number::text)
          )
          and exists (
            select 1 from content_revisions later
            where later.source = 'autosave'
              and later.article_id is not distinct from r.article_id
              and later.project_id is not distinct from r.project_id
              and later.team_member_id is not distinct from r.team_member_id
              and later.author_id is not distinct from r.author_id
              and later.author_label = r.author_label
              and date_trunc('hour', later.created_at at time zone 'UTC') = date_trunc('hour', r.created_at at time zone 'UTC')
              and (later.created_at, later.id) > (r.created_at, r.id)
          )
        returning r.id`,
  );
  return rows.length;
}

export type DailyPurgeResult = RetentionResult & { articlesPurged: number; autosavesThinned: number };

/**
 * The daily purge: on the first call of a day (UTC) across all instances, deletes what is past
 * its retention period (enquiries, spam, articles in the trash, old autosaves); on every other
 * call, nothing (null). Claim and delete are one transaction, so a purge that fails leaves the
 * day unclaimed for the next try.
 */
export async function dailyRetentionPurge(
  db: Database,
  now: Date,
  periods: RetentionPeriods,
): Promise<DailyPurgeResult | null> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    if (!(await claimDailyRun(t, "retention", now))) return null;
    const enquiries = await deleteExpiredEnquiries(t, now, periods);
    const articlesPurged = await purgeTrashedArticles(t, now);
    const autosavesThinned = await thinAutosaves(t, now);
    return { ...enquiries, articlesPurged, autosavesThinned };
  });
}
