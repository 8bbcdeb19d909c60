import type { FastifyReply, FastifyRequest } from "fastify";
import type { AuditAction } from "#shared/admin/audit-actions.ts";
import { firstProblem, formProblem, type FormState, formValues, parseForm } from "#shared/admin/forms.ts";
import type {
  NewsletterCountsView,
  NewsletterEditorView,
  NewsletterFieldsView,
  NewsletterSendView,
  PageMessages,
} from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { newsletterCreateForm, newsletterSaveForm, newsletterSendForm } from "#shared/admin/schemas.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import type { NewsletterSnapshot } from "../../db/schema.ts";
import { renderNewsletter } from "../../newsletter/newsletter-email.ts";
import { newsletterProgress, queueTestSend, sendNewsletter, snapshotOf } from "../../newsletter/queue.ts";
import { newsletterPaths, TEST_UNSUBSCRIBE_TOKEN } from "../../newsletter/tokens.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";
import { indiaTimeLabel } from "../studio/article-fields.ts";
import { savedFirstMessage } from "../saved-first.ts";
import {
  articleChoices,
  confirmedSubscribers,
  createNewsletter,
  defaultArticleIds,
  lastSentAt,
  listNewsletters,
  loadNewsletter,
  type NewsletterRow,
  saveNewsletter,
} from "./newsletter-queries.ts";

// Newsletters in the back office (docs/back-office.md, "Newsletters"): a list, the compose form
// (Subject, Introduction in Markdown, Articles to feature), the preview of the mail as it will
// be sent (HTML in a sandboxed frame, the text part beside it), a test to oneself, and the send:
// a question naming the number of confirmed subscribers, then sendNewsletter
// (src/server/newsletter/queue.ts), which queues one outbox row per subscriber and never twice.
// The door has decided access before a handler runs: composing and tests for all staff, the send
// (and its question) for those who may publish. Once sent, a newsletter is read-only and its page
// shows the counts of its mail.

export type NewsletterRouteName =
  | "newsletters"
  | "newsletterNew"
  | "newsletterCreate"
  | "newsletter"
  | "newsletterSave"
  | "newsletterPreview"
  | "newsletterTest"
  | "newsletterSendConfirm"
  | "newsletterSend"
  | "newsletterProgress";

const NO_SUCH_NEWSLETTER = "There is no such newsletter.";
export const ALREADY_SENT = "This newsletter has already been sent.";
const SENT_NOT_EDITABLE = "This newsletter has been sent, so it can no longer be changed.";
export const MAIL_NOT_CONFIGURED = "Mail is not configured on this site (SMTP_URL), so nothing can be sent.";
export const NO_SUBSCRIBERS = "There are no confirmed subscribers to send to yet.";
const ARTICLES_NOT_PUBLIC = "Articles to feature must be chosen from the list of public articles";

/**
 * The preview's HTML is the mail, served alone for the page's frame, under a policy of its own:
 * `sandbox` without `allow-scripts`, so no script in it runs, no form posts and no link navigates
 * the back office; nothing loaded but the site's images and its own inline styles; and framing by
 * the back office only. `allow-same-origin` keeps the frame's origin the site's, which the site's
 * pictures need (they answer Cross-Origin-Resource-Policy: same-origin, so an opaque origin gets
 * none); with no script able to run, that origin gives the mail no reach into the back office.
 * A separate address rather than `srcdoc`, because a srcdoc frame inherits the back office's
 * policy, which does not allow the mail's pictures from SITE_URL when the site is served under
 * another address (a preview, a test).
 */
