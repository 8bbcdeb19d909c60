import type { MarkdownPreviewAnswer } from "#shared/admin/pages.ts";
import { firstProblem, parseForm } from "#shared/admin/forms.ts";
import {
  articleCreateForm,
  articlePublishForm,
  articleSaveForm,
  markdownPreviewForm,
  projectCreateForm,
  projectPublishForm,
  projectSaveForm,
} from "#shared/admin/schemas.ts";
import { type ArticleDocument, EMPTY_PROJECT, type ProjectDocument } from "#shared/content/documents.ts";
import { renderBody } from "../../content/render-pool.ts";
import { readingMinutes } from "../../content/render-markdown.ts";
import { mediaIndex } from "../../content/responsive-images.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";
import { wireHandlers } from "../content-kit.ts";
import {
  type ArticleFieldValues,
  documentFromFields,
  documentFromValues,
  EMPTY_ARTICLE,
  indiaLocalToIso,
  PUBLISH_DATE_PROBLEM,
} from "./article-fields.ts";
import { articleEditorView, projectEditorView } from "./editor-view.ts";
import { draftArticleCard, draftProjectCard } from "./card-preview.ts";
import { listArticles, listProjectRows } from "./item-lists.ts";
import { itemRoutes } from "./item-routes.ts";
import type { StudioRouteKind } from "./studio-route-kind.ts";
import { ARTICLES, PROJECTS, STUDIO_KINDS } from "#shared/admin/collections/index.ts";
import { type StudioKindRouteName, studioRouteNames } from "#shared/admin/collections/kind.ts";
import { ARTICLE_KIND, PROJECT_KIND } from "./kinds.ts";
import { type ProjectFieldValues, projectFromFields, projectFromValues } from "./project-fields.ts";

// The content studio's routes (docs/decisions/038-the-database-holds-the-content.md; 042 for
// projects): articles and projects through the same handlers (item-routes.ts), each kind giving
// its forms, its pages and its words; and the live preview of an article's Markdown.

/** Articles: their document carries its publish date. */
export const ARTICLE_ROUTES: StudioRouteKind<ArticleDocument, ArticleFieldValues> = {
  definition: ARTICLES,
  spec: ARTICLE_KIND,
  forms: { create: articleCreateForm, save: articleSaveForm, publish: articlePublishForm },
  empty: EMPTY_ARTICLE,
  card: draftArticleCard,
  build: documentFromFields,
  fromValues: documentFromValues,
  pages: {
    async list(db, input, now) {
      const { rows, more } = await listArticles(db, input.filter, input.pageNumber, now);
      return { page: "articles", ...input, rows, more };
    },
    editor: async (db, viewer, input, messages) => ({
      page: "article-editor",
      viewer,
      editor: await articleEditorView(db, input),
      ...messages,
    }),
    history: (viewer, data) => ({ page: "article-history", viewer, ...data }),
    compare: (viewer, data) => ({ page: "article-compare", viewer, ...data }),
  },
};

/** Projects: the spec's fields; "Schedule" takes its time from the publish form. */
export const PROJECT_ROUTES: StudioRouteKind<ProjectDocument, ProjectFieldValues> = {
  definition: PROJECTS,
  spec: PROJECT_KIND,
  forms: { create: projectCreateForm, save: projectSaveForm, publish: projectPublishForm },
  empty: EMPTY_PROJECT,
  card: (_db, document) => draftProjectCard(document),
  build: projectFromFields,
  fromValues: projectFromValues,
  publishDate(data) {
    const typed = typeof data.publishedAt === "string" ? data.publishedAt : "";
    if (!typed) return { ok: true, date: undefined };
    const date = indiaLocalToIso(typed);
    return date ? { ok: true, date } : { ok: false, field: "publishedAt", message: PUBLISH_DATE_PROBLEM };
  },
  pages: {
    async list(db, input, now) {
      const { rows, more } = await listProjectRows(db, input.filter, input.pageNumber, now);
      return { page: "projects", ...input, rows, more };
    },
    editor: async (db, viewer, input, messages) => ({
      page: "project-editor",
      viewer,
      editor: await projectEditorView(db, input),
      ...messages,
    }),
    history: (viewer, data) => ({ page: "project-history", viewer, ...data }),
    compare: (viewer, data) => ({ page: "project-compare", viewer, ...data }),
  },
};

/** The studio's route names: every studio kind's, and the live preview's. */
export type StudioRouteName =
  | { [Index in keyof typeof STUDIO_KINDS]: StudioKindRouteName<(typeof STUDIO_KINDS)[Index]> }[number]
  | "markdownPreview";

export function studioRoutes(context: AdminContext): AdminHandlers<StudioRouteName> {
  return {
    ...wireHandlers(studioRouteNames(ARTICLES), itemRoutes(context, ARTICLE_ROUTES)),
    ...wireHandlers(studioRouteNames(PROJECTS), itemRoutes(context, PROJECT_ROUTES)),

    async markdownPreview(request, reply) {
      const parsed = parseForm(markdownPreviewForm, request.body);
      if (!parsed.ok) {
        const message = firstProblem(parsed.form, "The body is not valid.");
        return reply.code(422).send({ error: "Unprocessable Entity", message, problems: parsed.form.errors });
      }
      // The library's pictures as the public page draws them (a pasted picture shows at once).
      const images = await mediaIndex(context.db);
      const rendered = await renderBody(parsed.data.body, images);
      const answer: MarkdownPreviewAnswer = {
        html: rendered.html,
        words: rendered.words,
        readingMinutes: readingMinutes(rendered.words),
      };
      return reply.send(answer);
    },
  };
}
