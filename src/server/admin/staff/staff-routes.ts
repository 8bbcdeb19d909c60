import type { FastifyReply, FastifyRequest } from "fastify";
import { formProblem, parseForm } from "#shared/admin/forms.ts";
import type { PageMessages, StaffRole } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { staffCanPublishForm, staffInviteForm, staffRoleForm } from "#shared/admin/schemas.ts";
import { isUuid } from "#shared/schemas/identifiers.ts";
import type { AdminContext, AdminHandlers, AdminRequest } from "../context.ts";
import { endSessionsOf } from "../door/sessions.ts";
import {
  changeRoleKeepingAnAdmin,
  createToken,
  disableStaffKeepingAnAdmin,
  findStaffByEmail,
  findStaffById,
  inviteStaff,
  listStaff,
  setStaffCanPublish,
  setStaffDisabled,
} from "./staff-repository.ts";

// Staff management (admins): invite, change a role, make a sign-in link, disable, enable, end
// sessions. Inviting someone who already has an account sends them a new link and changes
// nothing else: a role changes only by "Change role", its own audited action. The last active
// admin can be neither disabled nor made staff, checked in the same statement as the change.

const ONLY_ADMIN = "That is the only admin: make someone else an admin first.";

export function staffRoutes(
  context: AdminContext,
): AdminHandlers<
  | "staff"
  | "staffInvite"
  | "staffRole"
  | "staffSignInLink"
  | "staffDisable"
  | "staffEnable"
  | "staffEndSessions"
  | "staffCanPublish"
