import type { FastifyReply, FastifyRequest } from "fastify";
import { type FormState, formValues, parseForm } from "#shared/admin/forms.ts";
import type { AutosaveAnswer, MarkdownPreviewAnswer, PageMessages, PresenceAnswer } from "#shared/admin/pages.ts";
import { pageNumberOf } from "#shared/admin/pagination.ts";
import { adminHref } from "#shared/admin/routes.ts";
import {
  articleActionForm,
  articleCreateForm,
  articleFilterForm,
  articlePublishForm,
  articleSaveForm,
  markdownPreviewForm,
  revisionCompareForm,
} from "#shared/admin/schemas.ts";
import { type ArticleDocument, articleStatusOf } from "#shared/content/documents.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import type { AuditAction } from "#shared/admin/audit-actions.ts";
import { refreshContentVersion } from "../../content/data-version.ts";
import type { Database } from "../../db/client.ts";
import { createContentLink, revokeContentLink } from "../../content/links.ts";
import type { RevisionSummary } from "../../content/revisions.ts";
import { readingMinutes, renderArticleMarkdown } from "../../content/render-markdown.ts";
import type { AdminContext, AdminHandlers, AdminRequest } from "../context.ts";
import {
  type ArticleFieldValues,
  documentFromFields,
  documentFromValues,
  EMPTY_ARTICLE,
  indiaTimeLabel,
} from "./article-fields.ts";
import {
  articleCounts,
  articleLink,
  articleRevisions,
  type LoadedArticle,
  listArticles,
  loadArticle,
  revisionList,
  revisionView,
} from "./article-queries.ts";
import {
  actOnArticle,
  type ArticleAction,
  createArticle,
  type FieldProblem,
  publishArticle,
  saveArticle,
  type WriteRefusal,
} from "./article-writes.ts";
import { compareDocuments } from "./compare.ts";
import { editorView, type EditorOptions } from "./editor-view.ts";
import { beat, leave } from "./presence.ts";

// The content studio's routes (docs/decisions/038-the-database-holds-the-content.md): the articles
// list, the editor (new, save, autosave, presence, live preview), publishing (publish, schedule,
// unpublish, trash, restore from the trash), preview and share links, the history, comparing two
// revisions and restoring one. Queries are in article-queries.ts, every change in
// article-writes.ts; the door (door/door.ts) has already decided access ("publisher" routes:
// admins and staff allowed to publish) and origin before a handler runs.

export type StudioRouteName =
  | "articles"
  | "articleNew"
  | "articleCreate"
  | "article"
  | "articleSave"
  | "articleAutosave"
  | "articlePresence"
  | "markdownPreview"
  | "articlePublish"
  | "articleUnpublish"
  | "articleTrash"
  | "articleUntrash"
  | "articlePreviewLink"
  | "articleShareLink"
  | "articleShareLinkRevoke"
  | "articleHistory"
  | "articleCompare"
  | "articleRevisionRestore";

/** A revision id in a path: digits, as the database numbers them. */
const REVISION_ID_PATTERN = /^[1-9]\d{0,14}$/;

const NO_SUCH_ARTICLE = "There is no such article.";
const IN_THE_TRASH = "This article is in the trash: restore it from the trash first.";

/**
 * After a change the public reads (publish, schedule, unpublish, trash) has committed: this
 * instance's page cache starts again at once, not at its next poll (decision 038, section 3). The
 * version itself was bumped in the change's transaction, so other instances see it at their poll.
 */
const publicContentChanged = (db: Database) => refreshContentVersion(db);

