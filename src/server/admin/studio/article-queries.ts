import {
  aliasedTable,
  and,
  asc,
  type Column,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  type SQL,
  sql,
} from "drizzle-orm";
import type { ArticleFilter, ArticleRowView, RevisionView } from "#shared/admin/pages.ts";
import { type ArticleDocument, type ArticleStatus, articleStatusOf } from "#shared/content/documents.ts";
import { articlePath } from "#shared/paths.ts";
import { type Database, queryRows } from "../../db/client.ts";
import {
  blogPosts,
  type BlogPostRow,
  contentLinks,
  contentRevisions,
  type ContentRevisionRow,
  teamMembers,
} from "../../db/schema.ts";
import { articleIsPublic, teamMemberIsPublic } from "../../content/public-content.ts";
import { articleDocumentOf } from "./article-fields.ts";

// The studio's reads of articles: the list with its search, status filter and counts, one article
// with its head and published revisions, the history, and what the editor offers (categories in
// use, the team). The studio reads the item tables directly (decision 038 allows src/server/content/
// and src/server/admin/studio/ alone); the public's reads are in src/server/content/public-content.ts.

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0] | Database;

export const ARTICLES_PAGE_SIZE = 25;

const head = aliasedTable(contentRevisions, "head");

/** A text field of the head document, or of the published copy for an article without a head yet. */
const headText = (field: string, fallback?: SQL | Column) =>
  fallback
    ? sql<string>`coalesce(${head.document}->>${field}, ${fallback}, '')`
    : sql<string>`coalesce(${head.document}->>${field}, '')`;

/** The SQL condition of a studio status at `now` (the same rules as articleStatusOf). */
export function statusCondition(status: ArticleStatus, now: Date): SQL {
  switch (status) {
    case "trash":
      return isNotNull(blogPosts.deletedAt);
    case "draft":
      return and(isNull(blogPosts.deletedAt), eq(blogPosts.status, "draft"))!;
    case "unpublished":
      return and(isNull(blogPosts.deletedAt), eq(blogPosts.status, "unpublished"))!;
    case "scheduled":
      return and(isNull(blogPosts.deletedAt), eq(blogPosts.status, "published"), gt(blogPosts.publishedAt, now))!;
    case "published":
      return and(isNull(blogPosts.deletedAt), eq(blogPosts.status, "published"), lte(blogPosts.publishedAt, now))!;
  }
}

/** A LIKE pattern that finds `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * One page of the articles list. No status: everything but the trash; "all": the trash too. The
 * search looks in the head's title, excerpt and body, ignoring case.
 */
export async function listArticles(
  db: Database,
  filter: ArticleFilter,
  page: number,
  now: Date,
): Promise<{ rows: ArticleRowView[]; more: boolean }> {
  const conditions: (SQL | undefined)[] = [];
  if (filter.status === "") conditions.push(isNull(blogPosts.deletedAt));
  else if (filter.status !== "all") conditions.push(statusCondition(filter.status as ArticleStatus, now));
  if (filter.q) {
    const searched = sql`(${headText("title", blogPosts.title)} || ' ' || ${headText("excerpt", blogPosts.excerpt)} || ' ' || ${headText("body", blogPosts.content)})`;
    conditions.push(sql`${searched} ilike ${containing(filter.q)}`);
  }
  const changedAt = sql<Date>`coalesce(${head.createdAt}, ${blogPosts.createdAt})`;
  const found = await db
    .select({
      id: blogPosts.id,
      status: blogPosts.status,
      publishedAt: blogPosts.publishedAt,
      deletedAt: blogPosts.deletedAt,
      publishedSlug: blogPosts.slug,
      title: headText("title", blogPosts.title),
      category: headText("category", blogPosts.category),
      author: headText("author"),
      publishedAuthorName: blogPosts.authorName,
      changedAt: head.createdAt,
      createdAt: blogPosts.createdAt,
      changedBy: sql<string>`coalesce(${head.authorLabel}, ${blogPosts.studioChangedByLabel}, '')`,
    })
    .from(blogPosts)
    .leftJoin(head, eq(head.id, blogPosts.headRevisionId))
    .where(and(...conditions))
    .orderBy(desc(changedAt), desc(blogPosts.id))
    .limit(ARTICLES_PAGE_SIZE + 1)
    .offset((page - 1) * ARTICLES_PAGE_SIZE);
  const rows = found.slice(0, ARTICLES_PAGE_SIZE);
  const names = await teamMemberNames(
    db,
    rows.map((row) => row.author),
  );
  return {
    more: found.length > ARTICLES_PAGE_SIZE,
    rows: rows.map((row) => {
      const status = articleStatusOf(row, now);
      return {
        id: row.id,
        title: row.title,
        status,
        category: row.category,
        authorName: row.author ? (names.get(row.author) ?? null) : row.publishedAuthorName,
        changedAt: (row.changedAt ?? row.createdAt).toISOString(),
        changedBy: row.changedBy,
        publicPath: status === "published" && row.publishedSlug ? articlePath(row.publishedSlug) : null,
        publishedAt:
          (status === "published" || status === "scheduled") && row.publishedAt ? row.publishedAt.toISOString() : null,
      };
    }),
  };
}

