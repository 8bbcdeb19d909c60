import { eq, sql } from "drizzle-orm";
import { slugFromTitle } from "#shared/content/documents.ts";
import type { Database, Transaction } from "../../db/client.ts";
import { bumpContentVersion } from "../../content/data-version.ts";
import { revokeLinksOf } from "../../content/links.ts";
import { publishRevision, unpublishItem } from "../../content/publishing.ts";
import {
  appendRevision,
  canonicalDocument,
  documentHash,
  headRevision,
  type RevisionSummary,
  revisionOf,
} from "../../content/revisions.ts";
import { isPublicNow, type ItemRow, loadItem, lockItem } from "./item-queries.ts";
import type { FieldProblem, StudioKindSpec, Timing } from "./kinds.ts";
import { foldableHead } from "./autosave-folding.ts";
import { freeSlug, moveRedirects, slugProblem } from "./slugs.ts";

// Every change the studio makes to an item, an article or a project alike, each one transaction:
// create, save (the form, autosave and restore), publish or schedule, unpublish, trash and restore
// from the trash. Each locks the item's row first, so changes of one item take turns, and checks
// the revision the person saw is still the head (decision 038, section 4): of two changes made
// from one revision exactly one wins. Revisions are only ever appended (src/server/content/
// revisions.ts), but for an autosave folded into the author's autosave of the last minute, which
// replaces it under a new id (autosave-folding.ts, decision 048). What differs by kind (its fields' own checks, when a publish makes it public)
// comes from its spec (kinds.ts).

export type Author = { id: string; label: string };

export type WriteRefusal =
  /** The head is no longer the revision the person saw: someone saved meanwhile. */
  | { outcome: "stale"; current: RevisionSummary }
  /** No such item, or it is in the trash. */
  | { outcome: "missing" }
  /** The document cannot be saved or published as it is: each problem at its field. */
  | { outcome: "invalid"; problems: FieldProblem[] }
  /** The action does not apply to the item as it is ("not published"). */
  | { outcome: "refused"; message: string };

/** Holds the claim to a slug until the transaction ends: two items of a kind cannot take one slug at once. */
async function lockSlug(tx: Transaction, spec: StudioKindSpec, slug: string): Promise<void> {
  if (slug) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${spec.kind}-slug:${slug}`}))`);
}

/** What the document's own fields refuse, beyond their schema: a slug that is taken, and the kind's own checks. */
async function documentProblems<Doc>(
  tx: Transaction,
  spec: StudioKindSpec<Doc>,
  itemId: string | null,
  document: Doc,
  now: Date,
) {
  const problems: FieldProblem[] = [];
  const slug = spec.slugOf(document);
  await lockSlug(tx, spec, slug);
  const taken = await slugProblem(tx, spec, itemId, slug, now);
  if (taken) problems.push({ field: "slug", message: taken });
  problems.push(...(await spec.fieldProblems(tx, document)));
  return problems;
}

/** "New article" or "New project": the row (a draft) and its revision 1, together. A slug left empty is made from the title. */
export async function createItem<Doc>(
  db: Database,
  spec: StudioKindSpec<Doc>,
  input: { document: Doc; author: Author; now: Date },
): Promise<{ outcome: "created"; id: string; revision: RevisionSummary } | WriteRefusal> {
  return db.transaction(async (tx) => {
    let document = input.document;
    if (!spec.slugOf(document)) {
      const slug = await freeSlug(tx, spec, slugFromTitle(spec.titleOf(document)), input.now);
      document = { ...document, slug };
    }
    const problems = await documentProblems(tx, spec, null, document, input.now);
    if (problems.length) return { outcome: "invalid", problems };
    const id = await spec.insertDraft(tx);
    const saved = await appendRevision(tx, {
      kind: spec.kind,
      itemId: id,
      document: document as never,
      source: "studio",
      author: input.author,
    });
    if (saved.outcome !== "saved")
      throw new Error(`the new ${spec.noun}'s first revision was not saved: ${saved.outcome}`);
    return { outcome: "created", id, revision: saved.revision };
  });
}

export type SaveInput<Doc> = {
  itemId: string;
  baseRevisionId: number;
  document: Doc;
  source: "studio" | "autosave" | "restore";
  restoredFromId?: number;
  author: Author;
  /** The session an autosave came from: its own presence does not keep the head from being replaced. */
  sessionIdHash?: string;
  now: Date;
};

/** A save: a new head revision made from `baseRevisionId`, unless the document is the head's already. */
export async function saveItem<Doc>(
  db: Database,
  spec: StudioKindSpec<Doc>,
  input: SaveInput<Doc>,
): Promise<
  { outcome: "saved"; revision: RevisionSummary } | { outcome: "unchanged"; revision: RevisionSummary } | WriteRefusal
