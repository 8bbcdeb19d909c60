import type { FastifyReply, FastifyRequest } from "fastify";
import type { AuditAction } from "#shared/admin/audit-actions.ts";
import { type FormState, formValues, parseForm } from "#shared/admin/forms.ts";
import type { AdminNotice } from "#shared/admin/notices.ts";
import type { PageMessages, TeamMemberEditorView, TeamMemberFieldsView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import {
  TEAM_PHOTO_PROBLEM,
  teamListQuery,
  teamMemberActionForm,
  teamMemberCreateForm,
  teamMemberSaveForm,
  teamMoveForm,
  teamOrderForm,
} from "#shared/admin/schemas.ts";
import { pictureChoiceFor } from "#shared/media.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import { refreshContentVersion } from "../../content/data-version.ts";
import type { RevisionSummary } from "../../content/revisions.ts";
import type { AdminContext, AdminHandlers, AdminRequest } from "../context.ts";
import { indiaTimeLabel } from "../studio/article-fields.ts";
import {
  fieldsOf,
  headView,
  loadMember,
  type MemberRecord,
  memberStatus,
  photoChoices,
  teamInOrder,
} from "./team-queries.ts";
import {
  actOnMember,
  createMember,
  type MemberAction,
  memberNames,
  moveMember,
  reorderTeam,
  saveMember,
  type TeamMemberFields,
} from "./team-writes.ts";

// The team in the studio (docs/decisions/043-the-team-order-is-not-a-revision.md): the list in
// the team's order, a member's page (add, save, show, hide, trash, restore) and the order (Move up
// / Move down as plain forms, the order after dragging as JSON). The door has decided access
// before a handler runs: the list is for everyone, every change for those who may publish,
// since what they change is on the site at once. Queries are in team-queries.ts, changes in
// team-writes.ts; each change that reaches the public refreshes this instance's page cache after
// its commit (the others follow at their poll).

export type TeamRouteName =
  | "team"
  | "teamMemberNew"
  | "teamMemberCreate"
  | "teamMember"
  | "teamMemberSave"
  | "teamMemberShow"
  | "teamMemberHide"
  | "teamMemberTrash"
  | "teamMemberUntrash"
  | "teamMemberMove"
  | "teamOrder";

const NO_SUCH_MEMBER = "There is no such member of the team.";
const IN_THE_TRASH = "This member is in the trash: restore them from the team page first.";

const EMPTY_FIELDS: TeamMemberFieldsView = {
  name: "",
  title: "",
  expertise: "",
  imageUrl: "",
  email: "",
  linkedinUrl: "",
};

const FIELD_NAMES = Object.keys(EMPTY_FIELDS) as (keyof TeamMemberFieldsView)[];

/** What a refused post typed, as the form's fields (anything else it sent is left out). */
function typedFields(body: unknown, fallback: TeamMemberFieldsView): TeamMemberFieldsView {
  const values = formValues(body);
  const fields = { ...fallback };
  for (const name of FIELD_NAMES) if (values[name] !== undefined) fields[name] = values[name];
  return fields;
}

/** The parsed fields as a document's (an empty email or LinkedIn is none). */
function documentFields(data: Record<keyof TeamMemberFieldsView, string>): TeamMemberFields {
  return {
    name: data.name,
    title: data.title,
    expertise: data.expertise,
    imageUrl: data.imageUrl,
    email: data.email || null,
    linkedinUrl: data.linkedinUrl || null,
  };
}

export function teamRoutes(context: AdminContext): AdminHandlers<TeamRouteName> {
  const { db } = context;
  const authorOf = (request: FastifyRequest) => {
    const session = context.sessionOf(request);
    return { id: session.staff.id, label: session.staff.name.slice(0, 200) };
  };

  /** The member a path names, or undefined after answering 404 (a malformed id is no member: no query). */
  async function findMember(
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
    trashed: "allowed" | "refused" = "refused",
  ): Promise<MemberRecord | undefined> {
    const id = request.params.id;
    const member = isUuid(id) ? await loadMember(db, id.toLowerCase()) : undefined;
    if (!member?.head) {
      await context.problem(request, reply, 404, "Not Found", NO_SUCH_MEMBER);
      return undefined;
    }
    if (member.deletedAt && trashed === "refused") {
      await context.problem(request, reply, 404, "Not Found", IN_THE_TRASH);
      return undefined;
    }
    return member;
  }

  /** The member's page (or the new member's: `member` null). */
  async function renderMember(
    request: FastifyRequest,
    reply: FastifyReply,
    member: MemberRecord | null,
    options: PageMessages & { fields?: TeamMemberFieldsView; conflict?: TeamMemberEditorView["conflict"] } = {},
    status = 200,
  ) {
    const { fields, conflict, ...messages } = options;
    const [photos, team] = await Promise.all([photoChoices(db), member ? teamInOrder(db) : Promise.resolve([])]);
    const live = team.filter((row) => !row.deletedAt);
    const index = member ? live.findIndex((row) => row.id === member.id) : -1;
    const view: TeamMemberEditorView = {
      id: member?.id ?? null,
      slug: member?.slug ?? member?.head?.document.slug ?? null,
      status: member ? memberStatus(member) : "hidden",
      fields: fields ?? (member?.head ? fieldsOf(member.head.document) : EMPTY_FIELDS),
      head: member ? headView(member) : null,
      position: index >= 0 ? index + 1 : null,
      photos,
      trashedAt: member?.deletedAt?.toISOString() ?? null,
      ...(conflict ? { conflict } : {}),
    };
    return context.render(
      reply,
      { page: "team-member", viewer: context.viewerOf(context.sessionOf(request)), member: view, ...messages },
      status,
    );
  }

  /** The member's page again, as the member is now (after a change that was refused). */
  async function renderMemberAgain(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    messages: PageMessages,
    status: number,
  ) {
    const member = await loadMember(db, id);
    if (!member?.head) return context.problem(request, reply, 404, "Not Found", NO_SUCH_MEMBER);
    return renderMember(request, reply, member, messages, status);
  }

  /** What a refusal because someone saved first says. */
  const changedMessage = (current: RevisionSummary) =>
    `Changed by ${current.by} at ${indiaTimeLabel(current.at, context.now())} (revision ${current.number}), so your change was not saved.`;

  /** A photo must be one of the library's pictures, or the one the member has now (kept as it is). */
  async function photoProblem(imageUrl: string, current?: string): Promise<string | undefined> {
    if (current !== undefined && imageUrl === current) return undefined;
    const photos = await photoChoices(db);
    return pictureChoiceFor(photos, imageUrl) ? undefined : TEAM_PHOTO_PROBLEM;
  }

  const formWith = (body: unknown, errors: FormState["errors"], base?: number): FormState => {
    const values = formValues(body);
    if (base !== undefined) values.baseRevisionId = String(base);
    return { values, errors };
  };

  async function audit(
    request: FastifyRequest,
    member: { id: string; name: string },
    action: AuditAction,
    details: Record<string, unknown>,
  ) {
    await context.audit(request, {
      actor: context.actorOf(context.sessionOf(request)),
      action,
      target: { type: "team-member", id: member.id, label: member.name },
      details,
    });
  }

  /** Show, Hide, Move to trash and Restore, each audited; back to the page they were asked from. */
  async function memberAction(request: AdminRequest<"teamMemberShow">, reply: FastifyReply, action: MemberAction) {
    const member = await findMember(request, reply, action === "untrash" ? "allowed" : "refused");
    if (!member) return reply;
    const parsed = parseForm(teamMemberActionForm, request.body);
    if (!parsed.ok) {
      const message = Object.values(parsed.form.errors).find(Boolean) ?? "The form is not valid.";
      return renderMember(request, reply, member, { error: message, form: parsed.form }, 400);
    }
    const done = await actOnMember(db, {
      id: member.id,
      base: Number(parsed.data.baseRevisionId),
      action,
      author: authorOf(request),
      now: context.now(),
    });
    if (done.outcome === "missing") return context.problem(request, reply, 404, "Not Found", NO_SUCH_MEMBER);
    if (done.outcome === "stale")
      return renderMemberAgain(
        request,
        reply,
        member.id,
        {
          error: `This member was changed by ${done.current.by} at ${indiaTimeLabel(done.current.at, context.now())} (revision ${done.current.number}) after you opened the page, so nothing was done. Look at it again, then try again.`,
        },
        409,
      );
    if (done.outcome === "refused") return renderMemberAgain(request, reply, member.id, { error: done.message }, 409);
    await refreshContentVersion(db);
    const actions = {
      show: "team-member-shown",
      hide: "team-member-hidden",
      trash: "team-member-trashed",
      untrash: "team-member-untrashed",
    } as const satisfies Record<MemberAction, AuditAction>;
    const name = member.head!.document.name;
    await audit(request, { id: member.id, name }, actions[action], {
      revision: done.head.number,
      wasShown: done.wasShown,
    });
    const notice = actions[action] satisfies AdminNotice;
    const back =
      parsed.data.back === "list" || action === "trash" || action === "untrash"
        ? adminHref("team", {}, { notice })
        : adminHref("teamMember", { id: member.id }, { notice });
    return context.seeOther(reply, back);
  }

  return {
    async team(request, reply) {
      const parsed = parseForm(teamListQuery, request.query);
      if (!parsed.ok) {
        const problem = Object.values(parsed.form.errors).find(Boolean) ?? "The address is not valid.";
        return context.problem(request, reply, 400, "Bad Request", problem);
      }
      const session = context.sessionOf(request);
      const [team, photos] = await Promise.all([teamInOrder(db), photoChoices(db)]);
      const live = team.filter((member) => !member.deletedAt && member.head);
      const focus = /^(up|down)-(.+)$/.exec(parsed.data.focus);
      return context.render(reply, {
        page: "team",
        viewer: context.viewerOf(session),
        rows: live.map((member, index) => {
          const document = member.head!.document;
          return {
            id: member.id,
            name: document.name,
            title: document.title,
            imageUrl: document.imageUrl,
            thumbnail: pictureChoiceFor(photos, document.imageUrl)?.thumbnail ?? document.imageUrl,
            status: memberStatus(member) === "shown" ? "shown" : "hidden",
            position: index + 1,
            headRevisionId: member.head!.id,
          };
        }),
        trash: team
          .filter((member) => member.deletedAt && member.head)
          .map((member) => ({
            id: member.id,
            name: member.head!.document.name,
            title: member.head!.document.title,
            trashedAt: member.deletedAt!.toISOString(),
            trashedBy: member.deletedByLabel,
            headRevisionId: member.head!.id,
          })),
        canChange: session.staff.role === "admin" || session.staff.canPublish,
        ...(focus && live.some((member) => member.id === focus[2])
          ? { focus: { id: focus[2]!, direction: focus[1] as "up" | "down" } }
          : {}),
      });
    },

    teamMemberNew: (request, reply) => renderMember(request, reply, null),

    async teamMemberCreate(request, reply) {
      const parsed = parseForm(teamMemberCreateForm, request.body);
      const typed = typedFields(request.body, EMPTY_FIELDS);
      if (!parsed.ok) return renderMember(request, reply, null, { fields: typed, form: parsed.form }, 422);
      const photo = await photoProblem(parsed.data.imageUrl);
      if (photo)
        return renderMember(
          request,
          reply,
          null,
          { fields: typed, form: formWith(request.body, { imageUrl: photo }) },
          422,
        );
      const fields = documentFields(parsed.data);
      const shown = parsed.data.visibility === "shown";
      const created = await createMember(db, { fields, shown, author: authorOf(request) });
      await refreshContentVersion(db);
      await audit(request, { id: created.id, name: fields.name }, "team-member-created", {
        revision: created.revision.number,
        slug: created.slug,
        shown,
      });
      return context.seeOther(
        reply,
        adminHref(
          "teamMember",
          { id: created.id },
          { notice: shown ? "team-member-created-shown" : "team-member-created-hidden" },
        ),
      );
    },

    async teamMember(request, reply) {
      const member = await findMember(request, reply, "allowed");
      if (!member) return reply;
      return renderMember(request, reply, member);
    },

    async teamMemberSave(request, reply) {
      const member = await findMember(request, reply);
      if (!member) return reply;
      const head = member.head!;
      const typed = typedFields(request.body, fieldsOf(head.document));
      const parsed = parseForm(teamMemberSaveForm, request.body);
      if (!parsed.ok) return renderMember(request, reply, member, { fields: typed, form: parsed.form }, 422);
      const photo = await photoProblem(parsed.data.imageUrl, head.document.imageUrl);
      if (photo)
        return renderMember(
          request,
          reply,
          member,
          { fields: typed, form: formWith(request.body, { imageUrl: photo }) },
          422,
        );
      const fields = documentFields(parsed.data);
      const saved = await saveMember(db, {
        id: member.id,
        base: Number(parsed.data.baseRevisionId),
        fields,
        author: authorOf(request),
      });
      if (saved.outcome === "missing") return context.problem(request, reply, 404, "Not Found", IN_THE_TRASH);
      if (saved.outcome === "stale") {
        const current = await loadMember(db, member.id);
        if (!current?.head) return context.problem(request, reply, 404, "Not Found", NO_SUCH_MEMBER);
        // What they typed, now based on the head they are shown beside it: saving it again
        // replaces the other text knowingly, with both in view.
        return renderMember(
          request,
          reply,
          current,
          {
            fields: typed,
            form: formWith(request.body, {}, current.head.id),
            error: changedMessage(saved.current),
            conflict: { current: headView(current)!, fields: fieldsOf(current.head.document) },
          },
          409,
        );
      }
      if (saved.outcome === "refused")
        return renderMemberAgain(request, reply, member.id, { error: saved.message }, 409);
      if (saved.outcome === "unchanged")
        return context.seeOther(reply, adminHref("teamMember", { id: member.id }, { notice: "team-member-unchanged" }));
      if (saved.shown) await refreshContentVersion(db);
      await audit(request, { id: member.id, name: fields.name }, "team-member-changed", {
        revision: saved.revision.number,
        shown: saved.shown,
      });
      return context.seeOther(
        reply,
        adminHref(
          "teamMember",
          { id: member.id },
          { notice: saved.shown ? "team-member-saved-shown" : "team-member-saved-hidden" },
        ),
      );
    },

    teamMemberShow: (request, reply) => memberAction(request, reply, "show"),
    teamMemberHide: (request, reply) => memberAction(request, reply, "hide"),
    teamMemberTrash: (request, reply) => memberAction(request, reply, "trash"),
    teamMemberUntrash: (request, reply) => memberAction(request, reply, "untrash"),

    async teamMemberMove(request, reply) {
      const member = await findMember(request, reply);
      if (!member) return reply;
      const parsed = parseForm(teamMoveForm, request.body);
      if (!parsed.ok)
        return context.problem(
          request,
          reply,
          400,
          "Bad Request",
          parsed.form.errors.direction ?? "Choose to move the member up or down.",
        );
      const { direction } = parsed.data;
      const moved = await moveMember(db, { id: member.id, direction });
      if (moved.outcome === "missing") return context.problem(request, reply, 404, "Not Found", IN_THE_TRASH);
      await refreshContentVersion(db);
      if (moved.outcome === "moved")
        await audit(request, { id: member.id, name: member.head!.document.name }, "team-order-changed", {
          direction,
          from: moved.from,
          to: moved.to,
        });
      return context.seeOther(
        reply,
        adminHref(
          "team",
          {},
          { notice: moved.outcome === "moved" ? "team-moved" : "team-not-moved", focus: `${direction}-${member.id}` },
        ),
      );
    },

    async teamOrder(request, reply) {
      const parsed = parseForm(teamOrderForm, request.body);
      if (!parsed.ok) {
        const message = Object.values(parsed.form.errors).find(Boolean) ?? "The order is not valid.";
        return context.problem(request, reply, 400, "Bad Request", message);
      }
      const done = await reorderTeam(db, { ids: parsed.data.order });
      if (done.outcome === "changed")
        return context.problem(
          request,
          reply,
          409,
          "Conflict",
          "The team changed since this page was opened (a member was added, moved to the trash or restored), so the order was not saved. Reload the page and try again.",
        );
      await refreshContentVersion(db);
      if (done.before.join() !== done.after.join()) {
        const names = await memberNames(db, done.after);
        await context.audit(request, {
          actor: context.actorOf(context.sessionOf(request)),
          action: "team-order-changed",
          target: { type: "team", id: null, label: "The team" },
          details: {
            before: done.before.map((id) => names.get(id)),
            after: done.after.map((id) => names.get(id)),
          },
        });
      }
      return reply.send({ redirect: adminHref("team", {}, { notice: "team-reordered" }) });
    },
  };
}
