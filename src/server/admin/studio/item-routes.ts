import type { FastifyReply, FastifyRequest } from "fastify";
import type { AuditAction } from "#shared/admin/audit-actions.ts";
import { studioAuditNames, studioNoticeKeys, studioRouteNames } from "#shared/admin/collections/kind.ts";
import { type FormState, firstProblem, formValues, parseForm } from "#shared/admin/forms.ts";
import { type AdminNotice, noticeOf } from "#shared/admin/notices.ts";
import type { AutosaveAnswer, PageMessages, PresenceAnswer } from "#shared/admin/pages.ts";
import { pageNumberOf } from "#shared/admin/pagination.ts";
import { adminHref } from "#shared/admin/routes.ts";
import {
  articleActionForm,
  articleFilterForm,
  publishRefusedQuery,
  REVISIONS_PER_PAGE,
  revisionCompareForm,
  revisionHistoryForm,
  shareLinkForm,
} from "#shared/admin/schemas.ts";
import { articleStatusOf } from "#shared/content/documents.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import { cardHash } from "../../cards/card-address.ts";
import { CardsBusy } from "../../cards/card-maker.ts";
import { createContentLink, itemLink, revokeContentLink } from "../../content/links.ts";
import { bodyDiffOffThread } from "../../content/render-pool.ts";
import type { RevisionSummary } from "../../content/revisions.ts";
import type { AdminContext } from "../context.ts";
import {
  authorOf as authorOfRequest,
  isViewers as isViewersRevision,
  findOr404,
  problemsForm,
  staleSaveMessage,
} from "../content-kit.ts";
import { compareDocuments } from "./compare.ts";
import type { EditorOptions } from "./editor-view.ts";
import { historyPage } from "./history.ts";
import { itemCounts, itemRevisions, type LoadedItem, loadItem, revisionList, revisionView } from "./item-queries.ts";
import {
  actOnItem,
  createItem,
  type ItemAction,
  publishItem,
  publishProblems,
  saveItem,
  type WriteRefusal,
} from "./item-writes.ts";
import { beat, leave } from "./presence.ts";
import { SHARE_FORM_PROBLEM, shareCookie, shownShareLink } from "./share-cookie.ts";
import type { StudioRouteKind } from "./studio-route-kind.ts";
import { indiaTimeLabel } from "./studio-time.ts";

// The studio's routes for one kind of item (decision 038; 042 for projects), the same handlers for
// articles and projects: the list, the editor (new, save, autosave, presence), publishing
// (publish, schedule, unpublish, trash, restore from the trash), preview and share links, the
// history, comparing two revisions and restoring one. What differs by kind (its forms, its
// fields, its pages, its words in the audit trail and the notices) comes from a StudioRouteKind
// (studio-routes.ts). The door (door/door.ts) has already decided access ("publisher" routes:
// admins and staff allowed to publish) and origin before a handler runs.

/** A revision id in a path: digits, as the database numbers them. */
const REVISION_ID_PATTERN = /^[1-9]\d{0,14}$/;

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/**
 * After a change the public reads (publish, schedule, unpublish, trash) has committed: this
 * instance's page cache starts again at once, not at its next poll (decision 038, section 3). The
 * version itself was bumped in the change's transaction, so other instances see it at their poll.
 */