> {
  return db.transaction(async (tx) => {
    const row = await lockItem(tx, spec, input.itemId);
    // An item without a revision yet (an upgraded site before its seed) has nothing to edit.
    if (!row || row.deletedAt || row.headRevisionId === null) return { outcome: "missing" };
    if (row.headRevisionId !== input.baseRevisionId) {
      const current = await headRevision(tx, spec.kind, input.itemId);
      if (!current) return { outcome: "missing" };
      // What was sent from an older revision of this item is the head already (the same form sent
      // twice, a page that posted it reloaded): nothing to save, and nobody's text in conflict.
      const sent = documentHash(spec.kind, canonicalDocument(spec.kind, input.document as never));
      const olderOfThisItem =
        sent === current.hash && (await revisionOf(tx, spec.kind, input.itemId, input.baseRevisionId)) !== undefined;
      return olderOfThisItem ? { outcome: "unchanged", revision: current } : { outcome: "stale", current };
    }
    const problems = await documentProblems(tx, spec, input.itemId, input.document, input.now);
    if (problems.length) return { outcome: "invalid", problems };
    const replacesHeadId =
      input.source === "autosave" && input.sessionIdHash
        ? await foldableHead(tx, spec, {
            itemId: input.itemId,
            headRevisionId: row.headRevisionId,
            publishedRevisionId: row.publishedRevisionId,
            authorId: input.author.id,
            sessionIdHash: input.sessionIdHash,
            now: input.now,
          })
        : undefined;
    return appendRevision(tx, {
      kind: spec.kind,
      itemId: input.itemId,
      baseRevisionId: input.baseRevisionId,
      document: input.document as never,
      source: input.source,
      restoredFromId: input.restoredFromId ?? null,
      author: input.author,
      replacesHeadId,
    });
  });
}

/**
 * What stops publishing `document` (the head) of the item in `row`, in publishItem's order: the
 * checklist's blockers, the fields' own checks (a slug taken), then the kind's rule for its time.
 */
async function publishChecks<Doc>(
  tx: Transaction,
  spec: StudioKindSpec<Doc>,
  row: ItemRow,
  document: Doc,
  input: { when: "now" | "scheduled"; date?: string | undefined; now: Date },
): Promise<{ problems: FieldProblem[] } | { timing: Exclude<Timing<Doc>, { problems: FieldProblem[] }> }> {
  const { now } = input;
  const blockers = spec.blockers(document);
  if (blockers.length) return { problems: blockers.map(({ field, message }) => ({ field, message })) };
  const problems = await documentProblems(tx, spec, row.id, document, now);
  if (problems.length) return { problems };
  const publicNow = isPublicNow(row, now);
  const timing = spec.timing({ when: input.when, document, date: input.date, row, publicNow, now });
  if ("problems" in timing) return { problems: timing.problems };
  return { timing };
}

/**
 * Why publishing the item's head now (as `when`, with the publish form's `date`) would be refused,
 * read without changing anything: what the editor shows after a refused publish has sent the
 * person back to it (item-routes.ts), so that reloading that page sends nothing again. Empty when
 * nothing stops it any more; undefined when there is no such item (or it is in the trash).
 */
export async function publishProblems<Doc>(
  db: Database,
  spec: StudioKindSpec<Doc>,
  input: { itemId: string; when: "now" | "scheduled"; date: string | undefined; now: Date },
): Promise<FieldProblem[] | undefined> {
  return db.transaction(async (tx) => {
    const item = await loadItem(tx, spec, input.itemId);
    if (!item?.head || item.row.deletedAt) return undefined;
    const checked = await publishChecks(tx, spec, item.row, item.head.document, input);
    return "problems" in checked ? checked.problems : [];
  });
}

export type Published = {
  outcome: "published" | "scheduled";
  /** The revision now public (or to be, scheduled). */
  revision: RevisionSummary;
  /** When it went (or goes) public; null for a project public with no time of its own. */
  publishedAt: Date | null;
  /** The published slug changed (a publish after the first, at another address). */
  slugChange?: { from: string; to: string };
};

/**
 * Publishes (now) or schedules the item's head, which must still be `headRevisionId`. When it goes
 * public is the kind's rule (its spec's `timing`): an article's from its Publish date, a project's
 * from the publish form's. When the document carries its time and the time used differs, one more
 * revision with it is appended first, so the revision published carries the time the public sees.
 */
