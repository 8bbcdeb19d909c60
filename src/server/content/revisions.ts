import { createHash } from "node:crypto";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  ARTICLE_FIELDS,
  type ArticleDocument,
  type ContentKind,
  PROJECT_FIELDS,
  type ProjectDocument,
  type TeamMemberDocument,
} from "#shared/content/documents.ts";
import { changesBetween } from "#shared/content/revision-changes.ts";
import type { Tx } from "../db/client.ts";
import { blogPosts, clientLogos, contentRevisions, projects, teamMembers, testimonials } from "../db/schema.ts";

// Revisions: every save of an item is a new, immutable row of content_revisions holding the whole
// document, and the item's row points at the newest (its head). The studio and the importer write
// them through appendRevision alone, so numbering, hashing and the stale-base check are the same
// for both (docs/decisions/038-the-database-holds-the-content.md, sections 2 and 4). An autosave
// may replace the head instead (decision 048): the head's row goes and a new row, with a new id,
// takes its number, so a row's document never changes and a page based on the old id is stale.

export type ContentDocument = ArticleDocument | ProjectDocument | TeamMemberDocument;
export type DocumentOf<Kind extends ContentKind> = Kind extends "article"
  ? ArticleDocument
  : Kind extends "project"
    ? ProjectDocument
    : TeamMemberDocument;

const TEAM_MEMBER_FIELDS = [
  "slug",
  "name",
  "title",
  "expertise",
  "imageUrl",
  "email",
  "linkedinUrl",
] as const satisfies readonly (keyof TeamMemberDocument)[];

const FIELDS: Record<ContentKind, readonly string[]> = {
  article: ARTICLE_FIELDS,
  project: PROJECT_FIELDS,
  "team-member": TEAM_MEMBER_FIELDS,
};

/** The document with its fields in their fixed order, and nothing else: what is stored and hashed. */
export function canonicalDocument<Kind extends ContentKind>(kind: Kind, document: DocumentOf<Kind>): DocumentOf<Kind> {
  const source = document as Record<string, unknown>;
  const canonical: Record<string, unknown> = {};
  for (const field of FIELDS[kind]) canonical[field] = source[field] ?? (kind === "article" ? "" : null);
  return canonical as DocumentOf<Kind>;
}

/** SHA-256 (hex) of the canonical document: two documents with one hash are the same document. */
export function documentHash<Kind extends ContentKind>(kind: Kind, document: DocumentOf<Kind>): string {
  return createHash("sha256")
    .update(JSON.stringify(canonicalDocument(kind, document)))
    .digest("hex");
}

/** A table whose items have revisions: its id and its head's column are what every one shares. */
export type RevisionTable =
  typeof blogPosts | typeof projects | typeof teamMembers | typeof testimonials | typeof clientLogos;

/** The item tables and their revision column, by kind. */
export const contentTables = {
  article: { table: blogPosts, revisionItem: contentRevisions.articleId, itemColumn: "articleId" },
  project: { table: projects, revisionItem: contentRevisions.projectId, itemColumn: "projectId" },
  "team-member": { table: teamMembers, revisionItem: contentRevisions.teamMemberId, itemColumn: "teamMemberId" },
} as const;

/** What a screen or a refusal says about a revision. */
export type RevisionSummary = {
  id: number;
  number: number;
  by: string;
  /** The member of staff who saved it; null for a command line or an import. */
  byId: string | null;
  at: Date;
  source: string;
};

export type RevisionSource = "studio" | "autosave" | "restore" | "import" | "seed";

export type AppendRevision<Kind extends ContentKind> = {
  kind: Kind;
  itemId: string;
  /**
   * The revision the document was made from. When given, the item's head must still be it, or
   * nothing is written and the current head is returned. The importer, which replaces what it
   * finds, passes none.
   */
  baseRevisionId?: number | null;
  document: DocumentOf<Kind>;
  source: RevisionSource;
  /** Who saved it: a member of staff (id and name) or a label alone ("command line"). */
  author: { id: string | null; label: string };
  restoredFromId?: number | null;
  /**
   * The head this revision replaces instead of following (an autosave folded into the one before
   * it: src/server/admin/studio/autosave-folding.ts decides when). The replacement keeps the
   * head's number, base and time, and takes a new id.
   */
  replacesHeadId?: number;
  /**
   * Marks the item as changed in the studio (studio_changed_at/by); the importer passes false and
   * sets origin_hash itself. Defaults to true.
   */
  studioChange?: boolean;
};

export type AppendResult =
  | { outcome: "saved"; revision: RevisionSummary }
  /** The document equals the head's: no revision was made, the head stays. */
  | { outcome: "unchanged"; revision: RevisionSummary }
  /** The head is no longer the base: someone saved meanwhile. Nothing was written. */
  | { outcome: "stale"; current: RevisionSummary }
  /** No such item, or it is in the trash. */
  | { outcome: "missing" };

const summaryColumns = {
  id: contentRevisions.id,
  number: contentRevisions.number,
  by: contentRevisions.authorLabel,
  byId: contentRevisions.authorId,
  at: contentRevisions.createdAt,
  source: contentRevisions.source,
  hash: contentRevisions.hash,
};

/** The item's head revision, or undefined when it has none yet. */
export async function headRevision(
  db: Tx,
  kind: ContentKind,
  itemId: string,
): Promise<(RevisionSummary & { hash: string }) | undefined> {
  return headRevisionIn(db, contentTables[kind], itemId);
}

