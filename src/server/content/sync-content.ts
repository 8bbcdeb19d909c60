import { eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { SCHEMA_LOCK_KEY } from "../db/migrate.ts";
import { blogPosts, projects, teamMembers } from "../db/schema.ts";
import { bumpContentVersion } from "./data-version.ts";
import type { SiteContent } from "./load-content.ts";

export type SyncSummary = { teamMembers: number; projects: number; articles: number; removed: number };

/**
 * Makes the content tables match the content files, in one transaction under the schema lock:
 * rows are updated in place (ids stay), new files are inserted, rows whose file is gone are
 * removed. Running it twice changes nothing. A collection with a broken file keeps its other
 * rows, so a typo never makes published content disappear.
 */
export async function syncSiteContent(db: Database, content: SiteContent): Promise<SyncSummary> {
  const brokenFolders = new Set(content.problems.map((problem) => problem.file.split(/[\\/]/)[0]));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`);
    let removed = 0;

    const existingTeam = await tx.select({ id: teamMembers.id, name: teamMembers.name }).from(teamMembers);
    const idByName = new Map(existingTeam.map((row) => [row.name, row.id]));
    for (const member of content.teamMembers) {
      const id = idByName.get(member.name);
      if (id) await tx.update(teamMembers).set(member).where(eq(teamMembers.id, id));
      else await tx.insert(teamMembers).values(member);
    }
    if (!brokenFolders.has("team")) {
      const names = content.teamMembers.map((member) => member.name);
      const gone = await tx
        .delete(teamMembers)
        .where(names.length ? notInArray(teamMembers.name, names) : undefined)
        .returning({ id: teamMembers.id });
      removed += gone.length;
    }

    for (const project of content.projects) {
      const { slug: _slug, ...fields } = project;
      await tx.insert(projects).values(project).onConflictDoUpdate({ target: projects.slug, set: fields });
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
    for (const article of published) {
      const { slug, draft: _draft, author: _author, ...fields } = article;
      await tx
        .insert(blogPosts)
        .values({ slug, ...fields })
        .onConflictDoUpdate({ target: blogPosts.slug, set: fields });
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

    // Every instance's page cache starts again after a sync (content/data-version.ts).
    await bumpContentVersion(tx);
    return {
      teamMembers: content.teamMembers.length,
      projects: content.projects.length,
      articles: published.length,
      removed,
    };
  });
}
