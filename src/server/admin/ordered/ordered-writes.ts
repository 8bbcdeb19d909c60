import { eq, inArray, sql } from "drizzle-orm";
import type { Database, Transaction, Tx } from "../../db/client.ts";
import { contentRevisions } from "../../db/schema.ts";
import { bumpContentVersion } from "../../content/data-version.ts";
import type { RevisionSummary } from "../../content/revisions.ts";
import { lockOrder, type OrderedKindSpec, sharedColumns } from "./ordered-kind.ts";

// Every change the back office makes to an ordered kind (the team: decision 043), each one
// transaction:
//
// - add, save, show, hide, move to the trash, restore: the item's row is locked first and the
//   revision the person saw must still be the head (decision 038, section 4), so of two changes
//   made from one revision exactly one wins. A save appends a revision; when the item is shown it
//   becomes the published copy at once.
// - the order: a column of the row, set at once and never by a revision. Every change of it (a
//   move, the order after dragging, an item added or restored) takes the kind's order lock and
//   renumbers every item 1, 2, 3… in one transaction: no gaps, no ties, and two people moving at
//   once take turns, each moving the item from where it is when their turn comes.
//
// Lock order, to leave no room for a deadlock: the kind's order lock before any item's row.

export type OrderedAuthor = { id: string; label: string };

export type OrderedRefusal =
  /** The head is no longer the revision the person saw: someone saved meanwhile. */
  | { outcome: "stale"; current: RevisionSummary }
  /** No such item, or (for anything but restoring) it is in the trash. */
  | { outcome: "missing" }
  /** The action does not apply to the item as it is ("shown already"). */
  | { outcome: "refused"; message: string };

export type OrderedAction = "show" | "hide" | "trash" | "untrash";

