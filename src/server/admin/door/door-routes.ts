import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { StaffRole } from "#shared/admin/pages.ts";
import { formValues, parseForm } from "#shared/admin/forms.ts";
import { ADMIN_HOME, adminHref } from "#shared/admin/routes.ts";
import { signInEmailForm } from "#shared/admin/schemas.ts";
import { passkeys } from "../../db/schema.ts";
import { hitRateLimit, rateLimitKey } from "../../enquiries/rate-limit.ts";
import { clientSubject } from "../../http/client-address.ts";
import { recordAudit } from "../audit/audit.ts";
import type { AdminContext, AdminHandlers, AdminRequest } from "../context.ts";
import { findStaffByEmail, findStaffById, createToken, peekToken, useToken } from "../staff/staff-repository.ts";
import {
  authenticationOptions,
  registrationOptions,
  relyingPartyFor,
  verifyAuthentication,
  verifyRegistration,
} from "./passkeys.ts";
import { safeNextPath } from "./safe-next.ts";
import { clearedSessionCookie, describeDevice, endSession } from "./sessions.ts";

// The door's own routes: the sign-in page and its passkey ceremony, sign-in links by email, the
// one-time links (invitation, sign-in link), adding a passkey, and signing out. Their client
// limits come from the route table; the per-account ones are counted here, on failures only.

/** Sign-in links by email, per account and asking client: an hour's and a day's (ADR 026). */
const LINKS_PER_CLIENT_HOUR = 3;
const LINKS_PER_CLIENT_DAY = 10;

const FORM_ANSWER =
  "If that address belongs to a member of staff, a sign-in link is on its way to it. It works once, within 15 minutes.";

/** A database error that says a unique key already holds this value. */
const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";

export function doorRoutes(
  context: AdminContext,
  secret: string,
): AdminHandlers<
  | "signIn"
  | "signInOptions"
  | "signInVerify"
  | "signInEmail"
  | "invitation"
  | "signInLink"
  | "signInLinkUse"
  | "registrationOptions"
  | "registration"
  | "signOut"