export function itemRoutes<Doc, Fields>(context: AdminContext, kind: StudioRouteKind<Doc, Fields>) {
  const { db } = context;
  const { spec } = kind;
  const routes = studioRouteNames(kind.definition);
  const notices = studioNoticeKeys(kind.definition.key);
  const actions = studioAuditNames(kind.definition.key);
  const NO_SUCH_ITEM = `There is no such ${spec.noun}.`;
  const IN_THE_TRASH = `This ${spec.noun} is in the trash: restore it from the trash first.`;
  const itemHref = (id: string, notice?: AdminNotice) => adminHref(routes.item, { id }, { notice });
  const authorOf = (request: FastifyRequest) => authorOfRequest(context, request);
  const viewer = (request: FastifyRequest) => context.viewerOf(context.sessionOf(request));

  /**
   * The item a path names, or undefined after answering 404. A malformed id is no item (no query
   * is made); one in the trash is found only where `trashed` allows it.
   */
  const found = {
    // An item without a head revision is none the studio can show.
    load: async (id: string) => {
      const item = await loadItem(db, spec, id);
      return item?.head ? item : undefined;
    },
    inTrash: (item: LoadedItem<Doc>) => item.row.deletedAt !== null,
    words: { missing: NO_SUCH_ITEM, inTheTrash: IN_THE_TRASH },
  };
  const findItem = (request: IdRequest, reply: FastifyReply, trashed: "allowed" | "refused" = "refused") =>
    findOr404(context, request, reply, found, trashed);

  async function renderEditor(
    request: FastifyRequest,
    reply: FastifyReply,
    item: LoadedItem<Doc> | null,
    options: EditorOptions<Doc> & PageMessages = {},
    status = 200,
  ) {
    const { document, conflict, issuedShareLink, shareLinkGone, restored, refused, ...messages } = options;
    const session = context.sessionOf(request);
    const input = {
      item,
      session,
      now: context.now(),
      document,
      conflict,
      issuedShareLink,
      shareLinkGone,
      restored,
      refused,
    };
    return context.render(reply, await kind.pages.editor(db, context.viewerOf(session), input, messages), status);
  }

  /** The editor again, at the item as it is now (after a change that was refused). */
  async function renderEditorAgain(
    request: FastifyRequest,
    reply: FastifyReply,
    itemId: string,
    options: EditorOptions<Doc> & PageMessages,
    status: number,
  ) {
    const item = await loadItem(db, spec, itemId);
    if (!item?.head) return context.problem(request, reply, 404, "Not Found", NO_SUCH_ITEM);
    return renderEditor(request, reply, item, options, status);
  }

  const isViewers = (request: FastifyRequest, revision: RevisionSummary) =>
    isViewersRevision(context, request, revision);
  const changedMessage = (request: FastifyRequest, current: RevisionSummary) =>
    staleSaveMessage(context, request, current);

  /** The fields of a parsed editor form as a document, or the form with the problem of its field. */
  function documentOf(body: unknown, fields: Fields): { document: Doc } | { form: FormState } {
    const built = kind.build(fields);
    if (built.ok) return { document: built.document };
    return { form: problemsForm(body, [{ field: built.field, message: built.message }]) };
  }

  async function audit(
    request: FastifyRequest,
    item: LoadedItem<Doc>,
    action: AuditAction,
    details: Record<string, unknown>,
    title?: string,
  ) {
    await context.audit(request, {
      actor: context.actorOf(context.sessionOf(request)),
      action,
      target: {
        type: spec.kind,
        id: item.row.id,
        label: title ?? (item.head ? spec.titleOf(item.head.document) : null),
      },
      details,
    });
  }

  /** A form save's refusal: 409 (someone saved first), 422 (at the fields) or 404. */
  async function refusedSave(
    request: FastifyRequest,
    reply: FastifyReply,
    item: LoadedItem<Doc>,
    refusal: WriteRefusal,
    document: Doc,
  ) {
    const body = request.body;
    if (refusal.outcome === "missing") return context.problem(request, reply, 404, "Not Found", IN_THE_TRASH);
    if (refusal.outcome === "stale") {
      const current = await loadItem(db, spec, item.row.id);
      if (!current?.head) return context.problem(request, reply, 404, "Not Found", NO_SUCH_ITEM);
      return renderEditor(
        request,
        reply,
        current,
        {
          document,
          // What they typed, now based on the head they have been shown: saving it again replaces
          // the other text knowingly, with both in view.
          form: problemsForm(body, [], current.head.id),
          error: changedMessage(request, refusal.current),
          conflict: {
            current: revisionView(current.head, current.row),
            currentDocument: current.head.document,
            ...(isViewers(request, refusal.current) ? { yours: true } : {}),
          },
        },
        409,
      );
    }
    if (refusal.outcome === "invalid")
      return renderEditor(request, reply, item, { document, form: problemsForm(body, refusal.problems) }, 422);
    return renderEditor(request, reply, item, { document, error: refusal.message }, 409);
  }

  /** The revision a page's action form was made from, or undefined after answering 400. */
  async function actionBase(request: FastifyRequest, reply: FastifyReply, item: LoadedItem<Doc>) {
    const parsed = parseForm(articleActionForm, request.body);
    if (parsed.ok) return Number(parsed.data.baseRevisionId);
    await renderEditor(request, reply, item, { error: parsed.form.errors.baseRevisionId, form: parsed.form }, 400);
    return undefined;
  }

  /** Unpublish, trash and untrash: the base must be the head, each audited. */
  async function itemAction(request: IdRequest, reply: FastifyReply, action: ItemAction) {
    const item = await findItem(request, reply, action === "untrash" ? "allowed" : "refused");
    if (!item) return reply;
    const base = await actionBase(request, reply, item);
    if (base === undefined) return reply;
    const done = await actOnItem(db, spec, {
      itemId: item.row.id,
      baseRevisionId: base,
      action,
      author: authorOf(request),
      now: context.now(),
    });
    if (done.outcome === "missing") return context.problem(request, reply, 404, "Not Found", NO_SUCH_ITEM);
    if (done.outcome === "stale")
      return renderEditorAgain(
        request,
        reply,
        item.row.id,
        {
          error: `This ${spec.noun} was changed by ${done.current.by} at ${indiaTimeLabel(done.current.at, context.now())} (revision ${done.current.number}) after you opened it, so nothing was done. Look at it again, then try again.`,
        },
        409,
      );
    if (done.outcome === "refused") return renderEditorAgain(request, reply, item.row.id, { error: done.message }, 409);
    const named = { unpublish: "unpublished", trash: "trashed", untrash: "untrashed" } as const;
    await audit(request, item, actions[named[action]], {
      revision: done.head.number,
      wasPublic: done.wasPublic,
      status: done.status,
    });
    return context.seeOther(reply, itemHref(item.row.id, notices[named[action]]));
  }

  /** The item's revision a path names (only this item's), or undefined after answering 404. */
  async function pathRevision(
    request: FastifyRequest<{ Params: { id: string; revisionId: string } }>,
    reply: FastifyReply,
    item: LoadedItem<Doc>,
  ) {
    const id = request.params.revisionId;
    const [revision] = REVISION_ID_PATTERN.test(id) ? await itemRevisions(db, spec, item.row.id, [Number(id)]) : [];
    if (!revision)
      await context.problem(request, reply, 404, "Not Found", `There is no such revision of this ${spec.noun}.`);
    return revision;
  }

  const itemSummary = (item: LoadedItem<Doc>) => ({
    id: item.row.id,
    title: item.head ? spec.titleOf(item.head.document) : "",
    status: articleStatusOf(item.row, context.now()),
  });

  /**
   * A new preview or share link of the item, audited. `id`: the key of the form that asked (a
   * share link's); undefined when a link of that id exists already, and nothing was made.
   */
  async function makeLink(request: FastifyRequest, item: LoadedItem<Doc>, linkKind: "preview" | "share", id?: string) {
    const session = context.sessionOf(request);
    const input = {
      kind: linkKind,
      item: { kind: spec.kind, id: item.row.id },
      staff: { id: session.staff.id, name: session.staff.name },
    };
    const made = id
      ? await createContentLink(db, { ...input, id }, context.now())
      : await createContentLink(db, input, context.now());
    if (!made) return undefined;
    await audit(
      request,
      item,
      actions["link-created"],
      linkKind === "preview"
        ? { kind: "preview", link: made.id, revision: item.head!.number }
        : { kind: "share", link: made.id, revision: item.head!.number, expiresAt: made.expiresAt.toISOString() },
    );
    return made;
  }

  return {
    /** The head revision's link-preview card as a JPEG: never kept downstream (the door's no-store). */
    async card(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const card = await kind.card(db, item.head!.document);
      let bytes: Buffer;
      try {
        // Kept under a key no public address has (public ones are "<page key>-<hash>").
        bytes = await context.cards.get(`studio:${cardHash(card)}`, card);
      } catch (error) {
        if (!(error instanceof CardsBusy)) request.log.error({ err: error }, "a draft's card could not be drawn");
        reply.header("retry-after", "2");
        return context.problem(
          request,
          reply,
          503,
          "Service Unavailable",
          "The card cannot be drawn now. Try again in a moment.",
        );
      }
      return reply.code(200).header("content-type", "image/jpeg").send(bytes);
    },
    async list(request: FastifyRequest, reply: FastifyReply) {
      const parsed = parseForm(articleFilterForm, request.query);
      if (!parsed.ok) {
        const problem = firstProblem(parsed.form, "The filter is not one.");
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const filter = { q: parsed.data.q, status: parsed.data.status };
      const pageNumber = pageNumberOf(request.query);
      const now = context.now();
      const counts = await itemCounts(db, spec, now);
      return context.render(
        reply,
        await kind.pages.list(db, { viewer: viewer(request), filter, counts, pageNumber }, now),
      );
    },

    new: (request: FastifyRequest, reply: FastifyReply) => renderEditor(request, reply, null),

    async create(request: FastifyRequest, reply: FastifyReply) {
      const parsed = parseForm(kind.forms.create, request.body);
      const fallback = kind.fromValues(formValues(request.body), kind.empty);
      if (!parsed.ok) return renderEditor(request, reply, null, { document: fallback, form: parsed.form }, 422);
      const built = documentOf(request.body, parsed.data);
      if ("form" in built) return renderEditor(request, reply, null, { document: fallback, form: built.form }, 422);
      const created = await createItem(db, spec, {
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
      return context.seeOther(reply, itemHref(created.id, notices.created));
    },

    async item(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply, "allowed");
      if (!item) return reply;
      const query = parseForm(publishRefusedQuery, request.query);
      if (!query.ok) {
        const problem = firstProblem(query.form, "The address is not one of the editor's.");
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const { publishedAt } = query.data;
      // The schema let through "", "now" or "scheduled" only.
      const when = query.data.refused as "" | "now" | "scheduled";
      // After a restore (its notice): what the public reads now, and Publish (decision 058).
      const restored = noticeOf((request.query as Record<string, unknown>).notice) === "revision-restored";
      // After Share preview: the link it made, to the person and browser that made it.
      const shared = query.data.shared
        ? await shownShareLink(context, request, { kind: spec.kind, id: item.row.id }, query.data.shared)
        : {};
      if (!when || item.row.deletedAt) return renderEditor(request, reply, item, { restored, ...shared });
      // Sent back here by a refused publish: why it was refused, as it stands now (nothing, once
      // someone has fixed it or published it).
      const date = kind.publishDate?.({ publishedAt }) ?? { ok: true, date: undefined };
      const problems = date.ok
        ? await publishProblems(db, spec, { itemId: item.row.id, when, date: date.date, now: context.now() })
        : [{ field: date.field, message: date.message }];
      if (!problems?.length) return renderEditor(request, reply, item);
      const form = problemsForm(kind.publishDate && publishedAt ? { publishedAt } : {}, problems);
      return renderEditor(request, reply, item, { form, refused: "publish" });
    },

    async save(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const fallback = kind.fromValues(formValues(request.body), item.head!.document);
      const parsed = parseForm(kind.forms.save, request.body);
      if (!parsed.ok) return renderEditor(request, reply, item, { document: fallback, form: parsed.form }, 422);
      const built = documentOf(request.body, parsed.data);
      if ("form" in built) return renderEditor(request, reply, item, { document: fallback, form: built.form }, 422);
      const saved = await saveItem(db, spec, {
        itemId: item.row.id,
        baseRevisionId: Number(parsed.data.baseRevisionId),
        document: built.document,
        source: "studio",
        author: authorOf(request),
        now: context.now(),
      });
      if (saved.outcome !== "saved" && saved.outcome !== "unchanged")
        return refusedSave(request, reply, item, saved, built.document);
      return context.seeOther(reply, itemHref(item.row.id, "draft-saved"));
    },

    async autosave(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const parsed = parseForm(kind.forms.save, request.body);
      const invalid = (form: FormState) => {
        const message = firstProblem(form, "The draft is not valid.");
        return reply.code(422).send({ error: "Unprocessable Entity", message, problems: form.errors });
      };
      if (!parsed.ok) return invalid(parsed.form);
      const built = documentOf(request.body, parsed.data);
      if ("form" in built) return invalid(built.form);
      const base = Number(parsed.data.baseRevisionId);
      const saved = await saveItem(db, spec, {
        itemId: item.row.id,
        baseRevisionId: base,
        document: built.document,
        source: "autosave",
        author: authorOf(request),
        sessionIdHash: context.sessionOf(request).idHash,
        now: context.now(),
      });
      if (saved.outcome === "saved" || saved.outcome === "unchanged") {
        const [revision] = await itemRevisions(db, spec, item.row.id, [saved.revision.id]);
        const answer: AutosaveAnswer = {
          saved: true,
          revision: revisionView(revision!, item.row),
          unchanged: saved.outcome === "unchanged",
        };
        return reply.send(answer);
      }
      if (saved.outcome === "stale") {
        // The base may be gone: an autosave that replaced it (decision 048). Then what changed is
        // what the head holds over the revision before it, which the base followed too.
        const found = await itemRevisions(db, spec, item.row.id, [base, saved.current.id]);
        const from = found.some((revision) => revision.id === base)
          ? base
          : (found.find((revision) => revision.id === saved.current.id)?.baseRevisionId ?? undefined);
        const answer: AutosaveAnswer = {
          error: "Conflict",
          message: changedMessage(request, saved.current),
          current: {
            revisionId: saved.current.id,
            number: saved.current.number,
            by: saved.current.by,
            at: saved.current.at.toISOString(),
          },
          compareHref: adminHref(routes.compare, { id: item.row.id }, { from, to: saved.current.id }),
          yours: isViewers(request, saved.current),
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

    async presence(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const body = request.body;
      const leaving = typeof body === "object" && body !== null ? (body as Record<string, unknown>).leaving : undefined;
      if (leaving !== undefined && typeof leaving !== "boolean")
        return context.problem(request, reply, 400, "Bad Request", "`leaving` must be true or false.");
      const session = context.sessionOf(request);
      const present = { sessionIdHash: session.idHash, staffId: session.staff.id };
      if (leaving) {
        await leave(db, spec, item.row.id, present);
        return reply.send({ others: [] } satisfies PresenceAnswer);
      }
      const others = await beat(db, spec, item.row.id, present, context.now());
      return reply.send({ others } satisfies PresenceAnswer);
    },

    async publish(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const fallback = kind.fromValues(formValues(request.body), item.head!.document);
      // Refused before anything is saved: the editor again with what was typed, in place.
      const unsaved = { document: fallback, refused: "publish-unsaved" } as const;
      const parsed = parseForm(kind.forms.publish, request.body);
      if (!parsed.ok) return renderEditor(request, reply, item, { ...unsaved, form: parsed.form }, 422);
      const built = documentOf(request.body, parsed.data);
      if ("form" in built) return renderEditor(request, reply, item, { ...unsaved, form: built.form }, 422);
      const date = kind.publishDate?.(parsed.data as Record<string, unknown>) ?? { ok: true, date: undefined };
      if (!date.ok) {
        const form = problemsForm(request.body, [{ field: date.field, message: date.message }]);
        return renderEditor(request, reply, item, { ...unsaved, form }, 422);
      }
      const author = authorOf(request);
      // Saved first, as "Save draft" would: what the person sees is what is published.
      const saved = await saveItem(db, spec, {
        itemId: item.row.id,
        baseRevisionId: Number(parsed.data.baseRevisionId),
        document: built.document,
        source: "studio",
        author,
        now: context.now(),
      });
      if (saved.outcome !== "saved" && saved.outcome !== "unchanged")
        return refusedSave(request, reply, item, saved, built.document);
      const published = await publishItem(db, spec, {
        itemId: item.row.id,
        headRevisionId: saved.revision.id,
        when: parsed.data.when,
        date: date.date,
        author,
        now: context.now(),
      });
      if (published.outcome === "invalid") {
        // The draft is saved: back to the editor by a redirect, so that reloading it sends nothing
        // again; the page finds the problems again (publishProblems) and lists them at the top. A
        // project's Publish date is the publish form's, not the draft's: it goes along.
        const typedDate = kind.publishDate ? formValues(request.body).publishedAt : undefined;
        return context.seeOther(
          reply,
          adminHref(routes.item, { id: item.row.id }, { refused: parsed.data.when, publishedAt: typedDate }),
        );
      }
      if (published.outcome === "stale" || published.outcome === "missing" || published.outcome === "refused")
        return refusedSave(request, reply, item, published, built.document);
      const title = spec.titleOf(built.document);
      const slug = spec.slugOf(built.document);
      await audit(
        request,
        item,
        published.outcome === "published" ? actions.published : actions.scheduled,
        {
          revision: published.revision.number,
          publishedAt: published.publishedAt?.toISOString() ?? null,
          slug,
        },
        title,
      );
      if (published.slugChange)
        await audit(
          request,
          item,
          actions["slug-changed"],
          { revision: published.revision.number, from: published.slugChange.from, to: published.slugChange.to },
          title,
        );
      return context.seeOther(
        reply,
        itemHref(item.row.id, published.outcome === "published" ? notices.published : notices.scheduled),
      );
    },

    unpublish: (request: IdRequest, reply: FastifyReply) => itemAction(request, reply, "unpublish"),
    trash: (request: IdRequest, reply: FastifyReply) => itemAction(request, reply, "trash"),
    untrash: (request: IdRequest, reply: FastifyReply) => itemAction(request, reply, "untrash"),

    async previewLink(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const made = await makeLink(request, item, "preview");
      return context.seeOther(reply, made!.path);
    },

    // Post/Redirect/Get (decision 058): the post makes the link, hands its token to this browser
    // in a short-lived cookie of the editor's own path, and answers 303 to the editor at
    // ?shared=<link id>#share-link, which shows the address where the button was. Reloading
    // that page shows the same link again (while the cookie lasts), never a new one; the same
    // form sent again names the same key, so it makes no second link either.
    async shareLink(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const parsed = parseForm(shareLinkForm, request.body);
      if (!parsed.ok)
        return context.problem(request, reply, 400, "Bad Request", parsed.form.errors.requestKey ?? SHARE_FORM_PROBLEM);
      const key = parsed.data.requestKey.toLowerCase();
      const shownHere = `${adminHref(routes.item, { id: item.row.id }, { shared: key })}#share-link`;
      const made = await makeLink(request, item, "share", key);
      if (!made) {
        // That form was sent already. Its link is this person's, of this item: the page that shows
        // it (again, or says it was shown). Anything else is no link to show.
        const existing = await itemLink(db, { kind: spec.kind, id: item.row.id }, key);
        if (existing?.kind === "share" && existing.createdBy === context.sessionOf(request).staff.id)
          return context.seeOther(reply, shownHere);
        return context.problem(
          request,
          reply,
          409,
          "Conflict",
          "This Share preview form was sent already, so no second link was made. Reload the page to make another.",
        );
      }
      reply.header(
        "set-cookie",
        shareCookie(adminHref(routes.item, { id: item.row.id }), `${made.id}.${made.token}`, context.secure),
      );
      return context.seeOther(reply, shownHere);
    },

    async shareLinkRevoke(request: FastifyRequest<{ Params: { id: string; linkId: string } }>, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const linked = { kind: spec.kind, id: item.row.id };
      const linkId = request.params.linkId;
      const link = isUuid(linkId) ? await itemLink(db, linked, linkId.toLowerCase()) : undefined;
      if (!link)
        return context.problem(request, reply, 404, "Not Found", `There is no such share link of this ${spec.noun}.`);
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
        { item: linked, linkId: link.id, onlyBy: isAdmin ? undefined : session.staff.id },
        context.now(),
      );
      if (revoked)
        await audit(request, item, actions["link-revoked"], {
          kind: link.kind,
          link: link.id,
          revision: item.head!.number,
        });
      return context.seeOther(reply, itemHref(item.row.id, "share-link-revoked"));
    },

    async history(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply, "allowed");
      if (!item) return reply;
      const parsed = parseForm(revisionHistoryForm, request.query);
      if (!parsed.ok) {
        const problem = firstProblem(parsed.form, "The page is not valid.");
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const pageNumber = parsed.data.page ? Number(parsed.data.page) : 1;
      const { entries, more } = await historyPage(db, spec, item.row, {
        limit: REVISIONS_PER_PAGE,
        offset: (pageNumber - 1) * REVISIONS_PER_PAGE,
      });
      return context.render(
        reply,
        kind.pages.history(viewer(request), {
          item: itemSummary(item),
          revisions: entries,
          headId: item.head!.id,
          pageNumber,
          more,
        }),
      );
    },

    async compare(request: IdRequest, reply: FastifyReply) {
      const item = await findItem(request, reply, "allowed");
      if (!item) return reply;
      const parsed = parseForm(revisionCompareForm, request.query);
      if (!parsed.ok) {
        const problem = firstProblem(parsed.form, "Choose two revisions.");
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const head = item.head!;
      const toId = parsed.data.to ? Number(parsed.data.to) : head.id;
      const fromId = parsed.data.from ? Number(parsed.data.from) : (head.baseRevisionId ?? head.id);
      const found = await itemRevisions(db, spec, item.row.id, [fromId, toId]);
      const from = found.find((revision) => revision.id === fromId);
      const to = found.find((revision) => revision.id === toId);
      if (!from || !to)
        return context.problem(request, reply, 404, "Not Found", `There is no such revision of this ${spec.noun}.`);
      // The newest to choose from, and the two compared wherever they are.
      const newest = await revisionList(db, spec, item.row.id, { limit: REVISIONS_PER_PAGE, offset: 0 });
      const revisions = [
        ...newest,
        ...(from.id === to.id ? [from] : [from, to]).filter(
          (chosen) => !newest.some((revision) => revision.id === chosen.id),
        ),
      ];
      return context.render(
        reply,
        kind.pages.compare(viewer(request), {
          item: itemSummary(item),
          from: revisionView(from, item.row),
          to: revisionView(to, item.row),
          fields: await compareDocuments(spec, from.document, to.document, bodyDiffOffThread),
          revisions: revisions.map((revision) => revisionView(revision, item.row)),
          headId: head.id,
        }),
      );
    },

    async restore(request: FastifyRequest<{ Params: { id: string; revisionId: string } }>, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const revision = await pathRevision(request, reply, item);
      if (!revision) return reply;
      const base = await actionBase(request, reply, item);
      if (base === undefined) return reply;
      const saved = await saveItem(db, spec, {
        itemId: item.row.id,
        baseRevisionId: base,
        document: revision.document,
        source: "restore",
        restoredFromId: revision.id,
        author: authorOf(request),
        now: context.now(),
      });
      if (saved.outcome === "stale")
        return renderEditorAgain(request, reply, item.row.id, { error: changedMessage(request, saved.current) }, 409);
      if (saved.outcome === "invalid")
        return renderEditorAgain(
          request,
          reply,
          item.row.id,
          {
            error: `Revision ${revision.number} cannot be restored as it is: ${saved.problems.map((problem) => problem.message).join("; ")}.`,
          },
          409,
        );
      if (saved.outcome !== "saved" && saved.outcome !== "unchanged")
        return context.problem(request, reply, 404, "Not Found", NO_SUCH_ITEM);
      if (saved.outcome === "saved")
        await audit(request, item, actions["revision-restored"], {
          revision: saved.revision.number,
          restoredFrom: revision.number,
        });
      return context.seeOther(reply, itemHref(item.row.id, "revision-restored"));
    },
  };
}
