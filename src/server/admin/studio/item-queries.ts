import {
  aliasedTable,
  and,
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
import type { ArticleFilter, RevisionView, StudioRowView } from "#shared/admin/pages.ts";
import { type ArticleStatus, articleStatusOf } from "#shared/content/documents.ts";
import type { Database, Tx } from "../../db/client.ts";
import { contentRevisions, type ContentRevisionRow } from "../../db/schema.ts";
import type { ItemRow, ItemTable, StudioKindSpec } from "./kind-spec.ts";

export type { ItemRow };

// The studio's reads of its items, articles and projects alike (decision 038; 042 for projects):
// the list with its search, status filter and counts, one item with its head and published
// revisions, its history. What differs by kind (the table, the columns searched, the document's
// fields) comes from the kind's spec (kinds.ts). The studio reads the item tables directly
// (decision 038 allows src/server/content/ and src/server/admin/studio/ alone); the public's reads
// are in src/server/content/public-content.ts.

// The database or a transaction on it, written once in the database layer.
export type { Tx };

export const ITEMS_PAGE_SIZE = 25;

/** The head revision, joined to an item's row. */
export const head = aliasedTable(contentRevisions, "head");

/** A text field of the head document, or of the published copy for an item without a head yet. */
export const headText = (field: string, fallback?: SQL | Column) =>
  fallback
    ? sql<string>`coalesce(${head.document}->>${field}, ${fallback}, '')`
    : sql<string>`coalesce(${head.document}->>${field}, '')`;

/** The columns every item row has besides its published copy, and its published slug. */

export const itemColumns = (table: ItemTable) => ({
  id: table.id,
  status: table.status,
  publishedAt: table.publishedAt,
  deletedAt: table.deletedAt,
  slug: table.slug,
  headRevisionId: table.headRevisionId,
  publishedRevisionId: table.publishedRevisionId,
  createdAt: table.createdAt,
  studioChangedByLabel: table.studioChangedByLabel,
});

/** The SQL condition of a studio status at `now` (the same rules as articleStatusOf). */
export function statusCondition(table: ItemTable, status: ArticleStatus, now: Date): SQL {
  switch (status) {
    case "trash":
      return isNotNull(table.deletedAt);
    case "draft":
      return and(isNull(table.deletedAt), eq(table.status, "draft"))!;
    case "unpublished":
      return and(isNull(table.deletedAt), eq(table.status, "unpublished"))!;
    case "scheduled":
      return and(isNull(table.deletedAt), eq(table.status, "published"), gt(table.publishedAt, now))!;
    case "published":
      // A project published with no time of its own (from a file) is published.
      return and(
        isNull(table.deletedAt),
        eq(table.status, "published"),
        sql`(${table.publishedAt} is null or ${lte(table.publishedAt, now)})`,
      )!;
  }
}

/** A LIKE pattern that finds `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * One page of a studio list. No status: everything but the trash; "all": the trash too. The
 * search looks in the head's text fields the kind names, ignoring case. `extra` adds the kind's
 * own columns (an article's author, a project's year) to each row.
 */
export async function listItems<Extra extends string>(
  db: Database,
  spec: StudioKindSpec,
  input: { filter: ArticleFilter; page: number; now: Date; extra: Record<Extra, SQL<string | null>> },
): Promise<{ rows: (StudioRowView & { extra: Record<Extra, string | null> })[]; more: boolean }> {
  const { table } = spec;
  const { filter, page, now } = input;
  const conditions: (SQL | undefined)[] = [];
  if (filter.status === "") conditions.push(isNull(table.deletedAt));
  else if (filter.status !== "all") conditions.push(statusCondition(table, filter.status as ArticleStatus, now));
  if (filter.q) conditions.push(sql`${spec.searchText()} ilike ${containing(filter.q)}`);
  const changedAt = sql<Date>`coalesce(${head.createdAt}, ${table.createdAt})`;
  const found = await db
    .select({
      ...itemColumns(table),
      title: headText("title", table.title),
      category: headText("category", table.category),
      changedAt: head.createdAt,
      changedBy: sql<string>`coalesce(${head.authorLabel}, ${table.studioChangedByLabel}, '')`,
      // The kind's own columns, read back by name below (their names are not the common ones).
      ...(input.extra as Record<string, SQL<string | null>>),
    })
    .from(table)
    .leftJoin(head, eq(head.id, table.headRevisionId))
    .where(and(...conditions))
    .orderBy(desc(changedAt), desc(table.id))
    .limit(ITEMS_PAGE_SIZE + 1)
    .offset((page - 1) * ITEMS_PAGE_SIZE);
  const rows = found.slice(0, ITEMS_PAGE_SIZE);
  return {
    more: found.length > ITEMS_PAGE_SIZE,
    rows: rows.map((row) => {
      const status = articleStatusOf(row, now);
      return {
        id: row.id,
        title: row.title,
        status,
        category: row.category,
        changedAt: (row.changedAt ?? row.createdAt).toISOString(),
        changedBy: row.changedBy,
        publicPath: status === "published" && row.slug ? spec.publicPath(row.slug) : null,
        publishedAt:
          (status === "published" || status === "scheduled") && row.publishedAt ? row.publishedAt.toISOString() : null,
        extra: Object.fromEntries(
          Object.keys(input.extra).map((name) => [name, (row as Record<string, unknown>)[name] ?? null]),
        ) as Record<Extra, string | null>,
      };
    }),
  };
}

/** How many items of the kind have each status now. */
export async function itemCounts(
  db: Database,
  spec: StudioKindSpec,
  now: Date,
): Promise<Record<ArticleStatus, number>> {
  const statuses: ArticleStatus[] = ["draft", "scheduled", "published", "unpublished", "trash"];
  const [row] = await db
    .select(
      Object.fromEntries(
        statuses.map((status) => [
          status,
          sql<number>`(count(*) filter (where ${statusCondition(spec.table, status, now)}))::int`,
        ]),
      ) as Record<ArticleStatus, SQL<number>>,
    )
    .from(spec.table);
  return Object.fromEntries(statuses.map((status) => [status, Number(row?.[status] ?? 0)])) as Record<
    ArticleStatus,
    number
  >;
}

export type RevisionRecord<Doc = unknown> = Pick<
  ContentRevisionRow,
  "id" | "number" | "authorLabel" | "createdAt" | "source" | "restoredFromId" | "baseRevisionId" | "hash"
> & { document: Doc; restoredFromNumber: number | null };

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

/** Revisions of one item by id (only the item's own: an id of another item's finds nothing). */
export async function itemRevisions<Doc>(
  db: Tx,
  spec: StudioKindSpec<Doc>,
  itemId: string,
  ids?: number[],
): Promise<RevisionRecord<Doc>[]> {
  if (ids && !ids.length) return [];
  const rows = await db
    .select(revisionColumns)
    .from(contentRevisions)
    .leftJoin(restored, eq(restored.id, contentRevisions.restoredFromId))
    .where(and(eq(spec.revisionItem, itemId), ids ? inArray(contentRevisions.id, ids) : undefined))
    .orderBy(desc(contentRevisions.number));
  return rows.map((row: Omit<RevisionRecord, "document"> & { document: Record<string, unknown> }) => ({
    ...row,
    document: spec.documentOf(row.document),
  }));
}

/** Every revision of an item, newest first, without their documents (a history may hold hundreds). */
export async function revisionList(
  db: Database,
  spec: StudioKindSpec,
  itemId: string,
  page: { limit: number; offset: number },
): Promise<Omit<RevisionRecord, "document">[]> {
  const { document: _document, ...columns } = revisionColumns;
  return db
    .select(columns)
    .from(contentRevisions)
    .leftJoin(restored, eq(restored.id, contentRevisions.restoredFromId))
    .where(eq(spec.revisionItem, itemId))
    .orderBy(desc(contentRevisions.number))
    .limit(page.limit)
    .offset(page.offset);
}

/** Revisions of one item by id, without their documents (History's entries: each a run's newest). */
export async function itemRevisionsWithout(
  db: Database,
  spec: StudioKindSpec,
  itemId: string,
  ids: number[],
): Promise<Omit<RevisionRecord, "document">[]> {
  if (!ids.length) return [];
  const { document: _document, ...columns } = revisionColumns;
  return db
    .select(columns)
    .from(contentRevisions)
    .leftJoin(restored, eq(restored.id, contentRevisions.restoredFromId))
    .where(and(eq(spec.revisionItem, itemId), inArray(contentRevisions.id, ids)))
    .orderBy(desc(contentRevisions.number));
}

/** A revision as the screens show it. */
export function revisionView(
  revision: Omit<RevisionRecord, "document">,
  item: Pick<ItemRow, "publishedRevisionId" | "status">,
): RevisionView {
  return {
    id: revision.id,
    number: revision.number,
    by: revision.authorLabel,
    at: revision.createdAt.toISOString(),
    source: revision.source,
    restoredFrom: revision.restoredFromNumber,
    published: item.status === "published" && item.publishedRevisionId === revision.id,
  };
}

/** An item with its head revision (undefined before its first) and the revision the public reads. */
export type LoadedItem<Doc = unknown> = {
  row: ItemRow;
  head: RevisionRecord<Doc> | undefined;
  published: RevisionRecord<Doc> | undefined;
};

/** The item of this kind with this id (trashed ones too), or undefined. The id must be a UUID already. */
export async function loadItem<Doc>(
  db: Tx,
  spec: StudioKindSpec<Doc>,
  id: string,
): Promise<LoadedItem<Doc> | undefined> {
  const [row] = await db.select(itemColumns(spec.table)).from(spec.table).where(eq(spec.table.id, id));
  if (!row) return undefined;
  const wanted = [row.headRevisionId, row.publishedRevisionId].filter((value): value is number => value !== null);
  const revisions = await itemRevisions(db, spec, id, wanted);
  return {
    row,
    head: revisions.find((revision) => revision.id === row.headRevisionId),
    published: revisions.find((revision) => revision.id === row.publishedRevisionId),
  };
}

/** The item's row, locked until the transaction ends: studio changes of one item take turns. */
export async function lockItem(tx: Tx, spec: StudioKindSpec, id: string): Promise<ItemRow | undefined> {
  const [row] = await tx.select(itemColumns(spec.table)).from(spec.table).where(eq(spec.table.id, id)).for("update");
  return row;
}

/** Whether the item is public now (published, its time come or none, not in the trash). */
export const isPublicNow = (row: Pick<ItemRow, "status" | "publishedAt" | "deletedAt">, now: Date) =>
  articleStatusOf(row, now) === "published";

/** Other items of the table than this one: for queries that must leave it out. */
export const otherThan = (table: ItemTable, id: string | null) => (id ? ne(table.id, id) : undefined);