/** The writes of one ordered kind. */
export function orderedWrites<Doc>(spec: OrderedKindSpec<Doc>) {
  const table = sharedColumns(spec.table);
  const { revisions } = spec;

  async function lockRow(tx: Transaction, id: string) {
    const [row] = await tx.select().from(table).where(eq(table.id, id)).for("update");
    return row;
  }

  /**
   * Numbers the items 1, 2, 3…: those of `live` in that order (every item not in the trash), then
   * those in the trash in the kind's order. Writes only the rows whose number changes; whether any did.
   */
  async function renumber(tx: Transaction, live: string[]): Promise<boolean> {
    const rows = await tx
      .select({ id: table.id, order: table.order })
      .from(table)
      .orderBy(...spec.order);
    const liveSet = new Set(live);
    const sequence = [...live, ...rows.filter((row) => !liveSet.has(row.id)).map((row) => row.id)];
    const current = new Map(rows.map((row) => [row.id, row.order]));
    let changed = false;
    for (const [index, id] of sequence.entries()) {
      if (current.get(id) === index + 1) continue;
      await tx
        .update(table)
        .set({ order: index + 1 })
        .where(eq(table.id, id));
      changed = true;
    }
    return changed;
  }

  /** The items not in the trash, in the kind's order, their rows locked until the transaction ends. */
  async function liveInOrder(tx: Transaction) {
    const rows = await tx
      .select({ id: table.id, deletedAt: table.deletedAt })
      .from(table)
      .orderBy(...spec.order)
      .for("update");
    return rows.filter((row) => !row.deletedAt).map((row) => row.id);
  }

  /** The item's row for a change based on `base`, or why not. */
  async function rowForChange(tx: Transaction, id: string, base: number, trashed: "refused" | "required") {
    const row = await lockRow(tx, id);
    if (!row || row.headRevisionId === null) return { refusal: { outcome: "missing" } as const };
    if (trashed === "refused" && row.deletedAt) return { refusal: { outcome: "missing" } as const };
    if (trashed === "required" && !row.deletedAt)
      return {
        refusal: { outcome: "refused", message: `This ${spec.definition.noun} is not in the trash.` } as const,
      };
    if (row.headRevisionId !== base) {
      const current = await revisions.head(tx, id);
      return { refusal: current ? ({ outcome: "stale", current } as const) : ({ outcome: "missing" } as const) };
    }
    return { row };
  }

  return {
    /** "Add": the row, its first revision and, when shown, its published copy; placed last. */
    async create(
      db: Database,
      input: { document: Doc; shown: boolean; author: OrderedAuthor },
    ): Promise<{ outcome: "created"; id: string; slug: string | undefined; revision: RevisionSummary }> {
      return db.transaction(async (tx) => {
        await lockOrder(tx, spec as OrderedKindSpec<unknown>);
        const live = await liveInOrder(tx);
        const { document, slug } = await spec.newDocument(tx, input.document);
        const [row] = await tx
          .insert(table)
          .values({ ...(slug ? { slug } : {}), status: "draft", order: live.length + 1 })
          .returning({ id: table.id });
        const id = row!.id;
        const saved = await revisions.append(tx, { itemId: id, document, author: input.author });
        if (saved.outcome !== "saved") throw new Error(`the new item's first revision was not saved: ${saved.outcome}`);
        if (input.shown)
          await revisions.publish(tx, { itemId: id, revisionId: saved.revision.id, by: input.author.label });
        if ((await renumber(tx, [...live, id])) && !input.shown) await bumpContentVersion(tx);
        return { outcome: "created", id, slug, revision: saved.revision };
      });
    },

    /**
     * "Save": a new head revision made from `base`, unless the fields are the head's already. A
     * shown item's new revision is published in the same transaction: the site shows it at once.
     */
    async save(
      db: Database,
      input: { id: string; base: number; document: Doc; author: OrderedAuthor },
    ): Promise<{ outcome: "saved" | "unchanged"; revision: RevisionSummary; shown: boolean } | OrderedRefusal> {
      return db.transaction(async (tx) => {
        const found = await rowForChange(tx, input.id, input.base, "refused");
        if (found.refusal) return found.refusal;
        const { row } = found;
        const head = (await revisions.head(tx, input.id))!;
        const [stored] = await tx
          .select({ document: contentRevisions.document })
          .from(contentRevisions)
          .where(eq(contentRevisions.id, head.id));
        const saved = await revisions.append(tx, {
          itemId: input.id,
          base: input.base,
          document: spec.savedDocument(
            { ...stored?.document, slug: row.slug ?? stored?.document.slug },
            input.document,
          ),
          author: input.author,
        });
        if (saved.outcome === "missing") return saved;
        const shown = row.status === "published";
        if (shown && row.publishedRevisionId !== saved.revision.id)
          await revisions.publish(tx, { itemId: input.id, revisionId: saved.revision.id, by: input.author.label });
        return { outcome: saved.outcome, revision: saved.revision, shown };
      });
    },

    /**
     * Show (its head becomes the published copy), Hide (off the site, its copy kept, and its
     * place), Move to trash (off the site and out of the order, restorable) and Restore (hidden,
     * placed last). The page's revision must still be the head. `canShow` refuses a Show with its
     * reason (what the head lacks to be published).
     */
    async act(
      db: Database,
      input: {
        id: string;
        base: number;
        action: OrderedAction;
        author: OrderedAuthor;
        now: Date;
        canShow?: (document: Doc) => string | undefined;
      },
    ): Promise<{ outcome: "done"; head: RevisionSummary; wasShown: boolean } | OrderedRefusal> {
      return db.transaction(async (tx) => {
        // The trash and back change the order (the item leaves it, or comes back last): the
        // order's lock first, as every change of it.
        if (input.action === "trash" || input.action === "untrash")
          await lockOrder(tx, spec as OrderedKindSpec<unknown>);
        const found = await rowForChange(tx, input.id, input.base, input.action === "untrash" ? "required" : "refused");
        if (found.refusal) return found.refusal;
        const { row } = found;
        const head = (await revisions.head(tx, input.id))!;
        const wasShown = row.status === "published" && !row.deletedAt;
        const changed = { studioChangedAt: sql`now()`, studioChangedByLabel: input.author.label };
        if (input.action === "show") {
          if (wasShown && row.publishedRevisionId === head.id)
            return { outcome: "refused", message: spec.words.shownAlready };
          if (input.canShow) {
            const [stored] = await tx
              .select({ document: contentRevisions.document })
              .from(contentRevisions)
              .where(eq(contentRevisions.id, head.id));
            const reason = input.canShow(spec.documentOf(stored!.document));
            if (reason) return { outcome: "refused", message: reason };
          }
          await revisions.publish(tx, { itemId: input.id, revisionId: head.id, by: input.author.label });
        } else if (input.action === "hide") {
          if (!wasShown) return { outcome: "refused", message: spec.words.hiddenAlready };
          await revisions.unpublish(tx, input.id, input.author.label);
        } else if (input.action === "trash") {
          await tx
            .update(table)
            .set({ deletedAt: input.now, deletedByLabel: input.author.label, ...changed })
            .where(eq(table.id, input.id));
          // The others close up behind it.
          if ((await renumber(tx, await liveInOrder(tx))) || wasShown) await bumpContentVersion(tx);
        } else {
          // Back hidden: an item shown before the trash keeps its published copy, to show again.
          const status = row.status === "published" ? "unpublished" : row.status;
          await tx
            .update(table)
            .set({ deletedAt: null, deletedByLabel: null, status, ...changed })
            .where(eq(table.id, input.id));
          const live = (await liveInOrder(tx)).filter((id) => id !== input.id);
          if (await renumber(tx, [...live, input.id])) await bumpContentVersion(tx);
        }
        return { outcome: "done", head, wasShown };
      });
    },

    /**
     * Move up / Move down: the item changes places with the one before or after it, as the order
     * is when this transaction's turn comes. Hidden items have places too (they keep theirs while
     * hidden). "unmoved" when the item is at that end already.
     */
    async move(
      db: Database,
      input: { id: string; direction: "up" | "down" },
    ): Promise<{ outcome: "moved" | "unmoved"; from: number; to: number } | { outcome: "missing" }> {
      return db.transaction(async (tx) => {
        await lockOrder(tx, spec as OrderedKindSpec<unknown>);
        const live = await liveInOrder(tx);
        const from = live.indexOf(input.id);
        if (from < 0) return { outcome: "missing" };
        const to = input.direction === "up" ? from - 1 : from + 1;
        if (to < 0 || to >= live.length) {
          // Nothing moves; the numbers are made whole all the same (an import may have left ties).
          if (await renumber(tx, live)) await bumpContentVersion(tx);
          return { outcome: "unmoved", from: from + 1, to: from + 1 };
        }
        [live[from], live[to]] = [live[to]!, live[from]!];
        await renumber(tx, live);
        await bumpContentVersion(tx);
        return { outcome: "moved", from: from + 1, to: to + 1 };
      });
    },

    /**
     * The order after dragging: every item not in the trash, first to last. Refused ("changed")
     * when the items posted are not exactly those of the list now (one was added, trashed or
     * restored since the page was opened); nothing is written then.
     */
    async reorder(
      db: Database,
      input: { ids: string[] },
    ): Promise<{ outcome: "reordered"; before: string[]; after: string[] } | { outcome: "changed" }> {
      return db.transaction(async (tx) => {
        await lockOrder(tx, spec as OrderedKindSpec<unknown>);
        const live = await liveInOrder(tx);
        const posted = input.ids.map((id) => id.toLowerCase());
        const same = posted.length === live.length && posted.every((id) => live.includes(id));
        if (!same) return { outcome: "changed" };
        if (await renumber(tx, posted)) await bumpContentVersion(tx);
        return { outcome: "reordered", before: live, after: posted };
      });
    },

    /** The names of items by id (their head's), for the audit trail. */
    async names(db: Tx, ids: string[]): Promise<Map<string, string>> {
      if (!ids.length) return new Map();
      const rows = await db
        .select({ id: table.id, document: contentRevisions.document })
        .from(table)
        .leftJoin(contentRevisions, eq(contentRevisions.id, table.headRevisionId))
        .where(inArray(table.id, ids));
      return new Map(rows.map((row) => [row.id, row.document ? spec.nameOf(spec.documentOf(row.document)) : row.id]));
    },
  };
}
