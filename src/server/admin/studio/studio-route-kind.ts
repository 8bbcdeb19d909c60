import type * as z from "zod/mini";
import type { STUDIO_KINDS } from "#shared/admin/collections/index.ts";
import type {
  AdminPageProps,
  AdminViewer,
  ArticleFilter,
  PageMessages,
  StudioCompareData,
  StudioHistoryData,
} from "#shared/admin/pages.ts";
import type { ArticleStatus } from "#shared/content/documents.ts";
import type { LinkCard } from "#shared/link-card.ts";
import type { Database } from "../../db/client.ts";
import type { EditorInput } from "./editor-view.ts";
import type { StudioKindSpec } from "./kinds.ts";

// What makes a studio kind's routes (item-routes.ts): its definition (src/shared/admin/collections/),
// its server spec (kinds.ts), its forms, its fields and its pages (studio-routes.ts gives one per kind).

/** The studio kinds the back office declares. */
type StudioKind = (typeof STUDIO_KINDS)[number];

/** The form ↔ document conversion of a kind: the document, or the one field whose check needs more than its schema. */
export type Built<Doc> = { ok: true; document: Doc } | { ok: false; field: string; message: string };

/** What the list's page and its query share. */
export type ListInput = {
  viewer: AdminViewer;
  filter: ArticleFilter;
  counts: Record<ArticleStatus, number>;
  pageNumber: number;
};

/** What makes a kind's routes: its definition, its spec, its forms, its pages. */
export type StudioRouteKind<Doc, Fields> = {
  /** The kind as the back office declares it (src/shared/admin/collections/): its route names, notices and audit actions come from it. */
  definition: StudioKind;
  spec: StudioKindSpec<Doc>;
  forms: {
    create: z.ZodMiniType<Fields>;
    save: z.ZodMiniType<Fields & { baseRevisionId: string }>;
    publish: z.ZodMiniType<Fields & { baseRevisionId: string; when: "now" | "scheduled" }>;
  };
  /** What "New …" opens. */
  empty: Doc;
  /** The link-preview card the document will have once published (card-preview.ts). */
  card: (db: Database, document: Doc) => Promise<LinkCard> | LinkCard;
  /** The document the editor's fields make. */
  build: (fields: Fields) => Built<Doc>;
  /** What a refused post showed, as a document: the values typed, the fallback's for fields not sent. */
  fromValues: (values: Record<string, string>, fallback: Doc) => Doc;
  /** The time the publish form gives (a project's Publish date) as ISO (undefined for none), or its problem. */
  publishDate?: (
    data: Record<string, unknown>,
  ) => { ok: true; date: string | undefined } | { ok: false; field: string; message: string };
  pages: {
    list: (db: Database, input: ListInput, now: Date) => Promise<AdminPageProps>;
    editor: (
      db: Database,
      viewer: AdminViewer,
      input: EditorInput<Doc>,
      messages: PageMessages,
    ) => Promise<AdminPageProps>;
    history: (viewer: AdminViewer, data: StudioHistoryData) => AdminPageProps;
    compare: (viewer: AdminViewer, data: StudioCompareData) => AdminPageProps;
  };
};
