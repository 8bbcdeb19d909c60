import { type SQL, sql } from "drizzle-orm";
import type { OrderedKindDefinition } from "#shared/admin/collections/kind.ts";
import type { Tx } from "../../db/client.ts";
import type { clientLogos, teamMembers, testimonials } from "../../db/schema.ts";
import { publishRevision, unpublishItem } from "../../content/publishing.ts";
import { appendRevision, type DocumentOf, headRevision, type RevisionSummary } from "../../content/revisions.ts";

// What the server knows of an ordered kind (src/shared/admin/collections/kind.ts: no draft step,
// a manual order, shown or hidden, the trash): its table, its order, and
// its words where the shared ones would not do. The writes (ordered-writes.ts), the reads
// (ordered-queries.ts) and the routes (ordered-routes.ts) read it; the team is the first such kind
// (docs/decisions/043-the-team-order-is-not-a-revision.md, 059-a-kind-of-content-declared-once.md).

/** The tables of ordered kinds: their bookkeeping columns and their `order` are the same. */
export type OrderedTable = typeof teamMembers | typeof testimonials | typeof clientLogos;

/** The same columns under one type, for the queries that read only those (drizzle types a union of tables poorly). */
export const sharedColumns = (table: OrderedTable) => table as typeof teamMembers;

/**
 * How an ordered kind keeps its revisions and its published copy. The team's are the content
 * kinds' (revisions.ts, publishing.ts); testimonials and client logos keep theirs in testimonials.ts.
 */
export type OrderedRevisions<Doc> = {
  /** Appends a revision and makes it the head (the row is locked and its head checked by the caller). */
  append(
    tx: Tx,
    input: { itemId: string; base?: number; document: Doc; author: { id: string; label: string } },
  ): Promise<{ outcome: "saved" | "unchanged"; revision: RevisionSummary } | { outcome: "missing" }>;
  head(tx: Tx, itemId: string): Promise<RevisionSummary | undefined>;
  /** Makes the revision the published copy and the item shown; moves the content version. */
  publish(tx: Tx, input: { itemId: string; revisionId: number; by: string }): Promise<void>;
  /** Takes the item off the site, keeping its copy; moves the content version. */
  unpublish(tx: Tx, itemId: string, by: string): Promise<void>;
};

/** The revisions of the team, kept as those of articles and projects. */
export const teamMemberRevisions: OrderedRevisions<DocumentOf<"team-member">> = {
  async append(tx, input) {
    const saved = await appendRevision(tx, {
      kind: "team-member",
      itemId: input.itemId,
      ...(input.base !== undefined ? { baseRevisionId: input.base } : {}),
      document: input.document,
      source: "studio",
      author: input.author,
    });
    // The caller holds the row and has checked its head: a stale answer cannot happen here.
    if (saved.outcome === "stale") throw new Error("the team member's head moved under its lock");
    return saved;
  },
  head: (tx, itemId) => headRevision(tx, "team-member", itemId),
  async publish(tx, input) {
    await publishRevision(tx, {
      kind: "team-member",
      itemId: input.itemId,
      revisionId: input.revisionId,
      studioChangeBy: input.by,
    });
  },
  unpublish: (tx, itemId, by) => unpublishItem(tx, "team-member", itemId, by),
};

export type OrderedKindSpec<Doc> = {
  definition: OrderedKindDefinition;
  /** How its revisions and its published copy are kept. */
  revisions: OrderedRevisions<Doc>;
  table: OrderedTable;
  /** The kind's order: the `order` column, then what breaks the ties an import may leave (as the public pages read it). */
  order: readonly SQL[];
  /** A stored document as this kind's document. */
  documentOf(stored: Record<string, unknown>): Doc;
  /** How the audit trail and messages name an item. */
  nameOf(document: Doc): string;
  /**
   * A new item's document from its first fields, and its slug where the kind keeps one in its
   * row (a member's file name, what articles name as their author).
   */
  newDocument(tx: Tx, document: Doc): Promise<{ document: Doc; slug?: string }>;
  /** A saved document: the item keeps what the form does not carry (its slug). */
  savedDocument(stored: Record<string, unknown>, document: Doc): Doc;
  /** The kind's own words. */
  words: {
    /** "There is no such member of the team." */
    missing: string;
    /** "This member is in the trash: restore them from the team page first." */
    inTheTrash: string;
    /** "This member is shown on the site already." */
    shownAlready: string;
    /** "This member is hidden already." */
    hiddenAlready: string;
    /** "The team": the audit trail's name for the whole list. */
    list: string;
    /** Why the order after dragging was not saved: the list changed since the page was opened. */
    orderChanged: string;
  };
};

/** Holds the kind's order until the transaction ends: changes of the order take turns. */
export async function lockOrder(tx: Tx, spec: OrderedKindSpec<unknown>): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${spec.definition.listKey}-order`}))`);
}
