import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { type Database, queryRows } from "../../db/client.ts";
import { blogPosts, contentRevisions, teamMembers } from "../../db/schema.ts";
import { articleIsPublic, teamMemberIsPublic } from "../../content/public-content.ts";
import type { Tx } from "./item-queries.ts";

// What only articles need of the studio's reads: their authors (the team) and categories in use,
// and the articles public now for the checklist's link check. The reads every item shares are in
// item-queries.ts.

/** Team members' names by slug, for the slugs given. */
export async function teamMemberNames(db: Tx, slugs: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(slugs.filter(Boolean))];
  if (!wanted.length) return new Map();
  const rows = await db
    .select({ slug: teamMembers.slug, name: teamMembers.name })
    .from(teamMembers)
    .where(inArray(teamMembers.slug, wanted));
  return new Map(rows.map((row) => [row.slug!, row.name ?? row.slug!]));
}

/** Whether a team member has this slug (in the trash or not: an article may keep its author). */
export async function teamMemberExists(db: Tx, slug: string): Promise<boolean> {
  const [row] = await db.select({ id: teamMembers.id }).from(teamMembers).where(eq(teamMembers.slug, slug));
  return row !== undefined;
}

/** The public team, for the Author field: slug and name, in the team page's order. */
export async function articleAuthors(db: Database): Promise<{ slug: string; name: string }[]> {
  const rows = await db
    .select({ slug: teamMembers.slug, name: teamMembers.name })
    .from(teamMembers)
    .where(and(teamMemberIsPublic, isNotNull(teamMembers.slug)))
    .orderBy(asc(teamMembers.order), asc(teamMembers.name));
  return rows.map((row) => ({ slug: row.slug!, name: row.name ?? row.slug! }));
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