/**
 * The head revision of an item of any table with revisions (its `head_revision_id`), by the
 * revisions' column naming the item: headRevision's, for kinds kept beside ContentKind
 * (testimonials and client logos, src/server/content/testimonials.ts).
 */
export async function headRevisionIn(
  db: Tx,
  { table, revisionItem }: { table: RevisionTable; revisionItem: AnyPgColumn },
  itemId: string,
): Promise<(RevisionSummary & { hash: string }) | undefined> {
  const [row] = await db
    .select(summaryColumns)
    .from(table)
    .innerJoin(contentRevisions, eq(contentRevisions.id, table.headRevisionId))
    .where(and(eq(table.id, itemId), eq(revisionItem, itemId)));
  return row;
}

/**
 * Appends a revision and makes it the item's head, in the caller's transaction or one of its own.
 * Of two saves on one base exactly one wins: the head moves with `WHERE head_revision_id = base`,
 * and the row lock makes the second wait and then find the new head.
 */
export async function appendRevision<Kind extends ContentKind>(
  db: Tx,
  input: AppendRevision<Kind>,
): Promise<AppendResult> {
  const run = async (tx: Tx): Promise<AppendResult> => {
    const { table, revisionItem, itemColumn } = contentTables[input.kind];
    // The item's row, locked: saves of one item take turns from here to the commit.
    const [item] = await tx
      .select({ headRevisionId: table.headRevisionId, deletedAt: table.deletedAt })
      .from(table)
      .where(eq(table.id, input.itemId))
      .for("update");
    if (!item || (item.deletedAt && input.studioChange !== false)) return { outcome: "missing" };
    const head = await headRevision(tx, input.kind, input.itemId);
    if (
      input.baseRevisionId !== undefined &&
      input.baseRevisionId !== null &&
      item.headRevisionId !== input.baseRevisionId
    ) {
      if (head) return { outcome: "stale", current: head };
    }
    const document = canonicalDocument(input.kind, input.document);
    const hash = documentHash(input.kind, document);
    if (head && head.hash === hash) return { outcome: "unchanged", revision: head };
    let place: { number: number; baseRevisionId: number | null; createdAt?: Date };
    if (input.replacesHeadId !== undefined) {
      if (input.replacesHeadId !== item.headRevisionId) throw new Error("only the head revision can be replaced");
      const [replaced] = await tx
        .delete(contentRevisions)
        .where(and(eq(contentRevisions.id, input.replacesHeadId), eq(revisionItem, input.itemId)))
        .returning({
          number: contentRevisions.number,
          baseRevisionId: contentRevisions.baseRevisionId,
          createdAt: contentRevisions.createdAt,
        });
      if (!replaced) throw new Error("the head revision to replace is not this item's");
      place = replaced;
    } else {
      const [numbered] = await tx
        .select({ next: sql<number>`coalesce(max(${contentRevisions.number}), 0)::int + 1` })
        .from(contentRevisions)
        .where(eq(revisionItem, input.itemId));
      place = { number: numbered!.next, baseRevisionId: input.baseRevisionId ?? item.headRevisionId ?? null };
    }
    // What changed from the revision before this one (by number), kept for History (decision 058).
    const [previous] = await tx
      .select({ document: contentRevisions.document })
      .from(contentRevisions)
      .where(and(eq(revisionItem, input.itemId), lt(contentRevisions.number, place.number)))
      .orderBy(desc(contentRevisions.number))
      .limit(1);
    const changes = previous
      ? changesBetween(input.kind, FIELDS[input.kind], previous.document, document as Record<string, unknown>)
      : null;
    const [inserted] = await tx
      .insert(contentRevisions)
      .values({
        [itemColumn]: input.itemId,
        ...place,
        authorId: input.author.id,
        authorLabel: input.author.label,
        source: input.source,
        restoredFromId: input.restoredFromId ?? null,
        document: document as Record<string, unknown>,
        hash,
        changes,
      })
      .returning(summaryColumns);
    const studio = input.studioChange !== false;
    await tx
      .update(table)
      .set({
        headRevisionId: inserted!.id,
        ...(studio ? { studioChangedAt: sql`now()`, studioChangedByLabel: input.author.label } : {}),
      })
      .where(eq(table.id, input.itemId));
    return { outcome: "saved", revision: inserted! };
  };
  // In a transaction already, this is a savepoint: a refusal leaves the caller's work alone.
  return db.transaction(run);
}

/** One revision of one item; undefined when the revision belongs to another item or does not exist. */
export async function revisionOf<Kind extends ContentKind>(
  db: Tx,
  kind: Kind,
  itemId: string,
  revisionId: number,
): Promise<
  (RevisionSummary & { document: DocumentOf<Kind>; hash: string; restoredFromId: number | null }) | undefined
> {
  const { revisionItem } = contentTables[kind];
  const [row] = await db
    .select({ ...summaryColumns, document: contentRevisions.document, restoredFromId: contentRevisions.restoredFromId })
    .from(contentRevisions)
    .where(and(eq(contentRevisions.id, revisionId), eq(revisionItem, itemId)));
  return row as
    (RevisionSummary & { document: DocumentOf<Kind>; hash: string; restoredFromId: number | null }) | undefined;
}
