import { and, eq, gt, isNull, lte, or, type SQL } from "drizzle-orm";
import { blogPosts, projects, teamMembers } from "../db/schema.ts";

// When an article, a project or a team member is public: the one read condition of
// docs/decisions/038-the-database-holds-the-content.md, section 3. What the public reads goes
// through public-content.ts, which re-exports these; the content version's watcher
// (data-version.ts) reads them here, so that it does not import the public reads (which read the
// media index, which is kept by the content version: an import cycle).

/** An article is public: published, its time come (`now`, this instance's clock), not in the trash. */
export function articleIsPublic(now: Date): SQL {
  return and(eq(blogPosts.status, "published"), lte(blogPosts.publishedAt, now), isNull(blogPosts.deletedAt))!;
}

/**
 * An article is scheduled: published with a time still to come on this clock, not in the trash.
 * What the content version watches (data-version.ts): it moves when the first of these comes due.
 */
export function articleIsScheduled(now: Date): SQL {
  return and(eq(blogPosts.status, "published"), gt(blogPosts.publishedAt, now), isNull(blogPosts.deletedAt))!;
}

/**
 * A project is public: published, its time come (`now`, this instance's clock) or none given (a
 * project published from a file has no time: public once published), not in the trash.
 */
export function projectIsPublic(now: Date): SQL {
  return and(
    eq(projects.status, "published"),
    or(isNull(projects.publishedAt), lte(projects.publishedAt, now)),
    isNull(projects.deletedAt),
  )!;
}

/** A project is scheduled: published with a time still to come on this clock, not in the trash. */
export function projectIsScheduled(now: Date): SQL {
  return and(eq(projects.status, "published"), gt(projects.publishedAt, now), isNull(projects.deletedAt))!;
}

/** A team member is public: published and not in the trash. */
export const teamMemberIsPublic: SQL = and(eq(teamMembers.status, "published"), isNull(teamMembers.deletedAt))!;
