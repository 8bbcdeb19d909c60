import { type SQL, sql } from "drizzle-orm";
import type { OrderedKindDefinition } from "#shared/admin/collections/kind.ts";
import type { ContentKind } from "#shared/content/documents.ts";
import type { Tx } from "../../db/client.ts";
import type { teamMembers } from "../../db/schema.ts";

// What the server knows of an ordered kind (src/shared/admin/collections/kind.ts: no draft step,
// a manual order, shown or hidden, the trash): its table, its order, and
// its words where the shared ones would not do. The writes (ordered-writes.ts), the reads
// (ordered-queries.ts) and the routes (ordered-routes.ts) read it; the team is the first such kind
// (docs/decisions/043-the-team-order-is-not-a-revision.md, 059-a-kind-of-content-declared-once.md).

/** The tables of ordered kinds: their bookkeeping columns and their `order` are the same. */
export type OrderedTable = typeof teamMembers;

export type OrderedKindSpec<Doc> = {
  definition: OrderedKindDefinition;
  /** The kind as revisions and publishing name it. */
  contentKind: ContentKind & "team-member";
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
