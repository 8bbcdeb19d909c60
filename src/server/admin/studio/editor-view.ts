import { randomUUID } from "node:crypto";
import type {
  ArticleEditorView,
  ProjectEditorView,
  RevisionView,
  ShareLinkView,
  StudioEditorCommon,
} from "#shared/admin/pages.ts";
import {
  type ArticleDocument,
  articleStatusOf,
  EMPTY_PROJECT,
  PROJECT_CATEGORIES,
  type ProjectDocument,
  STUDIO_DOCUMENT_BODY_LIMIT,
} from "#shared/content/documents.ts";
import type { Database } from "../../db/client.ts";
import { listShareLinks } from "../../content/links.ts";
import { mediaChoices } from "../../media/media-choices.ts";
import type { StaffSession } from "../door/sessions.ts";
import { EMPTY_ARTICLE } from "./article-fields.ts";
import { articleAuthors, categoriesInUse } from "./article-queries.ts";
import { articleChecklist, projectChecklist } from "./checklist.ts";
import { type LoadedItem, revisionView } from "./item-queries.ts";
import { ARTICLE_KIND, PROJECT_KIND, type StudioKindSpec } from "./kinds.ts";
import { othersPresent } from "./presence.ts";

// The editor's props (src/shared/admin/pages.ts), for an article, a project, or a new one: what
// every item's editor shows (editorCommon: its state, revisions, share links, who else has it
// open) and each kind's own fields and checklist.

/** Whether this member of staff may publish, schedule, unpublish and trash: an admin, or "Can publish". */
export const mayPublish = (session: StaffSession) => session.staff.role === "admin" || session.staff.canPublish;

export type EditorOptions<Doc> = {
  /** The document to show instead of the head's (what a refused save sent). */
  document?: Doc;
  conflict?: { current: RevisionView; currentDocument: Doc; yours?: boolean };
  issuedShareLink?: string;
  shareLinkGone?: boolean;
  /** The page follows a restore: the editor says what the public still reads, and offers Publish. */
  restored?: boolean;
  /** What the problems at the top stopped (a save when not given). */
  refused?: StudioEditorCommon["refused"];
};

export type EditorInput<Doc> = { item: LoadedItem<Doc> | null; session: StaffSession; now: Date } & EditorOptions<Doc>;

/**
 * After a restore, when the head is the restored revision: which revision it restored, and the
 * one visitors read (or will read, scheduled) when that is not the head. Nothing otherwise.
 */
function restoreOfferOf<Doc>(
  input: EditorInput<Doc>,
  status: StudioEditorCommon["status"],
): Pick<StudioEditorCommon, "restoreOffer"> {
  const head = input.item?.head;
  if (!input.restored || !head || head.source !== "restore" || head.restoredFromNumber === null) return {};
  const published = input.item?.published;
  const live =
    // The restored text is what visitors read already when it is the published revision's.
    (status === "published" || status === "scheduled") && published && published.hash !== head.hash
      ? published.number
      : null;
  return { restoreOffer: { restoredFrom: head.restoredFromNumber, live } };
}

/** What the editor of any item shows besides its document and its kind's own fields. */
async function editorCommon<Doc>(
  db: Database,
  spec: StudioKindSpec<Doc>,
  input: EditorInput<Doc>,
): Promise<StudioEditorCommon> {
  const { item, session, now } = input;
  const row = item?.row;
  const [images, links, presence] = await Promise.all([
    mediaChoices(db),
    row ? listShareLinks(db, { kind: spec.kind, id: row.id }) : Promise.resolve([]),
    row
      ? othersPresent(db, spec, row.id, { sessionIdHash: session.idHash, staffId: session.staff.id }, now)
      : Promise.resolve([]),
  ]);
  const status = row ? articleStatusOf(row, now) : "draft";
  const isAdmin = session.staff.role === "admin";
  const shareLinks: ShareLinkView[] = links.map((link) => {
    const state = link.revokedAt ? "revoked" : link.expiresAt.getTime() <= now.getTime() ? "expired" : "active";
    return {
      id: link.id,
      createdBy: link.createdByLabel,
      createdAt: link.createdAt.toISOString(),
      expiresAt: link.expiresAt.toISOString(),
      state,
      mayRevoke: state === "active" && (isAdmin || link.createdBy === session.staff.id),
    };
  });
  const view = (revision: LoadedItem<Doc>["head"]): RevisionView | null =>
    revision && row ? revisionView(revision, row) : null;
  return {
    id: row?.id ?? null,
    status,
    head: view(item?.head),
    publishedRevision: row?.status === "published" ? view(item?.published) : null,
    publicPath: status === "published" && row?.slug ? spec.publicPath(row.slug) : null,
    publishedAt: row?.publishedRevisionId && row.publishedAt ? row.publishedAt.toISOString() : null,
    trashedAt: row?.deletedAt?.toISOString() ?? null,
    canPublish: mayPublish(session),
    images,
    shareLinks,
    ...(input.issuedShareLink ? { issuedShareLink: input.issuedShareLink } : {}),
    ...(input.shareLinkGone ? { shareLinkGone: true } : {}),
    shareRequestKey: randomUUID(),
    ...restoreOfferOf(input, status),
    presence,
    bodyLimit: STUDIO_DOCUMENT_BODY_LIMIT,
    // A document given is what a refused save sent; the head's is what is saved.
    unsaved: input.document !== undefined,
    ...(input.refused ? { refused: input.refused } : {}),
  };
}

export async function articleEditorView(db: Database, input: EditorInput<ArticleDocument>): Promise<ArticleEditorView> {
  const document = input.document ?? input.item?.head?.document ?? EMPTY_ARTICLE;
  const common = await editorCommon(db, ARTICLE_KIND, input);
  const [categories, authors, checklist] = await Promise.all([
    categoriesInUse(db),
    articleAuthors(db),
    articleChecklist(db, document, input.now, common.images),
  ]);
  return {
    ...common,
    document,
    categories,
    authors,
    checklist,
    ...(input.conflict ? { conflict: input.conflict } : {}),
  };
}

export async function projectEditorView(db: Database, input: EditorInput<ProjectDocument>): Promise<ProjectEditorView> {
  const document = input.document ?? input.item?.head?.document ?? EMPTY_PROJECT;
  const common = await editorCommon(db, PROJECT_KIND, input);
  return {
    ...common,
    document,
    categories: PROJECT_CATEGORIES,
    checklist: projectChecklist(document, common.images),
    ...(input.conflict ? { conflict: input.conflict } : {}),
  };
}