export function studioRoutes(context: AdminContext): AdminHandlers<StudioRouteName> {
  const { db } = context;
  const authorOf = (request: FastifyRequest) => {
    const session = context.sessionOf(request);
    return { id: session.staff.id, label: session.staff.name.slice(0, 200) };
  };

  /**
   * The article a path names, or undefined after answering 404. A malformed id is no article (no
   * query is made); one in the trash is found only where `trashed` allows it.
   */
  async function findArticle(
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    trashed: "allowed" | "refused" = "refused",
  ): Promise<LoadedArticle | undefined> {
    const id = request.params.id;
    const article = isUuid(id) ? await loadArticle(db, id.toLowerCase()) : undefined;
    if (!article || !article.head) {
      await context.problem(request, reply, 404, "Not Found", NO_SUCH_ARTICLE);
      return undefined;
    }
    if (article.row.deletedAt && trashed === "refused") {
      await context.problem(request, reply, 404, "Not Found", IN_THE_TRASH);
      return undefined;
    }
    return article;
  }

  async function renderEditor(
    request: FastifyRequest,
    reply: FastifyReply,
    article: LoadedArticle | null,
    options: EditorOptions & PageMessages = {},
    status = 200,
  ) {
    const { document, conflict, issuedShareLink, ...messages } = options;
    const session = context.sessionOf(request);
    const editor = await editorView(db, { article, session, now: context.now(), document, conflict, issuedShareLink });
    return context.render(
      reply,
      { page: "article-editor", viewer: context.viewerOf(session), editor, ...messages },
      status,
    );
  }

  /** The editor again, at the article as it is now (after a change that was refused). */
  async function renderEditorAgain(
    request: FastifyRequest,
    reply: FastifyReply,
    articleId: string,
    options: EditorOptions & PageMessages,
    status: number,
  ) {
    const article = await loadArticle(db, articleId);
    if (!article?.head) return context.problem(request, reply, 404, "Not Found", NO_SUCH_ARTICLE);
    return renderEditor(request, reply, article, options, status);
  }

  /** What a refusal because someone saved first says. */
  const changedMessage = (current: RevisionSummary) =>
    `Changed by ${current.by} at ${indiaTimeLabel(current.at, context.now())} (revision ${current.number}), so your change was not saved.`;

  /** A form state with each problem at its field, the values as posted (the base moved to `base`). */
  function problemsForm(body: unknown, problems: FieldProblem[], base?: number): FormState {
    const values = formValues(body);
    if (base !== undefined) values.baseRevisionId = String(base);
    const errors: Record<string, string> = {};
    for (const problem of problems) errors[problem.field] ??= problem.message;
    return { values, errors };
  }

  /** The fields of a parsed editor form as a document, or the form with the publish date's problem. */
  function documentOf(body: unknown, fields: ArticleFieldValues): { document: ArticleDocument } | { form: FormState } {
    const built = documentFromFields(fields);
    if (built.ok) return { document: built.document };
    return { form: problemsForm(body, [{ field: built.field, message: built.message }]) };
  }

  const target = (article: LoadedArticle, title?: string) => ({
    type: "article",
    id: article.row.id,
    label: title ?? article.head?.document.title ?? null,
  });

  async function audit(
    request: FastifyRequest,
    article: LoadedArticle,
    action: AuditAction,
    details: Record<string, unknown>,
    title?: string,
  ) {
    await context.audit(request, {
      actor: context.actorOf(context.sessionOf(request)),
      action,
      target: target(article, title),
      details,
    });
  }

  /** A form save's refusal: 409 (someone saved first), 422 (at the fields) or 404. */
  async function refusedSave(
    request: FastifyRequest,
    reply: FastifyReply,
    article: LoadedArticle,
    refusal: WriteRefusal,
    document: ArticleDocument,
  ) {
    const body = request.body;
    if (refusal.outcome === "missing") return context.problem(request, reply, 404, "Not Found", IN_THE_TRASH);
    if (refusal.outcome === "stale") {
      const current = await loadArticle(db, article.row.id);
      if (!current?.head) return context.problem(request, reply, 404, "Not Found", NO_SUCH_ARTICLE);
      return renderEditor(
        request,
        reply,
        current,
        {
          document,
          // What they typed, now based on the head they have been shown: saving it again replaces
          // the other text knowingly, with both in view.
          form: problemsForm(body, [], current.head.id),
          error: changedMessage(refusal.current),
          conflict: { current: revisionView(current.head, current.row), currentDocument: current.head.document },
        },
        409,
      );
    }
    if (refusal.outcome === "invalid")
      return renderEditor(request, reply, article, { document, form: problemsForm(body, refusal.problems) }, 422);
    return renderEditor(request, reply, article, { document, error: refusal.message }, 409);
  }

  /** The revision a page's action form was made from, or undefined after answering 400. */
  async function actionBase(request: FastifyRequest, reply: FastifyReply, article: LoadedArticle) {
    const parsed = parseForm(articleActionForm, request.body);
    if (parsed.ok) return Number(parsed.data.baseRevisionId);
    await renderEditor(request, reply, article, { error: parsed.form.errors.baseRevisionId, form: parsed.form }, 400);
    return undefined;
  }

  /** Unpublish, trash and untrash: the base must be the head, each audited. */
  async function articleAction(request: AdminRequest<"articleUnpublish">, reply: FastifyReply, action: ArticleAction) {
    const article = await findArticle(request, reply, action === "untrash" ? "allowed" : "refused");
    if (!article) return reply;
    const base = await actionBase(request, reply, article);
    if (base === undefined) return reply;
    const done = await actOnArticle(db, {
      articleId: article.row.id,
      baseRevisionId: base,
      action,
      author: authorOf(request),
      now: context.now(),
    });
    if (done.outcome === "missing") return context.problem(request, reply, 404, "Not Found", NO_SUCH_ARTICLE);
    if (done.outcome === "stale")
      return renderEditorAgain(
        request,
        reply,
        article.row.id,
        {
          error: `This article was changed by ${done.current.by} at ${indiaTimeLabel(done.current.at, context.now())} (revision ${done.current.number}) after you opened it, so nothing was done. Look at it again, then try again.`,
        },
        409,
      );
    if (done.outcome === "refused")
      return renderEditorAgain(request, reply, article.row.id, { error: done.message }, 409);
    if (action !== "untrash") await publicContentChanged(db);
    const actions = {
      unpublish: "article-unpublished",
      trash: "article-trashed",
      untrash: "article-untrashed",
    } as const;
    await audit(request, article, actions[action], {
      revision: done.head.number,
      wasPublic: done.wasPublic,
      status: done.status,
    });
    const notices = {
      unpublish: "article-unpublished",
      trash: "article-trashed",
      untrash: "article-untrashed",
    } as const;
    return context.seeOther(reply, adminHref("article", { id: article.row.id }, { notice: notices[action] }));
  }

  /** The article's revision a path names (only this article's), or undefined after answering 404. */
  async function pathRevision(
    request: AdminRequest<"articleRevisionRestore">,
    reply: FastifyReply,
    article: LoadedArticle,
  ) {
    const id = request.params.revisionId;
    const [revision] = REVISION_ID_PATTERN.test(id) ? await articleRevisions(db, article.row.id, [Number(id)]) : [];
    if (!revision)
      await context.problem(request, reply, 404, "Not Found", "There is no such revision of this article.");
    return revision;
  }

  const articleSummary = (article: LoadedArticle) => ({
    id: article.row.id,
    title: article.head?.document.title ?? "",
    status: articleStatusOf(article.row, context.now()),
  });

  return {
    async articles(request, reply) {
      const parsed = parseForm(articleFilterForm, request.query);
      if (!parsed.ok) {
        const problem = Object.values(parsed.form.errors).find(Boolean) ?? "The filter is not one.";
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const filter = { q: parsed.data.q, status: parsed.data.status };
      const pageNumber = pageNumberOf(request.query);
      const now = context.now();
      const [{ rows, more }, counts] = await Promise.all([
        listArticles(db, filter, pageNumber, now),
        articleCounts(db, now),
      ]);
      return context.render(reply, {
        page: "articles",
        viewer: context.viewerOf(context.sessionOf(request)),
        rows,
        filter,
        counts,
        pageNumber,
        more,
      });
    },

    articleNew: (request, reply) => renderEditor(request, reply, null),

    async articleCreate(request, reply) {
      const parsed = parseForm(articleCreateForm, request.body);
      const fallback = documentFromValues(formValues(request.body), EMPTY_ARTICLE);
      if (!parsed.ok) return renderEditor(request, reply, null, { document: fallback, form: parsed.form }, 422);
      const built = documentOf(request.body, parsed.data);
      if ("form" in built) return renderEditor(request, reply, null, { document: fallback, form: built.form }, 422);
      const created = await createArticle(db, {
        document: built.document,
        author: authorOf(request),
        now: context.now(),
      });
      if (created.outcome !== "created") {
        const problems = created.outcome === "invalid" ? created.problems : [];
        return renderEditor(
          request,
          reply,
          null,
          { document: built.document, form: problemsForm(request.body, problems) },
          422,
        );
      }
      return context.seeOther(reply, adminHref("article", { id: created.id }, { notice: "article-created" }));
    },

    async article(request, reply) {
      const article = await findArticle(request, reply, "allowed");
      if (!article) return reply;
      return renderEditor(request, reply, article);
    },

    async articleSave(request, reply) {
      const article = await findArticle(request, reply);
      if (!article) return reply;
      const fallback = documentFromValues(formValues(request.body), article.head!.document);
      const parsed = parseForm(articleSaveForm, request.body);
      if (!parsed.ok) return renderEditor(request, reply, article, { document: fallback, form: parsed.form }, 422);
      const built = documentOf(request.body, parsed.data);
      if ("form" in built) return renderEditor(request, reply, article, { document: fallback, form: built.form }, 422);
      const saved = await saveArticle(db, {
        articleId: article.row.id,
        baseRevisionId: Number(parsed.data.baseRevisionId),
        document: built.document,
        source: "studio",
        author: authorOf(request),
        now: context.now(),
      });
      if (saved.outcome !== "saved" && saved.outcome !== "unchanged")
        return refusedSave(request, reply, article, saved, built.document);
      return context.seeOther(reply, adminHref("article", { id: article.row.id }, { notice: "draft-saved" }));
    },

    async articleAutosave(request, reply) {
      const article = await findArticle(request, reply);
      if (!article) return reply;
      const parsed = parseForm(articleSaveForm, request.body);
      const invalid = (form: FormState) => {
        const message = Object.values(form.errors).find(Boolean) ?? "The draft is not valid.";
        return reply.code(422).send({ error: "Unprocessable Entity", message, problems: form.errors });
      };
      if (!parsed.ok) return invalid(parsed.form);
      const built = documentOf(request.body, parsed.data);
      if ("form" in built) return invalid(built.form);
      const base = Number(parsed.data.baseRevisionId);
      const saved = await saveArticle(db, {
        articleId: article.row.id,
        baseRevisionId: base,
        document: built.document,
        source: "autosave",
        author: authorOf(request),
        now: context.now(),
      });
      if (saved.outcome === "saved" || saved.outcome === "unchanged") {
        const [revision] = await articleRevisions(db, article.row.id, [saved.revision.id]);
        const answer: AutosaveAnswer = {
          saved: true,
          revision: revisionView(revision!, article.row),
          unchanged: saved.outcome === "unchanged",
        };
        return reply.send(answer);
      }
      if (saved.outcome === "stale") {
        const answer: AutosaveAnswer = {
          error: "Conflict",
          message: changedMessage(saved.current),
          current: {
            revisionId: saved.current.id,
            number: saved.current.number,
            by: saved.current.by,
            at: saved.current.at.toISOString(),
          },
          compareHref: adminHref("articleCompare", { id: article.row.id }, { from: base, to: saved.current.id }),
        };
        return reply.code(409).send(answer);
      }
      if (saved.outcome === "invalid") return invalid(problemsForm(request.body, saved.problems));
      return context.problem(
        request,
        reply,
        404,
        "Not Found",
        saved.outcome === "missing" ? IN_THE_TRASH : saved.message,
      );
    },

    async articlePresence(request, reply) {
      const article = await findArticle(request, reply);
      if (!article) return reply;
      const body = request.body;
      const leaving = typeof body === "object" && body !== null ? (body as Record<string, unknown>).leaving : undefined;
      if (leaving !== undefined && typeof leaving !== "boolean")
        return context.problem(request, reply, 400, "Bad Request", "`leaving` must be true or false.");
      const session = context.sessionOf(request);
      const viewer = { sessionIdHash: session.idHash, staffId: session.staff.id };
      if (leaving) {
        await leave(db, article.row.id, viewer);
        return reply.send({ others: [] } satisfies PresenceAnswer);
      }
      const others = await beat(db, article.row.id, viewer, context.now());
      return reply.send({ others } satisfies PresenceAnswer);
    },

    async markdownPreview(request, reply) {
      const parsed = parseForm(markdownPreviewForm, request.body);
      if (!parsed.ok) {
        const message = Object.values(parsed.form.errors).find(Boolean) ?? "The body is not valid.";
        return reply.code(422).send({ error: "Unprocessable Entity", message, problems: parsed.form.errors });
      }
      const rendered = renderArticleMarkdown(parsed.data.body);
      const answer: MarkdownPreviewAnswer = {
        html: rendered.html,
        words: rendered.words,
        readingMinutes: readingMinutes(rendered.words),
      };
      return reply.send(answer);
    },

    async articlePublish(request, reply) {
      const article = await findArticle(request, reply);
      if (!article) return reply;
      const fallback = documentFromValues(formValues(request.body), article.head!.document);
      const parsed = parseForm(articlePublishForm, request.body);
      if (!parsed.ok) return renderEditor(request, reply, article, { document: fallback, form: parsed.form }, 422);
      const built = documentOf(request.body, parsed.data);
      if ("form" in built) return renderEditor(request, reply, article, { document: fallback, form: built.form }, 422);
      const author = authorOf(request);
      // Saved first, as "Save draft" would: what the person sees is what is published.
      const saved = await saveArticle(db, {
        articleId: article.row.id,
        baseRevisionId: Number(parsed.data.baseRevisionId),
        document: built.document,
        source: "studio",
        author,
        now: context.now(),
      });
      if (saved.outcome !== "saved" && saved.outcome !== "unchanged")
        return refusedSave(request, reply, article, saved, built.document);
      const published = await publishArticle(db, {
        articleId: article.row.id,
        headRevisionId: saved.revision.id,
        when: parsed.data.when,
        author,
        now: context.now(),
      });
      if (published.outcome === "invalid") {
        // The draft is saved; the editor shows it at its new head, each problem at its field.
        return renderEditorAgain(
          request,
          reply,
          article.row.id,
          { form: problemsForm(request.body, published.problems, saved.revision.id) },
          422,
        );
      }
      if (published.outcome === "stale" || published.outcome === "missing" || published.outcome === "refused")
        return refusedSave(request, reply, article, published, built.document);
      await publicContentChanged(db);
      const title = built.document.title;
      await audit(
        request,
        article,
        published.outcome === "published" ? "article-published" : "article-scheduled",
        {
          revision: published.revision.number,
          publishedAt: published.publishedAt.toISOString(),
          slug: built.document.slug,
        },
        title,
      );
      if (published.slugChange)
        await audit(
          request,
          article,
          "article-slug-changed",
          { revision: published.revision.number, from: published.slugChange.from, to: published.slugChange.to },
          title,
        );
      return context.seeOther(
        reply,
        adminHref(
          "article",
          { id: article.row.id },
          { notice: published.outcome === "published" ? "article-published" : "article-scheduled" },
        ),
      );
    },

    articleUnpublish: (request, reply) => articleAction(request, reply, "unpublish"),
    articleTrash: (request, reply) => articleAction(request, reply, "trash"),
    articleUntrash: (request, reply) => articleAction(request, reply, "untrash"),

    async articlePreviewLink(request, reply) {
      const article = await findArticle(request, reply);
      if (!article) return reply;
      const session = context.sessionOf(request);
      const made = await createContentLink(
        db,
        { kind: "preview", articleId: article.row.id, staff: { id: session.staff.id, name: session.staff.name } },
        context.now(),
      );
      await audit(request, article, "article-link-created", {
        kind: "preview",
        link: made.id,
        revision: article.head!.number,
      });
      return context.seeOther(reply, made.path);
    },

    async articleShareLink(request, reply) {
      const article = await findArticle(request, reply);
      if (!article) return reply;
      const session = context.sessionOf(request);
      const made = await createContentLink(
        db,
        { kind: "share", articleId: article.row.id, staff: { id: session.staff.id, name: session.staff.name } },
        context.now(),
      );
      await audit(request, article, "article-link-created", {
        kind: "share",
        link: made.id,
        expiresAt: made.expiresAt.toISOString(),
      });
      const url = `${new URL(context.siteUrl).origin}${made.path}`;
      return renderEditor(request, reply, article, { issuedShareLink: url });
    },

    async articleShareLinkRevoke(request, reply) {
      const article = await findArticle(request, reply);
      if (!article) return reply;
      const linkId = request.params.linkId;
      const link = isUuid(linkId) ? await articleLink(db, article.row.id, linkId.toLowerCase()) : undefined;
      if (!link)
        return context.problem(request, reply, 404, "Not Found", "There is no such share link of this article.");
      const session = context.sessionOf(request);
      const isAdmin = session.staff.role === "admin";
      if (!isAdmin && link.createdBy !== session.staff.id)
        return context.problem(
          request,
          reply,
          403,
          "Forbidden",
          "Only the person who made a share link, or an admin, can revoke it.",
        );
      const revoked = await revokeContentLink(
        db,
        { articleId: article.row.id, linkId: link.id, onlyBy: isAdmin ? undefined : session.staff.id },
        context.now(),
      );
      if (revoked) await audit(request, article, "article-link-revoked", { kind: link.kind, link: link.id });
      return context.seeOther(reply, adminHref("article", { id: article.row.id }, { notice: "share-link-revoked" }));
    },

    async articleHistory(request, reply) {
      const article = await findArticle(request, reply, "allowed");
      if (!article) return reply;
      const revisions = await revisionList(db, article.row.id);
      return context.render(reply, {
        page: "article-history",
        viewer: context.viewerOf(context.sessionOf(request)),
        article: articleSummary(article),
        revisions: revisions.map((revision) => revisionView(revision, article.row)),
        headId: article.head!.id,
      });
    },

    async articleCompare(request, reply) {
      const article = await findArticle(request, reply, "allowed");
      if (!article) return reply;
      const parsed = parseForm(revisionCompareForm, request.query);
      if (!parsed.ok) {
        const problem = Object.values(parsed.form.errors).find(Boolean) ?? "Choose two revisions.";
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const head = article.head!;
      const toId = parsed.data.to ? Number(parsed.data.to) : head.id;
      const fromId = parsed.data.from ? Number(parsed.data.from) : (head.baseRevisionId ?? head.id);
      const found = await articleRevisions(db, article.row.id, [fromId, toId]);
      const from = found.find((revision) => revision.id === fromId);
      const to = found.find((revision) => revision.id === toId);
      if (!from || !to)
        return context.problem(request, reply, 404, "Not Found", "There is no such revision of this article.");
      const revisions = await revisionList(db, article.row.id);
      return context.render(reply, {
        page: "article-compare",
        viewer: context.viewerOf(context.sessionOf(request)),
        article: articleSummary(article),
        from: revisionView(from, article.row),
        to: revisionView(to, article.row),
        fields: compareDocuments(from.document, to.document),
        revisions: revisions.map((revision) => revisionView(revision, article.row)),
        headId: head.id,
      });
    },

    async articleRevisionRestore(request, reply) {
      const article = await findArticle(request, reply);
      if (!article) return reply;
      const revision = await pathRevision(request, reply, article);
      if (!revision) return reply;
      const base = await actionBase(request, reply, article);
      if (base === undefined) return reply;
      const saved = await saveArticle(db, {
        articleId: article.row.id,
        baseRevisionId: base,
        document: revision.document,
        source: "restore",
        restoredFromId: revision.id,
        author: authorOf(request),
        now: context.now(),
      });
      if (saved.outcome === "stale")
        return renderEditorAgain(request, reply, article.row.id, { error: changedMessage(saved.current) }, 409);
      if (saved.outcome === "invalid")
        return renderEditorAgain(
          request,
          reply,
          article.row.id,
          {
            error: `Revision ${revision.number} cannot be restored as it is: ${saved.problems.map((problem) => problem.message).join("; ")}.`,
          },
          409,
        );
      if (saved.outcome !== "saved" && saved.outcome !== "unchanged")
        return context.problem(request, reply, 404, "Not Found", NO_SUCH_ARTICLE);
      if (saved.outcome === "saved")
        await audit(request, article, "article-revision-restored", {
          revision: saved.revision.number,
          restoredFrom: revision.number,
        });
      return context.seeOther(reply, adminHref("article", { id: article.row.id }, { notice: "revision-restored" }));
    },
  };
}
