import { and, eq, or, sql } from "drizzle-orm";
import { contentRedirects } from "../../db/schema.ts";
import { head, otherThan, type Tx } from "./item-queries.ts";
import type { StudioKindSpec } from "./kinds.ts";
import { indiaDateLabel } from "./studio-time.ts";

// An item's address (decision 038, section 2): a slug is one article's (or one project's) at a
// time. It may not be another item's of the same kind: its current slug (its head's), its
// published slug, or an old slug that still leads there (content_redirects), so no redirect can
// point in a circle or take another item's links. Publishing a new slug keeps the old one as a
// redirect when the item was ever public; taking an old slug of the same item back deletes its
// redirect (a→b→a leaves only b). Articles and projects have addresses of their own (/blog/…,
// /projects/…): an article and a project may share a slug.

/** What stops `slug` from being this item's address, in words for the Slug field; undefined when free. */
export async function slugProblem(
  db: Tx,
  spec: StudioKindSpec,
  itemId: string | null,
  slug: string,
  now: Date,
): Promise<string | undefined> {
  if (!slug) return undefined;
  const { table } = spec;
  const untitled = `an untitled ${spec.noun}`;
  const title = sql<string>`coalesce(${head.document}->>'title', ${table.title}, '')`;
  const [taken] = await db
    .select({ title })
    .from(table)
    .leftJoin(head, eq(head.id, table.headRevisionId))
    .where(and(otherThan(table, itemId), or(eq(table.slug, slug), sql`${head.document}->>'slug' = ${slug}`)))
    .limit(1);
  if (taken) return `${spec.publicPath(slug)} is the address of «${taken.title || untitled}»`;
  const [redirect] = await db
    .select({ createdAt: contentRedirects.createdAt, title })
    .from(contentRedirects)
    .innerJoin(table, eq(table.id, spec.redirectItem))
    .leftJoin(head, eq(head.id, table.headRevisionId))
    .where(and(eq(contentRedirects.kind, spec.kind), eq(contentRedirects.oldSlug, slug), otherThan(table, itemId)))
    .limit(1);
  if (redirect) {
    return `${spec.publicPath(slug)} led to «${redirect.title || untitled}» until ${indiaDateLabel(redirect.createdAt, now)}; choose another`;
  }
  return undefined;
}

/** `base`, or base-2, base-3… : the first that is free (for a slug made from a title, not typed). */
export async function freeSlug(db: Tx, spec: StudioKindSpec, base: string, now: Date): Promise<string> {
  if (!base) return base;
  for (let next = 1; next < 100; next += 1) {
    const suffix = next === 1 ? "" : `-${next}`;
    const candidate = `${base.slice(0, 120 - suffix.length).replace(/-+$/, "")}${suffix}`;
    if (!(await slugProblem(db, spec, null, candidate, now))) return candidate;
  }
  return "";
}

/**
 * After publishing `newSlug` for an item whose published slug was `oldSlug`: the old address
 * leads to the item (when it was ever public), and a redirect of the new one is no longer one.
 */
export async function moveRedirects(
  tx: Tx,
  spec: StudioKindSpec,
  input: { itemId: string; oldSlug: string | null; newSlug: string; wasPublic: boolean; by: string; now: Date },
): Promise<void> {
  await tx
    .delete(contentRedirects)
    .where(
      and(
        eq(contentRedirects.kind, spec.kind),
        eq(contentRedirects.oldSlug, input.newSlug),
        eq(spec.redirectItem, input.itemId),
      ),
    );
  if (input.oldSlug && input.oldSlug !== input.newSlug && input.wasPublic) {
    await tx
      .insert(contentRedirects)
      .values({
        kind: spec.kind,
        oldSlug: input.oldSlug,
        ...(spec.kind === "article" ? { articleId: input.itemId } : { projectId: input.itemId }),
        createdAt: input.now,
        createdByLabel: input.by,
      })
      .onConflictDoNothing();
  }
}
