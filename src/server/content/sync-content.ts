import { eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { SCHEMA_LOCK_KEY } from "../db/migrate.ts";
import { blogPosts, projects, teamMembers } from "../db/schema.ts";
import { bumpContentVersion, markContentLoaded } from "./data-version.ts";
import type { SiteContent } from "./load-content.ts";

export type SyncSummary = {
  teamMembers: number;
  projects: number;
  articles: number;
  removed: number;
  /** Rows inserted, updated or removed: only then do the page caches start again. */
  changed: number;
};

/** True when a stored row differs from a content file in any of the file's fields. */
function differs(row: Record<string, unknown>, fields: Record<string, unknown>): boolean {
  return Object.entries(fields).some(([key, value]) => {
    const stored = row[key];
    return value instanceof Date && stored instanceof Date ? value.getTime() !== stored.getTime() : stored !== value;
  });
}

/**
 * Makes the content tables match the content files, in one transaction under the schema lock:
 * rows are updated in place (ids stay), new files are inserted, rows whose file is gone are
 * removed. Only rows that differ are written, and the content version moves only when one was,
 * so an instance starting with unchanged content leaves every instance's page cache alone.
 * Running it twice changes nothing. A collection with a broken file keeps its other rows, so a
 * typo never makes published content disappear.
 */
export async function syncSiteContent(db: Database, content: SiteContent): Promise<SyncSummary> {
  const brokenFolders = new Set(content.problems.map((problem) => problem.file.split(/[\\/]/)[0]));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`);
    let removed = 0;
    let written = 0;

    const teamByName = new Map((await tx.select().from(teamMembers)).map((row) => [row.name, row]));
    for (const member of content.teamMembers) {
      const row = teamByName.get(member.name);
      if (!row) await tx.insert(teamMembers).values({ ...member, status: "published" });
      else if (differs(row, member)) await tx.update(teamMembers).set(member).where(eq(teamMembers.id, row.id));
      else continue;
      written += 1;
    }
    if (!brokenFolders.has("team")) {
      const names = content.teamMembers.map((member) => member.name);
      const gone = await tx
        .delete(teamMembers)
        .where(names.length ? notInArray(teamMembers.name, names) : undefined)
        .returning({ id: teamMembers.id });
      removed += gone.length;
    }

    const projectBySlug = new Map((await tx.select().from(projects)).map((row) => [row.slug, row]));
    for (const project of content.projects) {
      const { slug, ...fields } = project;
      const row = projectBySlug.get(slug);
      if (!row) await tx.insert(projects).values({ ...project, status: "published" });
      else if (differs(row, fields)) await tx.update(projects).set(fields).where(eq(projects.id, row.id));
      else continue;
      written += 1;
    }
    if (!brokenFolders.has("projects")) {
      const slugs = [...content.present.projects];
      const gone = await tx
        .delete(projects)
        .where(slugs.length ? notInArray(projects.slug, slugs) : undefined)
        .returning({ id: projects.id });
      removed += gone.length;
    }

    const published = content.articles.filter((article) => !article.draft);
    const postBySlug = new Map((await tx.select().from(blogPosts)).map((row) => [row.slug, row]));
    for (const article of published) {
      const { slug, draft: _draft, author: _author, ...fields } = article;
      const row = postBySlug.get(slug);
      if (!row) await tx.insert(blogPosts).values({ slug, ...fields, status: "published" });
      else if (differs(row, fields)) await tx.update(blogPosts).set(fields).where(eq(blogPosts.id, row.id));
      else continue;
      written += 1;
    }
    const draftSlugs = content.articles.filter((article) => article.draft).map((article) => article.slug);
    if (draftSlugs.length) {
      const gone = await tx.delete(blogPosts).where(inArray(blogPosts.slug, draftSlugs)).returning({ id: blogPosts.id });
      removed += gone.length;
    }
    if (!brokenFolders.has("articles")) {
      const slugs = [...content.present.articles];
      const gone = await tx
        .delete(blogPosts)
        .where(slugs.length ? notInArray(blogPosts.slug, slugs) : undefined)
        .returning({ id: blogPosts.id });
      removed += gone.length;
    }

    // Every instance's page cache starts again after a sync that changed something
    // (content/data-version.ts).
    const changed = written + removed;
    if (changed > 0) await bumpContentVersion(tx);
    await markContentLoaded(tx);
    return {
      teamMembers: content.teamMembers.length,
      projects: content.projects.length,
      articles: published.length,
      removed,
      changed,
    };
  });
}