> {
  const { db, now } = context;
  const rp = relyingPartyFor(context.siteUrl);

  /** Whose passkey is being made: the invitation's person, or the signed-in one; undefined after answering. */
  async function registrant(request: AdminRequest<"registration" | "registrationOptions">, reply: FastifyReply) {
    const invitation = formValues(request.body).invitation;
    if (invitation !== undefined) {
      const member = await peekToken(db, invitation, "invitation", now());
      if (!member) {
        await context.problem(
          request,
          reply,
          410,
          "Gone",
          "This invitation has been used or has expired. Ask an admin for a new one.",
        );
        return undefined;
      }
      if (await context.accountAttempts.spent(request, reply, "invitation", member.id)) return undefined;
      return { member, invitation };
    }
    const session = request.staffSession;
    if (!session) {
      await context.problem(request, reply, 401, "Unauthorized", "Sign in to the back office first.");
      return undefined;
    }
    const member = await findStaffById(db, session.staff.id);
    if (!member) await context.problem(request, reply, 401, "Unauthorized", "Sign in to the back office first.");
    return member ? { member, invitation: undefined } : undefined;
  }

  /** Sends a sign-in link unless the account had its share from this client; run by the timer. */
  async function mailSignInLink(email: string, clientAddress: string) {
    const member = await findStaffByEmail(db, email);
    if (!member || member.disabledAt) return;
    // Both caps per account and asking client: nobody elsewhere can spend a person's own requests.
    // A daily cap per account alone let four addresses silence the person for a day (issue 31,
    // finding 11; ADR 026 says what this costs).
    const asker = `staff:${member.id}\n${clientSubject(clientAddress)}`;
    const perHour = await hitRateLimit(
      db,
      rateLimitKey(secret, "admin:link-by-email", asker),
      LINKS_PER_CLIENT_HOUR,
      60 * 60,
    );
    if (!perHour.allowed) return;
    const perDay = await hitRateLimit(
      db,
      rateLimitKey(secret, "admin:link-by-email-day", asker),
      LINKS_PER_CLIENT_DAY,
      24 * 60 * 60,
    );
    if (!perDay.allowed) return;
    const token = await createToken(db, member.id, "sign-in", now());
    await context.queueStaffMail("staff-sign-in-link", member.email, {
      link: `${context.siteUrl}${adminHref("signInLink", { token })}`,
    });
    await recordAudit(
      db,
      {
        actor: { id: member.id, label: member.name },
        action: "sign-in-link-created",
        target: { type: "staff", id: member.id, label: member.email },
        clientAddress,
        details: { by: "email request" },
      },
      now(),
    );
  }

  /** The passkey's answer a ceremony posts as `response`, or undefined. */
  const passkeyAnswer = <Answer>(body: unknown): Answer | undefined => {
    const response = (body as { response?: unknown } | undefined)?.response;
    return typeof response === "object" && response !== null ? (response as Answer) : undefined;
  };
  const badPasskeyAnswer = (request: FastifyRequest, reply: FastifyReply) =>
    context.problem(request, reply, 400, "Bad Request", "The body must carry the passkey's answer as `response`.");

  return {
    async signIn(request, reply) {
      const query = request.query as Record<string, unknown>;
      const next = safeNextPath(query.next);
      if (request.staffSession) return context.seeOther(reply, next);
      return context.render(reply, { page: "sign-in", next, mailConfigured: context.mailConfigured });
    },

    async signInOptions() {
      return authenticationOptions(db, rp, now());
    },

    async signInVerify(request, reply) {
      const response = passkeyAnswer<AuthenticationResponseJSON>(request.body);
      if (!response) return badPasskeyAnswer(request, reply);
      const result = await verifyAuthentication(db, rp, response, now());
      if (result.member && (await context.accountAttempts.spent(request, reply, "sign-in", result.member.id)))
        return reply;
      if (!result.ok) {
        if (result.member) await context.accountAttempts.failed("sign-in", result.member.id);
        await context.audit(request, {
          actor: result.member
            ? { id: result.member.id, label: result.member.name }
            : { id: null, label: "unknown passkey" },
          action: "sign-in-failed",
          target: result.member ? { type: "staff", id: result.member.id, label: result.member.email } : undefined,
          details: { reason: result.reason.slice(0, 200) },
        });
        return context.problem(
          request,
          reply,
          401,
          "Unauthorized",
          `This passkey could not sign you in: ${result.reason}.`,
        );
      }
      await context.startSession(request, reply, result.member.id, "passkey");
      await context.audit(request, {
        actor: { id: result.member.id, label: result.member.name },
        action: "sign-in",
        details: { method: "passkey" },
      });
      return { redirect: safeNextPath(formValues(request.body).next) };
    },

    async signInEmail(request, reply) {
      if (!context.mailConfigured) {
        return context.notFound(request, reply, "Sign-in links by email are not available: this site sends no mail.");
      }
      const parsed = parseForm(signInEmailForm, request.body);
      const next = safeNextPath(formValues(request.body).next);
      if (!parsed.ok) {
        return context.render(reply, { page: "sign-in", next, mailConfigured: true, form: parsed.form }, 400);
      }
      // The same answer, at once, whether or not the address is anyone's: the work waits for the
      // timer, so neither this answer nor the client's next request shows whether it had any.
      const email = parsed.data.email.toLowerCase();
      const clientAddress = request.ip;
      context.queueWork(request, () => mailSignInLink(email, clientAddress));
      return context.render(reply, { page: "sign-in", next, mailConfigured: true, notice: FORM_ANSWER });
    },

    async invitation(request, reply) {
      const member = await peekToken(db, request.params.token, "invitation", now());
      if (!member) return context.render(reply, { page: "link-unusable", kind: "invitation" }, 410);
      return context.render(reply, {
        page: "invitation",
        token: request.params.token,
        invitee: { name: member.name, email: member.email, role: member.role as StaffRole },
      });
    },

    async signInLink(request, reply) {
      const member = await peekToken(db, request.params.token, "sign-in", now());
      if (!member) return context.render(reply, { page: "link-unusable", kind: "sign-in" }, 410);
      // A page with a button, not a sign-in on GET: mail scanners open links, people click them.
      return context.render(reply, {
        page: "sign-in-link",
        token: request.params.token,
        member: { name: member.name, email: member.email },
      });
    },

    async signInLinkUse(request, reply) {
      const peeked = await peekToken(db, request.params.token, "sign-in", now());
      if (peeked && (await context.accountAttempts.spent(request, reply, "sign-in-link", peeked.id))) return reply;
      const member = await useToken(db, request.params.token, "sign-in", now());
      if (!member) return context.render(reply, { page: "link-unusable", kind: "sign-in" }, 410);
      await context.startSession(request, reply, member.id, "sign-in-link");
      const actor = { id: member.id, label: member.name };
      await context.audit(request, {
        actor,
        action: "sign-in-link-used",
        target: { type: "staff", id: member.id, label: member.email },
      });
      await context.audit(request, { actor, action: "sign-in", details: { method: "sign-in-link" } });
      return context.seeOther(reply, adminHref("account", {}, { notice: "signed-in-by-link" }));
    },

    async registrationOptions(request, reply) {
      const who = await registrant(request, reply);
      if (!who) return reply;
      return registrationOptions(db, rp, who.member, now());
    },

    async registration(request, reply) {
      const response = passkeyAnswer<RegistrationResponseJSON>(request.body);
      if (!response) return badPasskeyAnswer(request, reply);
      const who = await registrant(request, reply);
      if (!who) return reply;
      const verified = await verifyRegistration(
        db,
        rp,
        who.member,
        response,
        describeDevice(request.headers["user-agent"]),
        now(),
      );
      if (!verified.ok) {
        if (who.invitation) await context.accountAttempts.failed("invitation", who.member.id);
        return context.problem(
          request,
          reply,
          verified.status,
          verified.status === 409 ? "Conflict" : "Bad Request",
          `The passkey could not be added: ${verified.reason}.`,
        );
      }
      const actor = { id: who.member.id, label: who.member.name };
      const passkeyAdded = {
        actor,
        action: "passkey-added" as const,
        target: { type: "passkey", id: verified.passkey.id, label: verified.passkey.label },
      };
      const alreadyRegistered = () =>
        context.problem(
          request,
          reply,
          409,
          "Conflict",
          "The passkey could not be added: this passkey is already registered.",
        );
      if (who.invitation) {
        // The passkey and the invitation's use are one step: two tabs cannot both accept it.
        const invitation = who.invitation;
        let duplicate = false;
        const accepted = await db
          .transaction(async (tx) => {
            await tx.insert(passkeys).values(verified.passkey);
            const used = await useToken(tx, invitation, "invitation", now());
            if (!used) tx.rollback();
            return used;
          })
          .catch((error: unknown) => {
            duplicate = isUniqueViolation(error);
            return undefined;
          });
        if (duplicate) return alreadyRegistered();
        if (!accepted) {
          return context.problem(
            request,
            reply,
            410,
            "Gone",
            "This invitation has been used or has expired. Ask an admin for a new one.",
          );
        }
        await context.startSession(request, reply, who.member.id, "invitation");
        await context.audit(request, {
          actor,
          action: "invitation-accepted",
          target: { type: "staff", id: who.member.id, label: who.member.email },
        });
        await context.audit(request, passkeyAdded);
        await context.audit(request, { actor, action: "sign-in", details: { method: "invitation" } });
        return { redirect: ADMIN_HOME };
      }
      try {
        await db.insert(passkeys).values(verified.passkey);
      } catch (error) {
        if (isUniqueViolation(error)) return alreadyRegistered();
        throw error;
      }
      await context.audit(request, passkeyAdded);
      return { redirect: adminHref("account", {}, { notice: "passkey-added" }) };
    },

    async signOut(request, reply) {
      const session = context.sessionOf(request);
      await endSession(db, session.idHash);
      await context.audit(request, { actor: context.actorOf(session), action: "sign-out" });
      reply.header("set-cookie", clearedSessionCookie({ secure: context.secure }));
      return context.seeOther(reply, adminHref("signIn", {}, { notice: "signed-out" }));
    },
  };
}
