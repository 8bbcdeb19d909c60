import { aliasedTable, and, eq, or, sql } from "drizzle-orm";
import { articlePath } from "#shared/paths.ts";
import type { Database } from "../../db/client.ts";
import { blogPosts, contentRedirects, contentRevisions } from "../../db/schema.ts";
import { indiaDateLabel } from "./article-fields.ts";
import { otherThan } from "./article-queries.ts";

// An article's address (decision 038, section 2): a slug is one article's at a time. It may not be
// another article's current slug (its head's), its published slug, or an old slug of another
// article that still leads there (content_redirects), so no redirect can point in a circle or take
// another article's links. Publishing a new slug keeps the old one as a redirect when the article
// was ever public; taking an old slug of the same article back deletes its redirect (a→b→a leaves
// only b).

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0] | Database;

const head = aliasedTable(contentRevisions, "head");

/** What stops `slug` from being this article's address, in words for the Slug field; undefined when free. */
export async function slugProblem(
  db: Tx,
  articleId: string | null,
  slug: string,
  now: Date,
): Promise<string | undefined> {
  if (!slug) return undefined;
  const [taken] = await db
    .select({ title: sql<string>`coalesce(${head.document}->>'title', ${blogPosts.title}, '')` })
    .from(blogPosts)
    .leftJoin(head, eq(head.id, blogPosts.headRevisionId))
    .where(and(otherThan(articleId), or(eq(blogPosts.slug, slug), sql`${head.document}->>'slug' = ${slug}`)))
    .limit(1);
  if (taken) return `${articlePath(slug)} is the address of «${taken.title || "an untitled article"}»`;
  const [redirect] = await db
    .select({
      createdAt: contentRedirects.createdAt,
      title: sql<string>`coalesce(${head.document}->>'title', ${blogPosts.title}, '')`,
    })
    .from(contentRedirects)
    .innerJoin(blogPosts, eq(blogPosts.id, contentRedirects.articleId))
    .leftJoin(head, eq(head.id, blogPosts.headRevisionId))
    .where(and(eq(contentRedirects.kind, "article"), eq(contentRedirects.oldSlug, slug), otherThan(articleId)))
    .limit(1);
  if (redirect) {
    return `${articlePath(slug)} led to «${redirect.title || "an untitled article"}» until ${indiaDateLabel(redirect.createdAt, now)}; choose another`;
  }
  return undefined;
}

/** `base`, or base-2, base-3… : the first that is free (for a slug made from a title, not typed). */
export async function freeSlug(db: Tx, base: string, now: Date): Promise<string> {
  if (!base) return base;
  for (let next = 1; next < 100; next += 1) {
    const suffix = next === 1 ? "" : `-${next}`;
    const candidate = `${base.slice(0, 120 - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!(await slugProblem(db, null, candidate, now))) return candidate;
  }
  return "";
}

/**
 * After publishing `newSlug` for an article whose published slug was `oldSlug`: the old address
 * leads to the article (when it was ever public), and a redirect of the new one is no longer one.
 */
export async function moveRedirects(
  tx: Tx,
  input: { articleId: string; oldSlug: string | null; newSlug: string; wasPublic: boolean; by: string; now: Date },
): Promise<void> {
  await tx
    .delete(contentRedirects)
    .where(
      and(
        eq(contentRedirects.kind, "article"),
        eq(contentRedirects.oldSlug, input.newSlug),
        eq(contentRedirects.articleId, input.articleId),
      ),
    );
  if (input.oldSlug && input.oldSlug !== input.newSlug && input.wasPublic) {
    await tx
      .insert(contentRedirects)
      .values({
        kind: "article",
        oldSlug: input.oldSlug,
        articleId: input.articleId,
        createdAt: input.now,
        createdByLabel: input.by,
      })
      .onConflictDoNothing();
  }
}