/** How many articles have each status now. */
export async function articleCounts(db: Database, now: Date): Promise<Record<ArticleStatus, number>> {
  const statuses: ArticleStatus[] = ["draft", "scheduled", "published", "unpublished", "trash"];
  const [row] = await db
    .select(
      Object.fromEntries(
        statuses.map((status) => [status, sql<number>`(count(*) filter (where ${statusCondition(status, now)}))::int`]),
      ) as Record<ArticleStatus, SQL<number>>,
    )
    .from(blogPosts);
  return Object.fromEntries(statuses.map((status) => [status, Number(row?.[status] ?? 0)])) as Record<
    ArticleStatus,
    number
  >;
}

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

export type RevisionRecord = Pick<
  ContentRevisionRow,
  "id" | "number" | "authorLabel" | "createdAt" | "source" | "restoredFromId" | "baseRevisionId" | "hash"
> & { document: ArticleDocument; restoredFromNumber: number | null };

const restored = aliasedTable(contentRevisions, "restored");

const revisionColumns = {
  id: contentRevisions.id,
  number: contentRevisions.number,
  authorLabel: contentRevisions.authorLabel,
  createdAt: contentRevisions.createdAt,
  source: contentRevisions.source,
  restoredFromId: contentRevisions.restoredFromId,
  baseRevisionId: contentRevisions.baseRevisionId,
  hash: contentRevisions.hash,
  document: contentRevisions.document,
  restoredFromNumber: restored.number,
};

function revisionRecord(row: Omit<RevisionRecord, "document"> & { document: Record<string, unknown> }): RevisionRecord {
  return { ...row, document: articleDocumentOf(row.document) };
}

/** Revisions of one article by id (only the article's own: an id of another item's finds nothing). */
export async function articleRevisions(db: Tx, articleId: string, ids?: number[]): Promise<RevisionRecord[]> {
  if (ids && !ids.length) return [];
  const rows = await db
    .select(revisionColumns)
    .from(contentRevisions)
    .leftJoin(restored, eq(restored.id, contentRevisions.restoredFromId))
    .where(and(eq(contentRevisions.articleId, articleId), ids ? inArray(contentRevisions.id, ids) : undefined))
    .orderBy(desc(contentRevisions.number));
  return rows.map(revisionRecord);
}

/** Every revision of an article, newest first, without their documents (a history may hold hundreds). */
export async function revisionList(db: Database, articleId: string): Promise<Omit<RevisionRecord, "document">[]> {
  const { document: _document, ...columns } = revisionColumns;
  return db
    .select(columns)
    .from(contentRevisions)
    .leftJoin(restored, eq(restored.id, contentRevisions.restoredFromId))
    .where(eq(contentRevisions.articleId, articleId))
    .orderBy(desc(contentRevisions.number));
}

/** A revision as the screens show it. */
export function revisionView(
  revision: Omit<RevisionRecord, "document">,
  article: Pick<BlogPostRow, "publishedRevisionId" | "status">,
): RevisionView {
  return {
    id: revision.id,
    number: revision.number,
    by: revision.authorLabel,
    at: revision.createdAt.toISOString(),
    source: revision.source,
    restoredFrom: revision.restoredFromNumber,
    published: article.status === "published" && article.publishedRevisionId === revision.id,
  };
}

/** An article with its head revision (undefined before its first) and the revision the public reads. */
export type LoadedArticle = {
  row: BlogPostRow;
  head: RevisionRecord | undefined;
  published: RevisionRecord | undefined;
};

/** The article with this id (trashed ones too), or undefined. The id must be a UUID already. */
export async function loadArticle(db: Tx, id: string): Promise<LoadedArticle | undefined> {
  const [row] = await db.select().from(blogPosts).where(eq(blogPosts.id, id));
  if (!row) return undefined;
  const wanted = [row.headRevisionId, row.publishedRevisionId].filter((value): value is number => value !== null);
  const revisions = await articleRevisions(db, id, wanted);
  return {
    row,
    head: revisions.find((revision) => revision.id === row.headRevisionId),
    published: revisions.find((revision) => revision.id === row.publishedRevisionId),
  };
}

/** The article's row, locked until the transaction ends: studio changes of one article take turns. */
export async function lockArticle(tx: Tx, id: string): Promise<BlogPostRow | undefined> {
  const [row] = await tx.select().from(blogPosts).where(eq(blogPosts.id, id)).for("update");
  return row;
}

/** Whether the article is public now (published, its time come, not in the trash). */
export const isPublicNow = (row: Pick<BlogPostRow, "status" | "publishedAt" | "deletedAt">, now: Date) =>
  articleStatusOf(row, now) === "published";

/** The slugs of the articles public now, other than `exceptId`: for the checklist's link check. */
export async function publicArticleSlugs(db: Database, now: Date): Promise<Set<string>> {
  const rows = await db.select({ slug: blogPosts.slug }).from(blogPosts).where(articleIsPublic(now));
  return new Set(rows.flatMap((row) => (row.slug ? [row.slug] : [])));
}

/** Other articles than this one: for queries that must leave it out. */
export const otherThan = (id: string | null) => (id ? ne(blogPosts.id, id) : undefined);

/** A preview or share link of this article (a link of another article is none). */
export async function articleLink(db: Database, articleId: string, linkId: string) {
  const [link] = await db
    .select({ id: contentLinks.id, createdBy: contentLinks.createdBy, kind: contentLinks.kind })
    .from(contentLinks)
    .where(and(eq(contentLinks.id, linkId), eq(contentLinks.articleId, articleId)));
  return link;
}
