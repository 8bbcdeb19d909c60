import { aliasedTable, eq } from "drizzle-orm";
import type { RevisionView } from "#shared/admin/pages.ts";
import { contentRevisions } from "../../db/schema.ts";
import type { Tx } from "../../db/client.ts";
import { type OrderedKindSpec, sharedColumns } from "./ordered-kind.ts";

// What the screens of an ordered kind read: its items in their order, one item with its head
// revision. Every change is in ordered-writes.ts.

/** An item's head revision, as the screens need it. */
export type OrderedHead<Doc> = {
  id: number;
  number: number;
  by: string;
  at: Date;
  source: string;
  restoredFromNumber: number | null;
  document: Doc;
};

/** An item's row (what the back office needs of it) and head revision. */
export type OrderedRecord<Doc> = {
  id: string;
  slug: string | null;
  status: string;
  order: number;
  headRevisionId: number | null;
  publishedRevisionId: number | null;
  deletedAt: Date | null;
  deletedByLabel: string | null;
  head: OrderedHead<Doc> | null;
};

/** Where an item stands for visitors, as the back office says it. */
export type OrderedStatus = "shown" | "hidden" | "trash";

const restored = aliasedTable(contentRevisions, "restored");

/** The reads of one ordered kind. */
export function orderedQueries<Doc>(spec: OrderedKindSpec<Doc>) {
  const table = sharedColumns(spec.table);
  const select = (db: Tx) =>
    db
      .select({
        id: table.id,
        slug: table.slug,
        status: table.status,
        order: table.order,
        headRevisionId: table.headRevisionId,
        publishedRevisionId: table.publishedRevisionId,
        deletedAt: table.deletedAt,
        deletedByLabel: table.deletedByLabel,
        headId: contentRevisions.id,
        headNumber: contentRevisions.number,
        headBy: contentRevisions.authorLabel,
        headAt: contentRevisions.createdAt,
        headSource: contentRevisions.source,
        headDocument: contentRevisions.document,
        restoredFromNumber: restored.number,
      })
      .from(table)
      .leftJoin(contentRevisions, eq(contentRevisions.id, table.headRevisionId))
      .leftJoin(restored, eq(restored.id, contentRevisions.restoredFromId));
  type Row = Awaited<ReturnType<typeof select>>[number];

  const record = ({
    headId,
    headNumber,
    headBy,
    headAt,
    headSource,
    headDocument,
    restoredFromNumber,
    ...row
  }: Row) => ({
    ...row,
    head:
      headId !== null && headDocument !== null
        ? {
            id: headId,
            number: headNumber!,
            by: headBy!,
            at: headAt!,
            source: headSource!,
            restoredFromNumber,
            document: spec.documentOf(headDocument),
          }
        : null,
  });

  return {
    /** Every item, in the kind's order, trashed ones included. */
    async inOrder(db: Tx): Promise<OrderedRecord<Doc>[]> {
      return (await select(db).orderBy(...spec.order)).map(record);
    },
    /** One item (trashed ones too), or undefined. The id must be a UUID already. */
    async load(db: Tx, id: string): Promise<OrderedRecord<Doc> | undefined> {
      const [row] = await select(db).where(eq(table.id, id));
      return row ? record(row) : undefined;
    },
  };
}

/** Where an item stands for visitors, as the back office says it. */
export function orderedStatus(item: Pick<OrderedRecord<unknown>, "status" | "deletedAt">): OrderedStatus {
  if (item.deletedAt) return "trash";
  return item.status === "published" ? "shown" : "hidden";
}

/** An item's head revision as the screens show it. */
export function orderedHeadView(item: OrderedRecord<unknown>): RevisionView | null {
  const head = item.head;
  if (!head) return null;
  return {
    id: head.id,
    number: head.number,
    by: head.by,
    at: head.at.toISOString(),
    source: head.source,
    restoredFrom: head.restoredFromNumber,
    published: item.status === "published" && item.publishedRevisionId === head.id,
  };
}
