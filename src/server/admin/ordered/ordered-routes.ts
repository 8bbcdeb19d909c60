import type { FastifyReply, FastifyRequest } from "fastify";
import type * as z from "zod/mini";
import type { AuditAction } from "#shared/admin/audit-actions.ts";
import { type FieldControl, orderedRouteNames } from "#shared/admin/collections/kind.ts";
import { firstProblem, formValues, parseForm } from "#shared/admin/forms.ts";
import type { AdminNotice } from "#shared/admin/notices.ts";
import type { AdminPageProps, AdminViewer, PageMessages, PhotoChoiceView, RevisionView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { pictureChoiceFor } from "#shared/media.ts";
import { mediaChoices } from "../../media/media-choices.ts";
import type { AdminContext } from "../context.ts";
import { authorOf as authorOfRequest, findOr404, isViewers, problemsForm, staleSaveMessage } from "../content-kit.ts";
import { indiaTimeLabel } from "../studio/studio-time.ts";
import type { OrderedKindSpec } from "./ordered-kind.ts";
import {
  orderedHeadView,
  orderedQueries,
  type OrderedRecord,
  type OrderedStatus,
  orderedStatus,
} from "./ordered-queries.ts";
import { type OrderedAction, orderedWrites } from "./ordered-writes.ts";

// The routes of an ordered kind (the team: docs/decisions/043-the-team-order-is-not-a-revision.md;
// 059 for the kind declared once): the list in the kind's order, an item's page (add, save,
// show, hide, trash, restore) and the order (Move up / Move down as plain forms, the order after
// dragging as JSON). The door has decided access before a handler runs: the list is for everyone,
// every change for those who may publish, since what they change is on the site at once. Each
// change that reaches the public refreshes this instance's page cache after its commit (the others
// follow at their poll).

/** The fields of an item as its form holds them: text, or the ticked choices. */
export type FieldsView = Record<string, string | string[]>;

/** A select field's choices. */
export type FieldOptions = Record<string, { value: string; label: string }[]>;

/** What an item's page is made from, before the kind makes it its page. */
export type OrderedEditorInput<Fields extends FieldsView> = {
  id: string | null;
  /** The item's slug where the kind keeps one (a member's file name); null otherwise or until saved. */
  slug: string | null;
  status: OrderedStatus;
  /** The head revision's fields, or what a refused save sent (then `form` has it too). */
  fields: Fields;
  /** The head revision, which a save must be based on; null for a new item. */
  head: RevisionView | null;
  /** The item's place in the list; null for a new item and one in the trash. */
  position: number | null;
  /** The pictures a picture field may be: the media library's. */
  pictures: PhotoChoiceView[];
  /** A select field's choices, by field. */
  options: FieldOptions;
  /** What stops the head (or the new item) from being published, in words. */
  blockers: string[];
  trashedAt: string | null;
  /** After a save refused because someone saved first: their revision, beside what was typed (`yours`: saved by this person). */
  conflict?: { current: RevisionView; fields: Fields; yours?: boolean };
};

/** What the list's page is made from, before the kind makes it its page. */
export type OrderedListInput<Doc> = {
  viewer: AdminViewer;
  /** The items not in the trash, in order (each with its head). */
  live: (OrderedRecord<Doc> & { head: NonNullable<OrderedRecord<Doc>["head"]> })[];
  trash: (OrderedRecord<Doc> & { head: NonNullable<OrderedRecord<Doc>["head"]> })[];
  pictures: PhotoChoiceView[];
  /** The viewer may change the list (an admin, or "Can publish"). */
  canChange: boolean;
  /** After Move up / Move down: the moved item's button that gets the focus. */
  focus?: { id: string; direction: "up" | "down" };
};

/** What makes an ordered kind's routes: its spec, its forms, its fields and its pages. */
export type OrderedRouteKind<Doc, Fields extends FieldsView> = {
  spec: OrderedKindSpec<Doc>;
  forms: {
    create: z.ZodMiniType<Fields & { visibility: "shown" | "hidden" }>;
    save: z.ZodMiniType<Fields & { baseRevisionId: string }>;
    action: z.ZodMiniType<{ baseRevisionId: string; back: "list" | "member" }>;
    move: z.ZodMiniType<{ direction: "up" | "down" }>;
    order: z.ZodMiniType<{ order: string[] }>;
    list: z.ZodMiniType<{ focus: string }>;
  };
  /** A new item's fields. */
  empty: Fields;
  fieldsOf(document: Doc): Fields;
  /** The document the parsed fields make (its slug, where it has one, is the item's, never the form's). */
  documentOf(fields: Fields): Doc;
  /** What stops a Show: everything the head lacks to be published, in words (the editor's checklist). */
  blockers?(document: Doc): string[];
  /** A select field's choices (a testimonial's project: the projects), read for each page and each save. */
  options?(db: AdminContext["db"]): Promise<FieldOptions>;
  pages: {
    list(input: OrderedListInput<Doc>): AdminPageProps;
    editor(viewer: AdminViewer, input: OrderedEditorInput<Fields>, messages: PageMessages): AdminPageProps;
  };
};

export function orderedRoutes<Doc, Fields extends FieldsView>(
  context: AdminContext,
  kind: OrderedRouteKind<Doc, Fields>,
) {
  const { db } = context;
  const { spec } = kind;
  const { definition } = spec;
  const names = orderedRouteNames(definition);
  const queries = orderedQueries(spec);
  const writes = orderedWrites(spec);
  const fieldNames = Object.keys(kind.empty) as (keyof Fields & string)[];
  /** The picture fields, each of which must be one of the media library's. */
  const fieldsOf = (controls: readonly FieldControl[]) =>
    Object.entries(definition.fields).filter(([, field]) => controls.includes(field.control));
  const pictureFields = fieldsOf(["picture"]).map(([name, field]) => ({
    name,
    problem: `${field.label} must be one of the pictures of the media library`,
  }));
  /** The select fields, each of which must be one of its choices. */
  const selectFields = fieldsOf(["select"]).map(([name, field]) => ({
    name,
    problem: `${field.label} must be chosen from its list`,
  }));
  const notice = (suffix: string) => `${definition.key}-${suffix}` as AdminNotice;
  const listNotice = (suffix: string) => `${definition.listKey}-${suffix}` as AdminNotice;
  const action = (suffix: string) => `${definition.key}-${suffix}` as AuditAction;
  const listHref = (query: Record<string, string>) => adminHref(names.list as "team", {}, query);
  /** The fields ticked or chosen from a list: a form that leaves them out has none ticked. */
  const boxFields = fieldsOf(["checkbox", "choices"]).map(([name, field]) => ({
    name,
    many: field.control === "choices",
  }));
  const blockersOf = (document: Doc) => kind.blockers?.(document) ?? [];
  /** Why a Show is refused, in words, or undefined. */
  const canShow = kind.blockers
    ? (document: Doc) => {
        const blockers = blockersOf(document);
        return blockers.length ? `This ${definition.noun} cannot be published yet: ${blockers.join(" ")}` : undefined;
      }
    : undefined;
  const selectOptions = (): Promise<FieldOptions> => kind.options?.(db) ?? Promise.resolve({});
  const itemHref = (id: string, query: Record<string, string>) => adminHref(names.item as "teamMember", { id }, query);

  const authorOf = (request: FastifyRequest) => authorOfRequest(context, request);
  const pictures = async () =>
    (await mediaChoices(db)).map(({ url, label, thumbnail, key }) => ({ url, label, thumbnail, key }));

  /** What a refused post typed, as the form's fields (anything else it sent is left out). */
  function typedFields(body: unknown, fallback: Fields): Fields {
    const values = formValues(body);
    const fields = { ...fallback } as FieldsView;
    for (const name of fieldNames) if (values[name] !== undefined) fields[name] = values[name];
    const posted = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    for (const { name, many } of boxFields) {
      const value = posted[name];
      const texts = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");
      fields[name] = many ? texts.slice(0, 100) : texts.some((item) => item === "true" || item === "on") ? "true" : "";
    }
    return fields as Fields;
  }

  /** The item a path names, or undefined after answering 404 (a malformed id is no item: no query). */
  const found = {
    load: async (id: string) => {
      const item = await queries.load(db, id);
      return item?.head ? item : undefined;
    },
    inTrash: (item: OrderedRecord<Doc>) => item.deletedAt !== null,
    words: spec.words,
  };
  const findItem = (
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    trashed: "allowed" | "refused" = "refused",
  ) => findOr404(context, request, reply, found, trashed);

  /** The item's page (or the new item's: `item` null). */
  async function renderItem(
    request: FastifyRequest,
    reply: FastifyReply,
    item: OrderedRecord<Doc> | null,
    options: PageMessages & { fields?: Fields; conflict?: OrderedEditorInput<Fields>["conflict"] } = {},
    status = 200,
  ) {
    const { fields, conflict, ...messages } = options;
    const [choices, all, selects] = await Promise.all([
      pictures(),
      item ? queries.inOrder(db) : Promise.resolve([]),
      selectOptions(),
    ]);
    const live = all.filter((row) => !row.deletedAt);
    const index = item ? live.findIndex((row) => row.id === item.id) : -1;
    const input: OrderedEditorInput<Fields> = {
      id: item?.id ?? null,
      slug: item?.slug ?? ((item?.head?.document as { slug?: string } | undefined)?.slug || null),
      status: item ? orderedStatus(item) : "hidden",
      fields: fields ?? (item?.head ? kind.fieldsOf(item.head.document) : kind.empty),
      head: item ? orderedHeadView(item) : null,
      position: index >= 0 ? index + 1 : null,
      pictures: choices,
      options: selects,
      blockers: item?.head ? blockersOf(item.head.document) : [],
      trashedAt: item?.deletedAt?.toISOString() ?? null,
      ...(conflict ? { conflict } : {}),
    };
    return context.render(
      reply,
      kind.pages.editor(context.viewerOf(context.sessionOf(request)), input, messages),
      status,
    );
  }

  /** The item's page again, as the item is now (after a change that was refused). */
  async function renderItemAgain(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    messages: PageMessages,
    status: number,
  ) {
    const item = await queries.load(db, id);
    if (!item?.head) return context.problem(request, reply, 404, "Not Found", spec.words.missing);
    return renderItem(request, reply, item, messages, status);
  }

  /** The first picture field that is not one of the library's pictures (nor the one the item has now, kept as it is). */
  async function pictureProblem(fields: Fields, current?: Fields): Promise<Record<string, string> | undefined> {
    if (!pictureFields.length) return undefined;
    const choices = await pictures();
    for (const { name, problem } of pictureFields) {
      const value = String(fields[name] ?? "");
      if (value === "" || (current !== undefined && value === current[name])) continue;
      if (!pictureChoiceFor(choices, value)) return { [name]: problem };
    }
    return undefined;
  }

  /** The first select field whose value is not one of its choices (nor the one the item has now). */
  async function selectProblem(fields: Fields, current?: Fields): Promise<Record<string, string> | undefined> {
    if (!selectFields.length) return undefined;
    const selects = await selectOptions();
    for (const { name, problem } of selectFields) {
      const value = String(fields[name] ?? "");
      if (value === "" || (current !== undefined && value === current[name])) continue;
      if (!selects[name]?.some((option) => option.value === value.toLowerCase())) return { [name]: problem };
    }
    return undefined;
  }

  /** What the library and the lists say of the fields' values: a picture not in it, a choice not in them. */
  async function valueProblem(fields: Fields, current?: Fields) {
    return (await pictureProblem(fields, current)) ?? (await selectProblem(fields, current));
  }

  const formWith = (body: unknown, errors: Record<string, string>, base?: number) =>
    problemsForm(
      body,
      Object.entries(errors).map(([field, message]) => ({ field, message })),
      base,
    );

  async function audit(
    request: FastifyRequest,
    item: { id: string; name: string },
    done: AuditAction,
    details: Record<string, unknown>,
  ) {
    await context.audit(request, {
      actor: context.actorOf(context.sessionOf(request)),
      action: done,
      target: { type: definition.key, id: item.id, label: item.name },
      details,
    });
  }

  /** Show, Hide, Move to trash and Restore, each audited; back to the page they were asked from. */
  async function itemAction(
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    act: OrderedAction,
  ) {
    const item = await findItem(request, reply, act === "untrash" ? "allowed" : "refused");
    if (!item) return reply;
    const parsed = parseForm(kind.forms.action, request.body);
    if (!parsed.ok) {
      const message = firstProblem(parsed.form, "The form is not valid.");
      return renderItem(request, reply, item, { error: message, form: parsed.form }, 400);
    }
    const done = await writes.act(db, {
      id: item.id,
      base: Number(parsed.data.baseRevisionId),
      action: act,
      author: authorOf(request),
      now: context.now(),
      ...(canShow ? { canShow } : {}),
    });
    if (done.outcome === "missing") return context.problem(request, reply, 404, "Not Found", spec.words.missing);
    if (done.outcome === "stale")
      return renderItemAgain(
        request,
        reply,
        item.id,
        {
          error: `This ${definition.noun} was changed by ${done.current.by} at ${indiaTimeLabel(done.current.at, context.now())} (revision ${done.current.number}) after you opened the page, so nothing was done. Look at it again, then try again.`,
        },
        409,
      );
    if (done.outcome === "refused") return renderItemAgain(request, reply, item.id, { error: done.message }, 409);
    const past = { show: "shown", hide: "hidden", trash: "trashed", untrash: "untrashed" } as const;
    await audit(request, { id: item.id, name: spec.nameOf(item.head!.document) }, action(past[act]), {
      revision: done.head.number,
      wasShown: done.wasShown,
    });
    const said = notice(past[act]);
    const back =
      parsed.data.back === "list" || act === "trash" || act === "untrash"
        ? listHref({ notice: said })
        : itemHref(item.id, { notice: said });
    return context.seeOther(reply, back);
  }

  return {
    async list(request: FastifyRequest, reply: FastifyReply) {
      const parsed = parseForm(kind.forms.list, request.query);
      if (!parsed.ok) {
        const problem = firstProblem(parsed.form, "The address is not valid.");
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const session = context.sessionOf(request);
      const [all, choices] = await Promise.all([queries.inOrder(db), pictures()]);
      const withHead = all.filter((item): item is OrderedListInput<Doc>["live"][number] => item.head !== null);
      const live = withHead.filter((item) => !item.deletedAt);
      const focus = /^(up|down)-(.+)$/.exec(parsed.data.focus);
      return context.render(
        reply,
        kind.pages.list({
          viewer: context.viewerOf(session),
          live,
          trash: withHead.filter((item) => item.deletedAt),
          pictures: choices,
          canChange: session.staff.role === "admin" || session.staff.canPublish,
          ...(focus && live.some((item) => item.id === focus[2])
            ? { focus: { id: focus[2]!, direction: focus[1] as "up" | "down" } }
            : {}),
        }),
      );
    },

    new: (request: FastifyRequest, reply: FastifyReply) => renderItem(request, reply, null),

    async create(request: FastifyRequest, reply: FastifyReply) {
      const parsed = parseForm(kind.forms.create, request.body);
      const typed = typedFields(request.body, kind.empty);
      if (!parsed.ok) return renderItem(request, reply, null, { fields: typed, form: parsed.form }, 422);
      const problem = await valueProblem(parsed.data);
      if (problem)
        return renderItem(request, reply, null, { fields: typed, form: formWith(request.body, problem) }, 422);
      const document = kind.documentOf(parsed.data);
      const shown = parsed.data.visibility === "shown";
      const refusal = shown ? canShow?.(document) : undefined;
      if (refusal)
        return renderItem(
          request,
          reply,
          null,
          { fields: typed, form: formWith(request.body, { visibility: refusal }) },
          422,
        );
      const created = await writes.create(db, { document, shown, author: authorOf(request) });
      await audit(request, { id: created.id, name: spec.nameOf(document) }, action("created"), {
        revision: created.revision.number,
        ...(created.slug ? { slug: created.slug } : {}),
        shown,
      });
      return context.seeOther(
        reply,
        itemHref(created.id, { notice: notice(shown ? "created-shown" : "created-hidden") }),
      );
    },

    async item(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
      const item = await findItem(request, reply, "allowed");
      if (!item) return reply;
      return renderItem(request, reply, item);
    },

    async save(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const head = item.head!;
      const current = kind.fieldsOf(head.document);
      const typed = typedFields(request.body, current);
      const parsed = parseForm(kind.forms.save, request.body);
      if (!parsed.ok) return renderItem(request, reply, item, { fields: typed, form: parsed.form }, 422);
      const problem = await valueProblem(parsed.data, current);
      if (problem)
        return renderItem(request, reply, item, { fields: typed, form: formWith(request.body, problem) }, 422);
      const document = kind.documentOf(parsed.data);
      // A shown item's save is public at once: it must still be publishable.
      const refusal = item.status === "published" && !item.deletedAt ? canShow?.(document) : undefined;
      if (refusal)
        return renderItem(
          request,
          reply,
          item,
          { fields: typed, form: formWith(request.body, {}), error: refusal },
          422,
        );
      const saved = await writes.save(db, {
        id: item.id,
        base: Number(parsed.data.baseRevisionId),
        document,
        author: authorOf(request),
      });
      if (saved.outcome === "missing") return context.problem(request, reply, 404, "Not Found", spec.words.inTheTrash);
      if (saved.outcome === "stale") {
        const now = await queries.load(db, item.id);
        if (!now?.head) return context.problem(request, reply, 404, "Not Found", spec.words.missing);
        // What they typed, now based on the head they are shown beside it: saving it again
        // replaces the other text knowingly, with both in view.
        return renderItem(
          request,
          reply,
          now,
          {
            fields: typed,
            form: formWith(request.body, {}, now.head.id),
            error: staleSaveMessage(context, request, saved.current),
            conflict: {
              current: orderedHeadView(now)!,
              fields: kind.fieldsOf(now.head.document),
              ...(isViewers(context, request, saved.current) ? { yours: true } : {}),
            },
          },
          409,
        );
      }
      if (saved.outcome === "refused") return renderItemAgain(request, reply, item.id, { error: saved.message }, 409);
      if (saved.outcome === "unchanged")
        return context.seeOther(reply, itemHref(item.id, { notice: notice("unchanged") }));
      await audit(request, { id: item.id, name: spec.nameOf(document) }, action("changed"), {
        revision: saved.revision.number,
        shown: saved.shown,
      });
      return context.seeOther(
        reply,
        itemHref(item.id, { notice: notice(saved.shown ? "saved-shown" : "saved-hidden") }),
      );
    },

    show: (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) =>
      itemAction(request, reply, "show"),
    hide: (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) =>
      itemAction(request, reply, "hide"),
    trash: (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) =>
      itemAction(request, reply, "trash"),
    untrash: (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) =>
      itemAction(request, reply, "untrash"),

    async move(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
      const item = await findItem(request, reply);
      if (!item) return reply;
      const parsed = parseForm(kind.forms.move, request.body);
      if (!parsed.ok)
        return context.problem(
          request,
          reply,
          400,
          "Bad Request",
          parsed.form.errors.direction ?? `Choose to move the ${definition.noun} up or down.`,
        );
      const { direction } = parsed.data;
      const moved = await writes.move(db, { id: item.id, direction });
      if (moved.outcome === "missing") return context.problem(request, reply, 404, "Not Found", spec.words.inTheTrash);
      if (moved.outcome === "moved")
        await audit(
          request,
          { id: item.id, name: spec.nameOf(item.head!.document) },
          `${definition.listKey}-order-changed` as AuditAction,
          {
            direction,
            from: moved.from,
            to: moved.to,
          },
        );
      return context.seeOther(
        reply,
        listHref({
          notice: listNotice(moved.outcome === "moved" ? "moved" : "not-moved"),
          focus: `${direction}-${item.id}`,
        }),
      );
    },

    async order(request: FastifyRequest, reply: FastifyReply) {
      const parsed = parseForm(kind.forms.order, request.body);
      if (!parsed.ok) {
        const message = firstProblem(parsed.form, "The order is not valid.");
        return context.problem(request, reply, 400, "Bad Request", message);
      }
      const done = await writes.reorder(db, { ids: parsed.data.order });
      if (done.outcome === "changed") return context.problem(request, reply, 409, "Conflict", spec.words.orderChanged);
      if (done.before.join() !== done.after.join()) {
        const itemNames = await writes.names(db, done.after);
        await context.audit(request, {
          actor: context.actorOf(context.sessionOf(request)),
          action: `${definition.listKey}-order-changed` as AuditAction,
          target: { type: definition.listKey, id: null, label: spec.words.list },
          details: {
            before: done.before.map((id) => itemNames.get(id)),
            after: done.after.map((id) => itemNames.get(id)),
          },
        });
      }
      return reply.send({ redirect: listHref({ notice: listNotice("reordered") }) });
    },
  };
}