function previewPolicy(siteUrl: string): string {
  const site = new URL(siteUrl).origin;
  return [
    "sandbox allow-same-origin",
    "default-src 'none'",
    `img-src ${site} 'self' data:`,
    "style-src 'unsafe-inline'",
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

const EMPTY_COUNTS: NewsletterCountsView = { recipients: 0, queued: 0, sent: 0, failed: 0 };

/** The fields a post typed (arrays of checked boxes included), to show again after a refusal. */
function typedFields(body: unknown): NewsletterFieldsView {
  const values = formValues(body);
  const raw = typeof body === "object" && body !== null ? (body as Record<string, unknown>).articleIds : undefined;
  const ids = (Array.isArray(raw) ? raw : [raw]).filter((id): id is string => typeof id === "string" && isUuid(id));
  return { subject: values.subject ?? "", introduction: values.introduction ?? "", articleIds: ids };
}

/** A refused form's problems, those of one checked box (`articleIds.3`) said at the fieldset. */
function atFields(form: FormState): FormState {
  const errors = { ...form.errors };
  for (const key of Object.keys(errors)) {
    if (!key.startsWith("articleIds.")) continue;
    errors.articleIds ??= errors[key];
    delete errors[key];
  }
  return { ...form, errors };
}

const fieldsOf = (row: NewsletterRow): NewsletterFieldsView => ({
  subject: row.subject,
  introduction: row.introduction,
  articleIds: row.articleIds,
});

export function newsletterRoutes(context: AdminContext): AdminHandlers<NewsletterRouteName> {
  const { db } = context;
  const authorOf = (request: FastifyRequest) => {
    const session = context.sessionOf(request);
    return { id: session.staff.id, label: session.staff.name.slice(0, 200) };
  };
  const canSend = (request: FastifyRequest) => {
    const { staff } = context.sessionOf(request);
    return staff.role === "admin" || staff.canPublish;
  };
  const unsubscribePreviewUrl = () =>
    new URL(newsletterPaths.unsubscribe(TEST_UNSUBSCRIBE_TOKEN), context.siteUrl).href;

  /** The newsletter a path names, or undefined after answering 404 (a malformed id is none: no query). */
  async function findNewsletter(
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
  ): Promise<NewsletterRow | undefined> {
    const id = request.params.id;
    const row = isUuid(id) ? await loadNewsletter(db, id.toLowerCase()) : undefined;
    if (!row) await context.notFound(request, reply, NO_SUCH_NEWSLETTER);
    return row;
  }

  /** What the mail says: the frozen snapshot once sent, else the draft as it is now. */
  async function snapshotFor(row: NewsletterRow): Promise<NewsletterSnapshot> {
    return row.snapshot ?? (await snapshotOf(db, row, context.now()));
  }

  async function mailOf(row: NewsletterRow) {
    return renderNewsletter(await snapshotFor(row), {
      siteUrl: context.siteUrl,
      campaign: row.campaign,
      unsubscribeUrl: unsubscribePreviewUrl(),
    });
  }

  async function countsOf(row: NewsletterRow): Promise<NewsletterCountsView> {
    if (row.status === "draft") return EMPTY_COUNTS;
    const progress = (await newsletterProgress(db, [row.id])).get(row.id);
    if (!progress) return { ...EMPTY_COUNTS, recipients: row.recipients ?? 0 };
    return { recipients: progress.recipients, queued: progress.queued, sent: progress.sent, failed: progress.failed };
  }

  /** The newsletter's page (or a new one's: `row` null). */
  async function showNewsletter(
    request: FastifyRequest,
    reply: FastifyReply,
    row: NewsletterRow | null,
    options: PageMessages & {
      fields?: NewsletterFieldsView;
      version?: number;
      conflict?: NewsletterEditorView["conflict"];
    } = {},
    status = 200,
  ) {
    const { fields, version, conflict, ...messages } = options;
    const now = context.now();
    const [articles, subscribers, since] = await Promise.all([
      articleChoices(db, now),
      confirmedSubscribers(db),
      row ? Promise.resolve(null) : lastSentAt(db),
    ]);
    const preview = row ? await mailOf(row) : null;
    const session = context.sessionOf(request);
    const view: NewsletterEditorView = {
      id: row?.id ?? null,
      status: row?.status ?? "draft",
      version: version ?? row?.version ?? 1,
      campaign: row?.campaign ?? null,
      fields:
        fields ??
        (row ? fieldsOf(row) : { subject: "", introduction: "", articleIds: defaultArticleIds(articles, since) }),
      articles,
      updatedAt: row?.updatedAt.toISOString() ?? null,
      updatedBy: row?.updatedByLabel ?? null,
      preview: preview ? { subject: preview.subject, text: preview.text } : null,
      subscribers,
      mailConfigured: context.mailConfigured,
      canSend: canSend(request),
      sent:
        row && row.status !== "draft"
          ? { at: (row.sentAt ?? row.updatedAt).toISOString(), by: row.sentByLabel, counts: await countsOf(row) }
          : null,
      ...(conflict ? { conflict } : {}),
    };
    // A test's notice names the address it went to: the viewer's own, from the session (never
    // from the request), so no text anyone typed is shown as a notice.
    const notice =
      (request.query as Record<string, unknown> | undefined)?.notice === "newsletter-test-sent"
        ? `Test sent to ${session.staff.email}.`
        : undefined;
    return context.render(
      reply,
      {
        page: "newsletter",
        viewer: context.viewerOf(session),
        newsletter: view,
        ...(notice ? { notice } : {}),
        ...messages,
      },
      status,
    );
  }

  /** "Send to N subscribers?" (or why it cannot be sent now). */
  async function showSend(
    request: FastifyRequest,
    reply: FastifyReply,
    row: NewsletterRow,
    messages: PageMessages = {},
    status = 200,
  ) {
    const [recipients, snapshot] = await Promise.all([confirmedSubscribers(db), snapshotFor(row)]);
    const send: NewsletterSendView = {
      id: row.id,
      subject: row.subject,
      version: row.version,
      articles: snapshot.articles.map((article) => article.title),
      recipients,
      blocked: !context.mailConfigured ? MAIL_NOT_CONFIGURED : recipients === 0 ? NO_SUBSCRIBERS : null,
    };
    return context.render(
      reply,
      { page: "newsletter-send", viewer: context.viewerOf(context.sessionOf(request)), send, ...messages },
      status,
    );
  }

  async function audit(
    request: FastifyRequest,
    row: NewsletterRow,
    action: AuditAction,
    details: Record<string, unknown>,
  ) {
    await context.audit(request, {
      actor: context.actorOf(context.sessionOf(request)),
      action,
      target: { type: "newsletter", id: row.id, label: row.subject },
      details,
    });
  }

  /** Chosen articles that are not public now (one unpublished meanwhile, or an id made up). */
  async function articlesProblem(ids: string[]): Promise<string | undefined> {
    if (ids.length === 0) return undefined;
    const public_ = new Set((await articleChoices(db, context.now())).map((choice) => choice.id));
    return ids.every((id) => public_.has(id)) ? undefined : ARTICLES_NOT_PUBLIC;
  }

  const refused = (body: unknown, field: string, message: string): FormState => formProblem(body, field, message);

  return {
    async newsletters(request, reply) {
      const [rows, subscribers] = await Promise.all([listNewsletters(db), confirmedSubscribers(db)]);
      const sentIds = rows.filter((row) => row.status !== "draft").map((row) => row.id);
      const progress = sentIds.length ? await newsletterProgress(db, sentIds) : new Map();
      return context.render(reply, {
        page: "newsletters",
        viewer: context.viewerOf(context.sessionOf(request)),
        subscribers,
        rows: rows.map((row) => {
          const counts = progress.get(row.id);
          return {
            id: row.id,
            subject: row.subject,
            status: row.status,
            createdAt: row.createdAt.toISOString(),
            sentAt: row.sentAt?.toISOString() ?? null,
            counts:
              row.status === "draft"
                ? null
                : counts
                  ? { recipients: counts.recipients, queued: counts.queued, sent: counts.sent, failed: counts.failed }
                  : { ...EMPTY_COUNTS, recipients: row.recipients ?? 0 },
          };
        }),
      });
    },

    newsletterNew: (request, reply) => showNewsletter(request, reply, null),

    async newsletterCreate(request, reply) {
      const typed = typedFields(request.body);
      const parsed = parseForm(newsletterCreateForm, request.body);
      if (!parsed.ok) return showNewsletter(request, reply, null, { fields: typed, form: atFields(parsed.form) }, 422);
      const fields = { ...parsed.data, articleIds: parsed.data.articleIds.map((id) => id.toLowerCase()) };
      const problem = await articlesProblem(fields.articleIds);
      if (problem)
        return showNewsletter(
          request,
          reply,
          null,
          { fields: typed, form: refused(request.body, "articleIds", problem) },
          422,
        );
      const row = await createNewsletter(db, { fields, author: authorOf(request), now: context.now() });
      await audit(request, row, "newsletter-created", {
        version: row.version,
        campaign: row.campaign,
        articles: row.articleIds.length,
      });
      return context.seeOther(reply, adminHref("newsletter", { id: row.id }, { notice: "newsletter-created" }));
    },

    async newsletter(request, reply) {
      const row = await findNewsletter(request, reply);
      if (!row) return reply;
      return showNewsletter(request, reply, row);
    },

    async newsletterSave(request, reply) {
      const row = await findNewsletter(request, reply);
      if (!row) return reply;
      if (row.status !== "draft") return showNewsletter(request, reply, row, { error: SENT_NOT_EDITABLE }, 409);
      const typed = typedFields(request.body);
      const parsed = parseForm(newsletterSaveForm, request.body);
      if (!parsed.ok) return showNewsletter(request, reply, row, { fields: typed, form: atFields(parsed.form) }, 422);
      const fields = {
        subject: parsed.data.subject,
        introduction: parsed.data.introduction,
        articleIds: parsed.data.articleIds.map((id) => id.toLowerCase()),
      };
      const problem = await articlesProblem(fields.articleIds);
      if (problem)
        return showNewsletter(
          request,
          reply,
          row,
          { fields: typed, form: refused(request.body, "articleIds", problem) },
          422,
        );
      const saved = await saveNewsletter(db, {
        id: row.id,
        expectedVersion: Number(parsed.data.version),
        fields,
        author: authorOf(request),
        now: context.now(),
      });
      if (saved.outcome === "missing") return context.notFound(request, reply, NO_SUCH_NEWSLETTER);
      if (saved.outcome === "sent") return showNewsletter(request, reply, saved.row, { error: SENT_NOT_EDITABLE }, 409);
      if (saved.outcome === "stale") {
        const current = saved.row;
        const by = current.updatedByLabel ?? "someone";
        // What they typed stays in the form, now based on the version shown beside it: saving it
        // again replaces the other text knowingly, with both in view.
        return showNewsletter(
          request,
          reply,
          current,
          {
            fields: typed,
            version: current.version,
            form: { values: formValues(request.body), errors: {} },
            error: `${savedFirstMessage({ by, at: current.updatedAt }, context.now())} Your text is still in the form.`,
            conflict: {
              by: current.updatedByLabel,
              at: current.updatedAt.toISOString(),
              version: current.version,
              fields: fieldsOf(current),
            },
          },
          409,
        );
      }
      if (saved.outcome === "unchanged")
        return context.seeOther(reply, adminHref("newsletter", { id: row.id }, { notice: "newsletter-unchanged" }));
      await audit(request, saved.row, "newsletter-saved", {
        version: saved.row.version,
        articles: saved.row.articleIds.length,
      });
      return context.seeOther(reply, adminHref("newsletter", { id: row.id }, { notice: "newsletter-saved" }));
    },

    async newsletterPreview(request, reply) {
      const row = await findNewsletter(request, reply);
      if (!row) return reply;
      const mail = await mailOf(row);
      return reply
        .header("content-security-policy", previewPolicy(context.siteUrl))
        .header("x-frame-options", "SAMEORIGIN")
        .header("cross-origin-resource-policy", "same-origin")
        .type("text/html; charset=utf-8")
        .send(mail.html);
    },

    async newsletterTest(request, reply) {
      const row = await findNewsletter(request, reply);
      if (!row) return reply;
      if (!context.mailConfigured) return showNewsletter(request, reply, row, { error: MAIL_NOT_CONFIGURED }, 409);
      const recipient = context.sessionOf(request).staff.email;
      const queued = await queueTestSend(db, { newsletterId: row.id, recipient });
      if (!queued.ok) return context.notFound(request, reply, NO_SUCH_NEWSLETTER);
      await audit(request, row, "newsletter-test-sent", { version: row.version, recipient });
      context.onNewsletterQueued?.();
      return context.seeOther(reply, adminHref("newsletter", { id: row.id }, { notice: "newsletter-test-sent" }));
    },

    async newsletterSendConfirm(request, reply) {
      const row = await findNewsletter(request, reply);
      if (!row) return reply;
      if (row.status !== "draft") return context.problem(request, reply, 409, "Conflict", ALREADY_SENT);
      return showSend(request, reply, row);
    },

    async newsletterSend(request, reply) {
      const row = await findNewsletter(request, reply);
      if (!row) return reply;
      if (row.status !== "draft") return context.problem(request, reply, 409, "Conflict", ALREADY_SENT);
      const parsed = parseForm(newsletterSendForm, request.body);
      if (!parsed.ok) {
        const message = firstProblem(parsed.form, "The form is not valid.");
        return context.problem(request, reply, 400, "Bad Request", message);
      }
      const version = Number(parsed.data.version);
      const asked = Number(parsed.data.recipients);
      if (version !== row.version)
        return showSend(
          request,
          reply,
          row,
          {
            error: `This newsletter was changed by ${row.updatedByLabel ?? "someone"} at ${indiaTimeLabel(row.updatedAt, context.now())} after you were asked, so nothing was sent. Check it below, then confirm again.`,
          },
          409,
        );
      if (!context.mailConfigured) return showSend(request, reply, row, { error: MAIL_NOT_CONFIGURED }, 409);
      const recipients = await confirmedSubscribers(db);
      if (recipients === 0) return showSend(request, reply, row, { error: NO_SUBSCRIBERS }, 409);
      if (recipients !== asked)
        return showSend(
          request,
          reply,
          row,
          {
            error: `The number of confirmed subscribers changed from ${asked} to ${recipients} since you were asked, so nothing was sent. Confirm again with the new number.`,
          },
          409,
        );
      const sent = await sendNewsletter(db, {
        newsletterId: row.id,
        expectedVersion: version,
        actor: authorOf(request),
        now: context.now(),
      });
      if (!sent.ok) {
        if (sent.reason === "not-found") return context.notFound(request, reply, NO_SUCH_NEWSLETTER);
        if (sent.reason === "already-sent") return context.problem(request, reply, 409, "Conflict", ALREADY_SENT);
        const current = (await loadNewsletter(db, row.id)) ?? row;
        if (sent.reason === "stale")
          return showSend(
            request,
            reply,
            current,
            {
              error:
                "This newsletter was changed after you were asked, so nothing was sent. Check it, then confirm again.",
            },
            409,
          );
        return showSend(request, reply, current, { error: NO_SUBSCRIBERS }, 409);
      }
      await audit(request, row, "newsletter-sent", { version, recipients: sent.queued, campaign: row.campaign });
      context.onNewsletterQueued?.();
      return context.seeOther(reply, adminHref("newsletter", { id: row.id }, { notice: "newsletter-sent" }));
    },

    async newsletterProgress(request, reply) {
      const row = await findNewsletter(request, reply);
      if (!row) return reply;
      const counts = await countsOf(row);
      return reply.send({ status: row.status, ...counts });
    },
  };
}