> {
  const { db, now } = context;

  async function staffPage(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: PageMessages & { issued?: Parameters<typeof issuedLink>[0] } = {},
    status = 200,
  ) {
    const members = await listStaff(db, now());
    return context.render(
      reply,
      {
        page: "staff",
        viewer: context.viewerOf(context.sessionOf(request)),
        staff: members.map((member) => ({
          id: member.id,
          name: member.name,
          email: member.email,
          role: member.role as StaffRole,
          canPublish: member.canPublish,
          createdAt: member.createdAt.toISOString(),
          lastSignInAt: member.lastSignInAt?.toISOString() ?? null,
          disabled: member.disabledAt !== null,
          passkeys: member.passkeys,
          sessions: member.sessions,
        })),
        ...extra,
      },
      status,
    );
  }
  const issuedLink = (link: { kind: "invitation" | "sign-in"; email: string; url: string; mailed: boolean }) => link;

  /** The member of staff a management action names, or undefined after answering 404. */
  async function targetMember(request: AdminRequest<"staffDisable">, reply: FastifyReply) {
    const member = isUuid(request.params.id) ? await findStaffById(db, request.params.id) : undefined;
    if (!member) await staffPage(request, reply, { error: "There is no such member of staff." }, 404);
    return member;
  }

  const target = (member: { id: string; email: string }) => ({ type: "staff", id: member.id, label: member.email });

  return {
    staff: (request, reply) => staffPage(request, reply),

    async staffInvite(request, reply) {
      const parsed = parseForm(staffInviteForm, request.body);
      if (!parsed.ok) return staffPage(request, reply, { form: parsed.form, formName: "invite" }, 400);
      const { name, role } = parsed.data;
      const email = parsed.data.email.toLowerCase();
      const existing = await findStaffByEmail(db, email);
      if (existing?.disabledAt) {
        const form = formProblem(request.body, "email", `${email} is disabled: enable the account first.`);
        return staffPage(request, reply, { form, formName: "invite" }, 409);
      }
      const invited = await inviteStaff(db, { email, name, role }, now());
      const url = `${context.siteUrl}${adminHref("invitation", { token: invited.token })}`;
      const mailed = await context.queueStaffMail("staff-invitation", email, { link: url, name: invited.member.name });
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "invitation-created",
        target: target(invited.member),
        details: { role: invited.member.role, mailed, existing: !invited.created },
      });
      return staffPage(request, reply, { issued: issuedLink({ kind: "invitation", email, url, mailed }) });
    },

    async staffRole(request, reply) {
      const member = await targetMember(request, reply);
      if (!member) return reply;
      const parsed = parseForm(staffRoleForm, request.body);
      if (!parsed.ok) {
        // The role form is one per row: the state belongs to this member's.
        const form = { ...parsed.form, values: { ...parsed.form.values, id: member.id } };
        return staffPage(request, reply, { form, formName: "role" }, 400);
      }
      const role = parsed.data.role;
      if (role === member.role) return context.seeOther(reply, adminHref("staff"));
      const outcome = await changeRoleKeepingAnAdmin(db, member.id, role);
      if (outcome === "not-found")
        return staffPage(request, reply, { error: "There is no such member of staff." }, 404);
      if (outcome === "last-admin") return staffPage(request, reply, { error: ONLY_ADMIN }, 409);
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "staff-role-changed",
        target: target(member),
        details: { from: member.role, to: role },
      });
      return context.seeOther(reply, adminHref("staff", {}, { notice: "role-changed" }));
    },

    async staffSignInLink(request, reply) {
      const member = await targetMember(request, reply);
      if (!member) return reply;
      if (member.disabledAt) {
        return staffPage(request, reply, { error: `${member.email} is disabled: enable the account first.` }, 409);
      }
      const token = await createToken(db, member.id, "sign-in", now());
      const url = `${context.siteUrl}${adminHref("signInLink", { token })}`;
      const mailed = await context.queueStaffMail("staff-sign-in-link", member.email, { link: url });
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "sign-in-link-created",
        target: target(member),
        details: { mailed },
      });
      return staffPage(request, reply, { issued: issuedLink({ kind: "sign-in", email: member.email, url, mailed }) });
    },

    async staffDisable(request, reply) {
      const member = await targetMember(request, reply);
      if (!member) return reply;
      const session = context.sessionOf(request);
      if (member.id === session.staff.id) {
        return staffPage(request, reply, { error: "You cannot disable your own account." }, 409);
      }
      const outcome = await disableStaffKeepingAnAdmin(db, member.id, now());
      if (outcome.outcome === "not-found") {
        return staffPage(request, reply, { error: "There is no such member of staff." }, 404);
      }
      if (outcome.outcome === "last-admin") return staffPage(request, reply, { error: ONLY_ADMIN }, 409);
      await context.audit(request, {
        actor: context.actorOf(session),
        action: "staff-disabled",
        target: target(member),
        details: { sessionsEnded: outcome.sessionsEnded },
      });
      return context.seeOther(reply, adminHref("staff", {}, { notice: "disabled" }));
    },

    async staffEnable(request, reply) {
      const member = await targetMember(request, reply);
      if (!member) return reply;
      await setStaffDisabled(db, member.id, false, now());
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "staff-enabled",
        target: target(member),
      });
      return context.seeOther(reply, adminHref("staff", {}, { notice: "enabled" }));
    },

    // "Can publish": publishing, scheduling, unpublishing and trashing articles without being an
    // admin (the route table's access "publisher"). It applies from the member's next request.
    async staffCanPublish(request, reply) {
      const member = await targetMember(request, reply);
      if (!member) return reply;
      const parsed = parseForm(staffCanPublishForm, request.body);
      if (!parsed.ok) {
        const form = { ...parsed.form, values: { ...parsed.form.values, id: member.id } };
        return staffPage(request, reply, { error: parsed.form.errors.canPublish, form, formName: "can-publish" }, 400);
      }
      const canPublish = parsed.data.canPublish === "true";
      const before = await setStaffCanPublish(db, member.id, canPublish);
      if (before === undefined) return staffPage(request, reply, { error: "There is no such member of staff." }, 404);
      if (before !== canPublish) {
        await context.audit(request, {
          actor: context.actorOf(context.sessionOf(request)),
          action: "staff-can-publish-changed",
          target: target(member),
          details: { from: before, to: canPublish },
        });
      }
      return context.seeOther(reply, adminHref("staff", {}, { notice: "can-publish-changed" }));
    },

    async staffEndSessions(request, reply) {
      const member = await targetMember(request, reply);
      if (!member) return reply;
      const sessions = await endSessionsOf(db, member.id);
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "sessions-ended",
        target: target(member),
        details: { sessions },
      });
      return context.seeOther(reply, adminHref("staff", {}, { notice: "staff-sessions-ended" }));
    },
  };
}
