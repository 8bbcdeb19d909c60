import { and, isNotNull, lt, sql } from "drizzle-orm";
import { recordAudit } from "../admin/audit/audit.ts";
import { type Database, queryRows } from "../db/client.ts";
import { blogPosts, contentRevisions } from "../db/schema.ts";

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
            where e.action in ('article-published', 'article-scheduled', 'project-published', 'project-scheduled')
              and e.target_id = coalesce(r.article_id, r.project_id)::text
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
