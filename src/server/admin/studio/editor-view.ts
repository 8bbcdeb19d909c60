import type { ArticleEditorView, RevisionView, ShareLinkView } from "#shared/admin/pages.ts";
import { type ArticleDocument, articleStatusOf, STUDIO_DOCUMENT_BODY_LIMIT } from "#shared/content/documents.ts";
import { articlePath } from "#shared/paths.ts";
import type { Database } from "../../db/client.ts";
import { listShareLinks } from "../../content/links.ts";
import type { StaffSession } from "../door/sessions.ts";
import { EMPTY_ARTICLE } from "./article-fields.ts";
import { articleAuthors, categoriesInUse, type LoadedArticle, revisionView } from "./article-queries.ts";
import { articleChecklist } from "./checklist.ts";
import { othersPresent } from "./presence.ts";
import { mediaChoices } from "../../media/media-choices.ts";

// The editor's props (ArticleEditorView in src/shared/admin/pages.ts), for an article or a new one.

/** Whether this member of staff may publish, schedule, unpublish and trash: an admin, or "Can publish". */
export const mayPublish = (session: StaffSession) => session.staff.role === "admin" || session.staff.canPublish;

export type EditorOptions = {
  /** The document to show instead of the head's (what a refused save sent). */
  document?: ArticleDocument;
  conflict?: ArticleEditorView["conflict"];
  issuedShareLink?: string;
};

export async function editorView(
  db: Database,
  input: { article: LoadedArticle | null; session: StaffSession; now: Date } & EditorOptions,
): Promise<ArticleEditorView> {
  const { article, session, now } = input;
  const document = input.document ?? article?.head?.document ?? EMPTY_ARTICLE;
  const images = await mediaChoices(db);
  const [categories, authors, checklist, links, presence] = await Promise.all([
    categoriesInUse(db),
    articleAuthors(db),
    articleChecklist(db, document, now, images),
    article ? listShareLinks(db, article.row.id) : Promise.resolve([]),
    article
      ? othersPresent(db, article.row.id, { sessionIdHash: session.idHash, staffId: session.staff.id }, now)
      : Promise.resolve([]),
  ]);
  const row = article?.row;
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
  const view = (revision: LoadedArticle["head"]): RevisionView | null =>
    revision && row ? revisionView(revision, row) : null;
  return {
    id: row?.id ?? null,
    status,
    document,
    head: view(article?.head),
    publishedRevision: row?.status === "published" ? view(article?.published) : null,
    publicPath: status === "published" && row?.slug ? articlePath(row.slug) : null,
    publishedAt: row?.publishedRevisionId && row.publishedAt ? row.publishedAt.toISOString() : null,
    trashedAt: row?.deletedAt?.toISOString() ?? null,
    canPublish: mayPublish(session),
    categories,
    authors,
    images,
    checklist,
    shareLinks,
    ...(input.issuedShareLink ? { issuedShareLink: input.issuedShareLink } : {}),
    presence,
    ...(input.conflict ? { conflict: input.conflict } : {}),
    bodyLimit: STUDIO_DOCUMENT_BODY_LIMIT,
  };
}
