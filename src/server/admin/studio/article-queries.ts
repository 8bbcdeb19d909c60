import { and, asc, isNotNull, sql } from "drizzle-orm";
import { type Database, queryRows } from "../../db/client.ts";
import { blogPosts, contentRevisions, teamMembers } from "../../db/schema.ts";
import { articleIsPublic, teamMemberIsPublic } from "../../content/public-content.ts";
import { staffAuthors } from "../../content/byline.ts";

// What only articles need of the studio's reads: their authors (the team) and categories in use,
// and the articles public now for the checklist's link check. The reads every item shares are in
// item-queries.ts.

/**
 * Whom the Author field offers: the public team (slug and name, in the team page's order), then the
 * members of staff who are not on it (byline.ts), by name.
 */
export async function articleAuthors(db: Database): Promise<{ slug: string; name: string }[]> {
  const rows = await db
    .select({ slug: teamMembers.slug, name: teamMembers.name })
    .from(teamMembers)
    .where(and(teamMemberIsPublic, isNotNull(teamMembers.slug)))
    .orderBy(asc(teamMembers.order), asc(teamMembers.name));
  const team = rows.map((row) => ({ slug: row.slug!, name: row.name ?? row.slug! }));
  return [...team, ...(await staffAuthors(db, new Set(team.map((member) => member.name))))];
}

/** The categories in use: every article's head and published copy, distinct, sorted. */
export async function categoriesInUse(db: Database): Promise<string[]> {
  const rows = await queryRows<{ category: string }>(
    db,
    sql`select distinct category from (
          select ${contentRevisions.document}->>'category' as category
            from ${blogPosts} join ${contentRevisions} on ${contentRevisions.id} = ${blogPosts.headRevisionId}
          union
          select ${blogPosts.category} as category from ${blogPosts}
        ) as used
        where category is not null and category <> ''`,
  );
  return rows.map((row) => row.category).sort((a, b) => a.localeCompare(b, "en"));
}

/** The slugs of the articles public now: for the checklist's link check. */
export async function publicArticleSlugs(db: Database, now: Date): Promise<Set<string>> {
  const rows = await db.select({ slug: blogPosts.slug }).from(blogPosts).where(articleIsPublic(now));
  return new Set(rows.flatMap((row) => (row.slug ? [row.slug] : [])));
}
