import type { SQL } from "drizzle-orm";
import type { ChecklistItem, StudioKind } from "#shared/content/documents.ts";
import type { Tx } from "../../db/client.ts";
import type { blogPosts, contentPresence, contentRedirects, contentRevisions, projects } from "../../db/schema.ts";

// What the studio's one path asks of each kind of item (decision 038; 042 for projects; 059): the
// types alone, so that the path's reads (item-queries.ts) and the kinds' specs (kinds.ts) can
// both name them without importing each other.

/** An item's row, as the studio's path reads it. */
export type ItemRow = {
  id: string;
  status: string;
  publishedAt: Date | null;
  deletedAt: Date | null;
  slug: string | null;
  headRevisionId: number | null;
  publishedRevisionId: number | null;
  createdAt: Date;
  studioChangedByLabel: string | null;
};

/** The tables of the items the studio edits: their bookkeeping columns are the same. */
export type ItemTable = typeof blogPosts | typeof projects;

/** A field of a document (or of the publish form, "publishedAt" of a project) and what is wrong with it. */
export type FieldProblem = { field: string; message: string };

/** When a publish makes the item public, or why it cannot. */
export type Timing<Doc> =
  | {
      /** undefined: the item keeps the time it has (a project public already, or with no time of its own). */
      publishedAt: Date | undefined;
      /** The head with the time used, when the document carries its time and it differs: appended first. */
      dated?: Doc;
    }
  | { problems: FieldProblem[] };

export type TimingInput<Doc> = {
  when: "now" | "scheduled";
  /** The head document, to be published. */
  document: Doc;
  /** The time the publish form gave (a project's Publish date, as ISO); undefined for none. */
  date: string | undefined;
  row: ItemRow;
  /** The item is public now (published, its time come). */
  publicNow: boolean;
  now: Date;
};

export type StudioKindSpec<Doc = unknown> = {
  kind: StudioKind;
  /** How messages name an item: "There is no such article." */
  noun: string;
  table: ItemTable;
  /** The columns that name an item of this kind in the shared tables. */
  revisionItem: typeof contentRevisions.articleId | typeof contentRevisions.projectId;
  redirectItem: typeof contentRedirects.articleId | typeof contentRedirects.projectId;
  presenceItem: typeof contentPresence.articleId | typeof contentPresence.projectId;
  /** The public address of a slug: /blog/<slug>, /projects/<slug>. */
  publicPath(slug: string): string;
  /** The document's fields in their canonical order, and their labels in the editor. */
  fields: readonly string[];
  labels: Record<string, string>;
  /** A stored document (jsonb) as this kind's document. */
  documentOf(stored: Record<string, unknown>): Doc;
  slugOf(document: Doc): string;
  titleOf(document: Doc): string;
  /** What stops publishing the document: the publish checklist's blockers. */
  blockers(document: Doc): ChecklistItem<string>[];
  /** What the document's own fields refuse beyond the slug (an article's author who is not one). */
  fieldProblems(tx: Tx, document: Doc): Promise<FieldProblem[]>;
  /** When a publish or a schedule makes the item public. */
  timing(input: TimingInput<Doc>): Timing<Doc>;
  /** What the list's search looks in: the head's text (the published copy's before a first revision). */
  searchText(): SQL;
  /** Inserts a new item's row, a draft, and gives its id. */
  insertDraft(tx: Tx): Promise<string>;
  /** A field's value as a comparison shows it; null and undefined as "". */
  shown(field: string, value: unknown): string;
  /** The field a comparison shows line by line (an article's body, a project's description). */
  longField: string;
};
