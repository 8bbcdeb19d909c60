import { and, asc, count, lte } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { blogPosts, projects } from "../db/schema.ts";
import { articleIsScheduled, projectIsScheduled } from "./public-content.ts";

// Scheduled articles and projects for the Health page's Publishing line (src/server/admin/health/).
// An item goes public when its time comes on the clock of the instance that reads it: the read's
// condition (public-content.ts), not a job. So an item is "late" on an instance whose clock is
// behind: due by the database's clock, still scheduled on the instance's. Both clocks are
// parameters. Read through the public read's own conditions, on the published copy's title alone.

export type ScheduledItem = { kind: "article" | "project"; id: string; title: string; at: Date };

const LIST_LIMIT = 1000;

/**
 * Items scheduled on the clock `now` (published, not in the trash, their time still to come), and
 * of them those due by `dueBy` (the database's clock less the grace): at most `limit` of the late
 * ones, earliest first, with how many there are, and the next one still to come after `dueBy`.
 */
export async function scheduledItems(
  db: Database,
  clocks: { now: Date; dueBy: Date; limit?: number },
): Promise<{ late: ScheduledItem[]; lateCount: number; scheduled: number; next: ScheduledItem | null }> {
  const limit = Math.min(clocks.limit ?? LIST_LIMIT, LIST_LIMIT);
  const articleLate = and(articleIsScheduled(clocks.now), lte(blogPosts.publishedAt, clocks.dueBy));
  const projectLate = and(projectIsScheduled(clocks.now), lte(projects.publishedAt, clocks.dueBy));
  const articleColumns = { id: blogPosts.id, title: blogPosts.title, at: blogPosts.publishedAt };
  const projectColumns = { id: projects.id, title: projects.title, at: projects.publishedAt };
  const [lateArticles, lateProjects, [articleCount], [projectCount], [articleLateCount], [projectLateCount]] =
    await Promise.all([
      db.select(articleColumns).from(blogPosts).where(articleLate).orderBy(asc(blogPosts.publishedAt)).limit(limit),
      db.select(projectColumns).from(projects).where(projectLate).orderBy(asc(projects.publishedAt)).limit(limit),
      db.select({ count: count() }).from(blogPosts).where(articleIsScheduled(clocks.now)),
      db.select({ count: count() }).from(projects).where(projectIsScheduled(clocks.now)),
      db.select({ count: count() }).from(blogPosts).where(articleLate),
      db.select({ count: count() }).from(projects).where(projectLate),
    ]);
  const upcoming = (later: Date) =>
    Promise.all([
      db
        .select(articleColumns)
        .from(blogPosts)
        .where(articleIsScheduled(later))
        .orderBy(asc(blogPosts.publishedAt))
        .limit(1),
      db
        .select(projectColumns)
        .from(projects)
        .where(projectIsScheduled(later))
        .orderBy(asc(projects.publishedAt))
        .limit(1),
    ]);
  const later = clocks.now.getTime() > clocks.dueBy.getTime() ? clocks.now : clocks.dueBy;
  const [[nextArticle], [nextProject]] = await upcoming(later);
  const item = (kind: ScheduledItem["kind"], row: { id: string; title: string | null; at: Date | null }) => ({
    kind,
    id: row.id,
    title: row.title ?? "Untitled",
    at: row.at!,
  });
  const late = [...lateArticles.map((row) => item("article", row)), ...lateProjects.map((row) => item("project", row))]
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .slice(0, limit);
  const nexts = [
    ...(nextArticle ? [item("article", nextArticle)] : []),
    ...(nextProject ? [item("project", nextProject)] : []),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  return {
    late,
    lateCount: Number(articleLateCount?.count ?? 0) + Number(projectLateCount?.count ?? 0),
    scheduled: Number(articleCount?.count ?? 0) + Number(projectCount?.count ?? 0),
    next: nexts[0] ?? null,
  };
}