export async function publishItem<Doc>(
  db: Database,
  spec: StudioKindSpec<Doc>,
  input: {
    itemId: string;
    headRevisionId: number;
    when: "now" | "scheduled";
    /** The publish form's time (ISO), for a kind whose document has none. */
    date?: string;
    author: Author;
    now: Date;
  },
): Promise<Published | WriteRefusal> {
  try {
    return await db.transaction(async (tx): Promise<Published | WriteRefusal> => {
      const { now } = input;
      const row = await lockItem(tx, spec, input.itemId);
      if (!row || row.deletedAt) return { outcome: "missing" };
      const head = await headRevision(tx, spec.kind, input.itemId);
      if (!head) return { outcome: "missing" };
      if (row.headRevisionId !== input.headRevisionId) return { outcome: "stale", current: head };
      const stored = (await revisionOf(tx, spec.kind, input.itemId, head.id))!.document;
      const headDocument = spec.documentOf(stored as Record<string, unknown>);
      const checked = await publishChecks(tx, spec, row, headDocument, input);
      if ("problems" in checked) return { outcome: "invalid", problems: checked.problems };
      const { timing } = checked;

      let revision: RevisionSummary = head;
      if (timing.dated) {
        const dated = await appendRevision(tx, {
          kind: spec.kind,
          itemId: input.itemId,
          baseRevisionId: head.id,
          document: timing.dated as never,
          source: "studio",
          author: input.author,
        });
        if (dated.outcome !== "saved") throw new Error(`the publish date's revision was not saved: ${dated.outcome}`);
        revision = dated.revision;
      }
      // Ever public: published once, at a time that has come (or at none: a project from a file).
      const everPublic =
        row.publishedRevisionId !== null && (row.publishedAt === null || row.publishedAt.getTime() <= now.getTime());
      await publishRevision(tx, {
        kind: spec.kind,
        itemId: input.itemId,
        revisionId: revision.id,
        publishedAt: timing.publishedAt,
        studioChangeBy: input.author.label,
      });
      const slug = spec.slugOf(headDocument);
      await moveRedirects(tx, spec, {
        itemId: input.itemId,
        oldSlug: row.slug,
        newSlug: slug,
        wasPublic: everPublic,
        by: input.author.label,
        now,
      });
      return {
        outcome: input.when === "now" ? "published" : "scheduled",
        revision,
        publishedAt: timing.publishedAt ?? row.publishedAt,
        // The first publish gives the item its address; only a later one changes it.
        ...(row.slug !== null && row.slug !== slug ? { slugChange: { from: row.slug, to: slug } } : {}),
      };
    });
  } catch (error) {
    // Another item took the slug between the check and the write (the table's unique slug).
    if (isUniqueViolation(error))
      return {
        outcome: "invalid",
        problems: [
          { field: "slug", message: `Another ${spec.noun} was just published at this address; choose another` },
        ],
      };
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export type ItemAction = "unpublish" | "trash" | "untrash";

/**
 * Unpublish, move to the trash, or restore from it: the page's revision must still be the head.
 * A trashed item is not public whatever its status; one restored from the trash is a draft again
 * if it was published, so it does not go public by itself.
 */
export async function actOnItem(
  db: Database,
  spec: StudioKindSpec,
  input: { itemId: string; baseRevisionId: number; action: ItemAction; author: Author; now: Date },
): Promise<
  | { outcome: "done"; head: RevisionSummary; wasPublic: boolean; status: string }
  | Exclude<WriteRefusal, { outcome: "invalid" }>
> {
  return db.transaction(async (tx) => {
    const { table } = spec;
    const row = await lockItem(tx, spec, input.itemId);
    const trashed = Boolean(row?.deletedAt);
    if (!row || (input.action !== "untrash" && trashed)) return { outcome: "missing" };
    const head = await headRevision(tx, spec.kind, input.itemId);
    if (!head) return { outcome: "missing" };
    if (row.headRevisionId !== input.baseRevisionId) return { outcome: "stale", current: head };
    const wasPublic = isPublicNow(row, input.now);
    const changed = { studioChangedAt: sql`now()`, studioChangedByLabel: input.author.label };
    if (input.action === "unpublish") {
      if (row.status !== "published") return { outcome: "refused", message: `This ${spec.noun} is not published.` };
      await unpublishItem(tx, spec.kind, input.itemId, input.author.label);
      return { outcome: "done", head, wasPublic, status: "unpublished" };
    }
    if (input.action === "trash") {
      await tx
        .update(table)
        .set({ deletedAt: input.now, deletedByLabel: input.author.label, ...changed })
        .where(eq(table.id, input.itemId));
      // Its preview and share links end with it: restoring it from the trash does not revive them.
      await revokeLinksOf(tx, { kind: spec.kind, id: input.itemId }, input.now);
      if (row.status === "published") await bumpContentVersion(tx);
      return { outcome: "done", head, wasPublic, status: row.status };
    }
    if (!trashed) return { outcome: "refused", message: `This ${spec.noun} is not in the trash.` };
    const status = row.status === "published" ? "draft" : row.status;
    await tx
      .update(table)
      .set({ deletedAt: null, deletedByLabel: null, status, ...changed })
      .where(eq(table.id, input.itemId));
    return { outcome: "done", head, wasPublic: false, status };
  });
}
