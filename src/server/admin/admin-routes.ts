import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { and, desc, eq, gt, ne } from "drizzle-orm";
import { type AdminPageProps, adminPaths, type IssuedLink, type StaffRole } from "#shared/admin/pages.ts";
import type { FormState } from "#shared/admin/forms.ts";
import type { ApiErrorBody } from "#shared/api-types.ts";
import { hasControlCharacters } from "#shared/schemas/text-rules.ts";
import { nextIndiaDay, parseIndiaDate, startOfIndiaDay } from "#shared/india-time.ts";
import type { Database } from "../db/client.ts";
import { mailOutbox, passkeys, staff, staffSessions } from "../db/schema.ts";
import { clientRateLimitKey, hitRateLimit, rateLimitKey } from "../enquiries/rate-limit.ts";
import { crossSiteProblem, originOf } from "../http/same-origin.ts";
import type { AdminRenderer } from "../render/admin-renderer.ts";
import { type Access, actorOf, type AdminContext, type AdminPart, viewerOf } from "./admin-context.ts";
import { AUDIT_ACTIONS, type AuditEventInput, listAudit, recordAudit } from "./audit.ts";
import { defaultRetentionPeriods } from "../enquiries/retention.ts";
import { registerInbox } from "./inbox.ts";
import { registerPrivacy } from "./privacy.ts";
import { registerSubscribers } from "./subscribers.ts";
import { analyticsPart } from "../analytics/analytics-part.ts";
import type { ViewCounter } from "../analytics/counting.ts";
import {
  authenticationOptions,
  listPasskeys,
  registrationOptions,
  relyingPartyFor,
  removePasskey,
  verifyAuthentication,
  verifyRegistration,
} from "./passkeys.ts";
import {
  clearedSessionCookie,
  createSession,
  describeDevice,
  endSession,
  endSessionsOf,
  findSession,
  sessionCookie,
  sessionCookieValue,
  type SessionMethod,
  type StaffSession,
} from "./sessions.ts";
import {
  countActiveAdmins,
  createToken,
  findStaffByEmail,
  findStaffById,
  invitationPath,
  inviteStaff,
  listStaff,
  normaliseEmail,
  peekToken,
  setStaffDisabled,
  signInLinkPath,
  STAFF_ROLES,
  useToken,
} from "./staff-repository.ts";

// The back office's door: everything under /admin. Every answer is private (no-store, noindex, no
// Referer); every request that changes something must come from the site's own pages; every page
// but sign-in and the one-time links needs a live session, and staff management and the audit
// trail need an admin. Access is decided here, per route, by its `access`.
// docs/decisions/026-passkeys-and-database-sessions.md has the why.

export type AdminDependencies = {
  db: Database;
  siteUrl: string;
  renderer?: AdminRenderer;
  /** Keys the rate limits (the same secret as the forms'). */
  secret: string;
  mailConfigured: boolean;
  /** How long spam and closed enquiries are kept (the privacy page states it). */
  retention?: { spamDays: number; closedEnquiryDays: number };
  /** Attempts at the doors (sign-in, invitation, one-time link) one client may make a minute. */
  attemptsPerMinute: number;
  /** Sign-in links by email one client may ask for a minute. */
  linkRequestsPerMinute: number;
  /** Told when staff mail was queued, so the outbox sends it at once. */
  onMailQueued?: () => void;
  /** The clock (tests move it to check expiry). */
  now?: () => Date;
  /** The back office's parts behind the door (the inbox, analytics…), registered on the /admin plugin. */
  parts?: AdminPart[];
  /** Counts page views: the analytics dashboard writes its waiting views before reporting. */
  counter?: ViewCounter;
};

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may use a back-office route: anyone, a signed-in member of staff, or an admin. */
    access?: Access;
  }
  interface FastifyRequest {
    staffSession?: StaffSession;
  }
}

/** The parts behind the door, in order. */
const defaultParts = (deps: AdminDependencies): AdminPart[] => [
  registerInbox,
  registerSubscribers,
  registerPrivacy,
  analyticsPart(deps.counter),
];

/** Limits per account (attempts per window, in seconds), for each door. */
const accountLimits = {
  signIn: { account: 10, accountWindow: 15 * 60 },
  invitation: { account: 10, accountWindow: 15 * 60 },
  signInLink: { account: 10, accountWindow: 15 * 60 },
  linkByEmail: { account: 3, accountWindow: 60 * 60 },
} as const;

const notices: Record<string, string> = {
  "signed-out": "You have signed out.",
  "passkey-added": "Your new passkey is ready: you can sign in with it from now on.",
  "passkey-removed": "The passkey was removed. It can no longer sign you in.",
  "signed-in-by-link":
    "You are signed in with a one-time link. Add a passkey for this device now, so that next time you can sign in with it.",
  "sessions-ended": "Your other sessions have ended.",
  disabled: "The account is disabled and its sessions have ended.",
  enabled: "The account is enabled again.",
  "staff-sessions-ended": "Their sessions have ended.",
};

/** Whether the client wants JSON back: the API under /admin/api, or an Accept that prefers it. */
function wantsJson(request: FastifyRequest): boolean {
  if (request.url.startsWith("/admin/api/")) return true;
  const accept = String(request.headers.accept ?? "");
  return accept.includes("application/json") && !accept.includes("text/html");
}

/** A local path under /admin to go to after signing in; anything else becomes /admin. */
export function safeNextPath(value: unknown): string {
  if (typeof value !== "string" || value.length > 500) return adminPaths.home;
  if (!/^\/admin(?:[/?#]|$)/.test(value) || value.includes("//") || value.includes("\\") || hasControlCharacters(value))
    return adminPaths.home;
  if (value.startsWith(adminPaths.signIn)) return adminPaths.home;
  return value;
}

function field(body: unknown, name: string): string | undefined {
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" ? value : undefined;
}

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const withoutControlCharacters = (value: string) =>
  [...value]
    .filter((char) => !hasControlCharacters(char))
    .join("")
    .slice(0, 300);

export async function registerAdmin(app: FastifyInstance, deps: AdminDependencies): Promise<void> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const rp = relyingPartyFor(deps.siteUrl);
  const siteOrigin = originOf(deps.siteUrl);
  // Per client address, per minute. Asking for sign-in options costs nothing, so more of those.
  const limits = {
    signInOptions: { client: deps.attemptsPerMinute * 3 },
    signIn: { client: deps.attemptsPerMinute, ...accountLimits.signIn },
    invitation: { client: deps.attemptsPerMinute, ...accountLimits.invitation },
    signInLink: { client: deps.attemptsPerMinute, ...accountLimits.signInLink },
    linkByEmail: { client: deps.linkRequestsPerMinute, ...accountLimits.linkByEmail },
  };
  const secure = deps.siteUrl.startsWith("https://");

  const audit = (request: FastifyRequest, event: Omit<AuditEventInput, "clientAddress">) =>
    recordAudit(db, { ...event, clientAddress: request.ip }, now());

  async function render(reply: FastifyReply, props: AdminPageProps, status = 200) {
    if (!deps.renderer)
      return reply.code(503).send({ error: "Service Unavailable", message: "The back office is not being served." });
    const html = await deps.renderer.render(props);
    return reply.code(status).type("text/html; charset=utf-8").send(html);
  }

  function problem(request: FastifyRequest, reply: FastifyReply, status: number, title: string, message: string) {
    if (wantsJson(request)) {
      const body: ApiErrorBody = { error: title, message };
      return reply.code(status).send(body);
    }
    const viewer = request.staffSession ? viewerOf(request.staffSession) : undefined;
    return render(reply, { page: "error", viewer, status, title, message }, status);
  }

  /** A limit per client address; answers 429 and returns false when it is spent. */
  async function withinClientLimit(request: FastifyRequest, reply: FastifyReply, action: string, perMinute: number) {
    const verdict = await hitRateLimit(
      db,
      clientRateLimitKey(deps.secret, `admin:${action}`, request.ip),
      perMinute,
      60,
    );
    if (verdict.allowed) return true;
    reply.header("retry-after", String(verdict.retryAfterSeconds));
    await problem(
      request,
      reply,
      429,
      "Too Many Requests",
      `Too many attempts from your address. Please wait ${verdict.retryAfterSeconds} seconds and try again.`,
    );
    return false;
  }

  /** A limit per account; answers 429 and returns false when it is spent. */
  async function withinAccountLimit(
    request: FastifyRequest,
    reply: FastifyReply,
    action: string,
    staffId: string,
    limit: number,
    windowSeconds: number,
  ) {
    const verdict = await hitRateLimit(
      db,
      rateLimitKey(deps.secret, `admin:${action}`, `staff:${staffId}`),
      limit,
      windowSeconds,
    );
    if (verdict.allowed) return true;
    reply.header("retry-after", String(verdict.retryAfterSeconds));
    await problem(
      request,
      reply,
      429,
      "Too Many Requests",
      `Too many attempts for this account. Please wait ${Math.ceil(verdict.retryAfterSeconds / 60)} minutes and try again.`,
    );
    return false;
  }

  async function startSession(request: FastifyRequest, reply: FastifyReply, staffId: string, method: SessionMethod) {
    const id = await createSession(db, staffId, {
      method,
      device: describeDevice(request.headers["user-agent"]),
      now: now(),
    });
    reply.header("set-cookie", sessionCookie(id, { secure }));
  }

  /** Queues a staff mail with its link; returns whether it will be mailed. */
  async function queueStaffMail(
    kind: "staff-sign-in-link" | "staff-invitation",
    recipient: string,
    payload: Record<string, string>,
  ) {
    if (!deps.mailConfigured) return false;
    await db.insert(mailOutbox).values({ kind, recipient, payload, submissionId: null });
    deps.onMailQueued?.();
    return true;
  }

  await app.register(
    async (admin) => {
      admin.addHook("onRequest", async (request, reply) => {
        reply
          .header("cache-control", "no-store")
          .header("x-robots-tag", "noindex, nofollow")
          .header("referrer-policy", "no-referrer");
        if (request.method !== "GET" && request.method !== "HEAD") {
          // Stricter than the public forms: a change must say it came from the site itself.
          const fetchSite = request.headers["sec-fetch-site"];
          const fromSite =
            fetchSite !== undefined
              ? fetchSite === "same-origin"
              : request.headers.origin !== undefined &&
                crossSiteProblem(request.headers, { siteOrigin, acceptLoopback: false }) === undefined;
          if (!fromSite) {
            return problem(
              request,
              reply,
              403,
              "Forbidden",
              "Changes to the back office are accepted from the back office's own pages only.",
            );
          }
        }
        const cookie = sessionCookieValue(request.headers.cookie);
        if (cookie) request.staffSession = await findSession(db, cookie, now());
      });

      admin.addHook("preHandler", async (request, reply) => {
        const access = request.routeOptions.config.access ?? "staff";
        if (access === "public") return;
        if (!request.staffSession) {
          if (wantsJson(request))
            return problem(request, reply, 401, "Unauthorized", "Sign in to the back office first.");
          const next = request.method === "GET" ? safeNextPath(request.url) : adminPaths.home;
          const query = next === adminPaths.home ? "" : `?next=${encodeURIComponent(next)}`;
          return reply.code(303).header("location", `${adminPaths.signIn}${query}`).send();
        }
        if (access === "admin" && request.staffSession.staff.role !== "admin") {
          return problem(request, reply, 403, "Forbidden", "This part of the back office is for admins.");
        }
      });

      const route = (access: Access) => ({ config: { access } });
      const sessionOf = (request: FastifyRequest) => request.staffSession!;

      // Sign-in ----------------------------------------------------------------------------------

      admin.get("/sign-in", route("public"), async (request, reply) => {
        const query = request.query as Record<string, unknown>;
        const next = safeNextPath(query.next);
        if (request.staffSession) return reply.code(303).header("location", next).send();
        const notice = typeof query.notice === "string" ? notices[query.notice] : undefined;
        return render(reply, { page: "sign-in", next, mailConfigured: deps.mailConfigured, notice });
      });

      admin.post("/api/sign-in/options", route("public"), async (request, reply) => {
        if (!(await withinClientLimit(request, reply, "sign-in-options", limits.signInOptions.client))) return reply;
        return authenticationOptions(db, rp, now());
      });

      admin.post("/api/sign-in", route("public"), async (request, reply) => {
        if (!(await withinClientLimit(request, reply, "sign-in", limits.signIn.client))) return reply;
        const response = (request.body as { response?: AuthenticationResponseJSON } | undefined)?.response;
        if (!response || typeof response !== "object") {
          return problem(request, reply, 400, "Bad Request", "The body must carry the passkey's answer as `response`.");
        }
        const result = await verifyAuthentication(db, rp, response, now());
        if (
          result.member &&
          !(await withinAccountLimit(
            request,
            reply,
            "sign-in",
            result.member.id,
            limits.signIn.account,
            limits.signIn.accountWindow,
          ))
        ) {
          return reply;
        }
        if (!result.ok) {
          await audit(request, {
            actor: result.member
              ? { id: result.member.id, label: result.member.name }
              : { id: null, label: "unknown passkey" },
            action: "sign-in-failed",
            target: result.member ? { type: "staff", id: result.member.id, label: result.member.email } : undefined,
            details: { reason: result.reason.slice(0, 200) },
          });
          return problem(request, reply, 401, "Unauthorized", `This passkey could not sign you in: ${result.reason}.`);
        }
        await startSession(request, reply, result.member.id, "passkey");
        await audit(request, {
          actor: { id: result.member.id, label: result.member.name },
          action: "sign-in",
          details: { method: "passkey" },
        });
        return { redirect: safeNextPath(field(request.body, "next")) };
      });

      admin.post("/sign-in/email", route("public"), async (request, reply) => {
        if (!deps.mailConfigured)
          return problem(
            request,
            reply,
            404,
            "Not Found",
            "Sign-in links by email are not available: this site sends no mail.",
          );
        if (!(await withinClientLimit(request, reply, "link-by-email", limits.linkByEmail.client))) return reply;
        const email = normaliseEmail(field(request.body, "email") ?? "");
        const next = safeNextPath(field(request.body, "next"));
        if (!emailShape.test(email) || email.length > 254 || hasControlCharacters(email)) {
          return render(
            reply,
            {
              page: "sign-in",
              next,
              mailConfigured: true,
              form: { values: { email }, errors: { email: "Enter the email address of your staff account." } },
            },
            400,
          );
        }
        const member = await findStaffByEmail(db, email);
        if (member && !member.disabledAt) {
          const allowed = await hitRateLimit(
            db,
            rateLimitKey(deps.secret, "admin:link-by-email", `staff:${member.id}`),
            limits.linkByEmail.account,
            limits.linkByEmail.accountWindow,
          );
          // Past the account's limit nothing more is sent, and the answer stays the same.
          if (allowed.allowed) {
            const token = await createToken(db, member.id, "sign-in", now());
            await queueStaffMail("staff-sign-in-link", member.email, {
              link: `${deps.siteUrl}${signInLinkPath(token)}`,
            });
            await audit(request, {
              actor: { id: member.id, label: member.name },
              action: "sign-in-link-created",
              target: { type: "staff", id: member.id, label: member.email },
              details: { by: "email request" },
            });
          }
        }
        // The same answer whether or not the address belongs to anyone.
        return render(reply, {
          page: "sign-in",
          next,
          mailConfigured: true,
          notice:
            "If that address belongs to a member of staff, a sign-in link is on its way to it. It works once, within 15 minutes.",
        });
      });

      // One-time links ---------------------------------------------------------------------------

      admin.get<{ Params: { token: string } }>("/invite/:token", route("public"), async (request, reply) => {
        if (!(await withinClientLimit(request, reply, "invitation", limits.invitation.client))) return reply;
        const member = await peekToken(db, request.params.token, "invitation", now());
        if (!member) return render(reply, { page: "link-unusable", kind: "invitation" }, 410);
        return render(reply, {
          page: "invitation",
          token: request.params.token,
          invitee: { name: member.name, email: member.email, role: member.role as StaffRole },
        });
      });

      admin.get<{ Params: { token: string } }>("/sign-in-link/:token", route("public"), async (request, reply) => {
        if (!(await withinClientLimit(request, reply, "sign-in-link", limits.signInLink.client))) return reply;
        const member = await peekToken(db, request.params.token, "sign-in", now());
        if (!member) return render(reply, { page: "link-unusable", kind: "sign-in" }, 410);
        // A page with a button, not a sign-in on GET: mail scanners open links, people click them.
        return render(reply, {
          page: "sign-in-link",
          token: request.params.token,
          member: { name: member.name, email: member.email },
        });
      });

      admin.post<{ Params: { token: string } }>("/sign-in-link/:token", route("public"), async (request, reply) => {
        if (!(await withinClientLimit(request, reply, "sign-in-link", limits.signInLink.client))) return reply;
        const peeked = await peekToken(db, request.params.token, "sign-in", now());
        if (
          peeked &&
          !(await withinAccountLimit(
            request,
            reply,
            "sign-in-link",
            peeked.id,
            limits.signInLink.account,
            limits.signInLink.accountWindow,
          ))
        )
          return reply;
        const member = await useToken(db, request.params.token, "sign-in", now());
        if (!member) return render(reply, { page: "link-unusable", kind: "sign-in" }, 410);
        await startSession(request, reply, member.id, "sign-in-link");
        await audit(request, {
          actor: { id: member.id, label: member.name },
          action: "sign-in-link-used",
          target: { type: "staff", id: member.id, label: member.email },
        });
        await audit(request, {
          actor: { id: member.id, label: member.name },
          action: "sign-in",
          details: { method: "sign-in-link" },
        });
        return reply.code(303).header("location", `${adminPaths.account}?notice=signed-in-by-link`).send();
      });

      // Passkeys ---------------------------------------------------------------------------------

      /** Whose passkey is being made: the invitation's person, or the signed-in one. */
      async function registrant(request: FastifyRequest, reply: FastifyReply) {
        const invitation = field(request.body, "invitation");
        if (invitation !== undefined) {
          if (!(await withinClientLimit(request, reply, "invitation", limits.invitation.client))) return undefined;
          const member = await peekToken(db, invitation, "invitation", now());
          if (!member) {
            await problem(
              request,
              reply,
              410,
              "Gone",
              "This invitation has been used or has expired. Ask an admin for a new one.",
            );
            return undefined;
          }
          if (
            !(await withinAccountLimit(
              request,
              reply,
              "invitation",
              member.id,
              limits.invitation.account,
              limits.invitation.accountWindow,
            ))
          )
            return undefined;
          return { member, invitation };
        }
        const session = request.staffSession;
        if (!session) {
          await problem(request, reply, 401, "Unauthorized", "Sign in to the back office first.");
          return undefined;
        }
        const member = await findStaffById(db, session.staff.id);
        return member ? { member, invitation: undefined } : undefined;
      }

      admin.post("/api/passkeys/registration-options", route("public"), async (request, reply) => {
        const who = await registrant(request, reply);
        if (!who) return reply;
        return registrationOptions(db, rp, who.member, now());
      });

      admin.post("/api/passkeys/registration", route("public"), async (request, reply) => {
        const response = (request.body as { response?: RegistrationResponseJSON } | undefined)?.response;
        if (!response || typeof response !== "object") {
          return problem(request, reply, 400, "Bad Request", "The body must carry the passkey's answer as `response`.");
        }
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
        if (!verified.ok)
          return problem(request, reply, 400, "Bad Request", `The passkey could not be added: ${verified.reason}.`);
        const actor = { id: who.member.id, label: who.member.name };
        if (who.invitation) {
          // The passkey and the invitation's use are one step: two tabs cannot both accept it.
          const accepted = await db
            .transaction(async (tx) => {
              await tx.insert(passkeys).values(verified.passkey);
              const used = await useToken(tx as unknown as Database, who.invitation!, "invitation", now());
              if (!used) tx.rollback();
              return used;
            })
            .catch(() => undefined);
          if (!accepted)
            return problem(
              request,
              reply,
              410,
              "Gone",
              "This invitation has been used or has expired. Ask an admin for a new one.",
            );
          await startSession(request, reply, who.member.id, "invitation");
          await audit(request, {
            actor,
            action: "invitation-accepted",
            target: { type: "staff", id: who.member.id, label: who.member.email },
          });
          await audit(request, {
            actor,
            action: "passkey-added",
            target: { type: "passkey", id: verified.passkey.id, label: verified.passkey.label },
          });
          await audit(request, { actor, action: "sign-in", details: { method: "invitation" } });
          return { redirect: adminPaths.home };
        }
        await db.insert(passkeys).values(verified.passkey);
        await audit(request, {
          actor,
          action: "passkey-added",
          target: { type: "passkey", id: verified.passkey.id, label: verified.passkey.label },
        });
        return { redirect: `${adminPaths.account}?notice=passkey-added` };
      });

      // Signed in --------------------------------------------------------------------------------

      admin.post("/sign-out", route("staff"), async (request, reply) => {
        const session = sessionOf(request);
        await endSession(db, session.idHash);
        await audit(request, { actor: actorOf(session), action: "sign-out" });
        reply.header("set-cookie", clearedSessionCookie({ secure }));
        return reply.code(303).header("location", `${adminPaths.signIn}?notice=signed-out`).send();
      });

      const context: AdminContext = {
        db,
        now,
        siteUrl: deps.siteUrl,
        mailConfigured: deps.mailConfigured,
        retention: deps.retention ?? defaultRetentionPeriods,
        onMailQueued: deps.onMailQueued,
        route,
        render,
        problem: (request, reply, status, title, message) => problem(request, reply, status, title, message),
        audit,
        sessionOf,
        viewerOf,
        actorOf,
      };
      for (const part of deps.parts ?? defaultParts(deps)) await part(admin, context);

      async function accountPage(
        request: FastifyRequest,
        reply: FastifyReply,
        extra: { notice?: string; error?: string } = {},
        status = 200,
      ) {
        const session = sessionOf(request);
        const [keys, sessions] = await Promise.all([
          listPasskeys(db, session.staff.id),
          db
            .select()
            .from(staffSessions)
            .where(and(eq(staffSessions.staffId, session.staff.id), gt(staffSessions.expiresAt, now())))
            .orderBy(desc(staffSessions.lastSeenAt)),
        ]);
        return render(
          reply,
          {
            page: "account",
            viewer: viewerOf(session),
            passkeys: keys.map((key) => ({
              id: key.id,
              label: key.label,
              createdAt: key.createdAt.toISOString(),
              lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
            })),
            sessions: sessions.map((row) => ({
              current: row.idHash === session.idHash,
              device: row.device,
              method: row.method,
              createdAt: row.createdAt.toISOString(),
              lastSeenAt: row.lastSeenAt.toISOString(),
            })),
            ...extra,
          },
          status,
        );
      }

      admin.get("/account", route("staff"), async (request, reply) => {
        const key = (request.query as Record<string, unknown>).notice;
        return accountPage(request, reply, { notice: typeof key === "string" ? notices[key] : undefined });
      });

      admin.post<{ Params: { id: string } }>("/account/passkeys/:id/remove", route("staff"), async (request, reply) => {
        const session = sessionOf(request);
        const outcome = await removePasskey(db, session.staff.id, request.params.id);
        if (outcome === "not-found") return accountPage(request, reply, { error: "You have no such passkey." }, 404);
        if (outcome === "last") {
          return accountPage(
            request,
            reply,
            {
              error:
                "This is your only passkey. Add another one before you remove it, or you could not sign in again without a sign-in link.",
            },
            409,
          );
        }
        await audit(request, {
          actor: actorOf(session),
          action: "passkey-removed",
          target: { type: "passkey", id: request.params.id },
        });
        return reply.code(303).header("location", `${adminPaths.account}?notice=passkey-removed`).send();
      });

      admin.post("/account/sessions/end-others", route("staff"), async (request, reply) => {
        const session = sessionOf(request);
        const ended = await db
          .delete(staffSessions)
          .where(and(eq(staffSessions.staffId, session.staff.id), ne(staffSessions.idHash, session.idHash)))
          .returning({ idHash: staffSessions.idHash });
        await audit(request, {
          actor: actorOf(session),
          action: "sessions-ended",
          target: { type: "staff", id: session.staff.id, label: session.staff.email },
          details: { sessions: ended.length, kept: "current" },
        });
        return reply.code(303).header("location", `${adminPaths.account}?notice=sessions-ended`).send();
      });

      // Staff management (admins) ----------------------------------------------------------------

      async function staffPage(
        request: FastifyRequest,
        reply: FastifyReply,
        extra: { issued?: IssuedLink; notice?: string; error?: string; form?: FormState } = {},
        status = 200,
      ) {
        const members = await listStaff(db, now());
        return render(
          reply,
          {
            page: "staff",
            viewer: viewerOf(sessionOf(request)),
            staff: members.map((member) => ({
              id: member.id,
              name: member.name,
              email: member.email,
              role: member.role as StaffRole,
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

      admin.get("/staff", route("admin"), async (request, reply) => {
        const key = (request.query as Record<string, unknown>).notice;
        return staffPage(request, reply, { notice: typeof key === "string" ? notices[key] : undefined });
      });

      admin.post("/staff/invite", route("admin"), async (request, reply) => {
        const email = normaliseEmail(field(request.body, "email") ?? "");
        const name = (field(request.body, "name") ?? "").trim();
        const role = field(request.body, "role") ?? "staff";
        // Shown again in the form: without control characters, which have no place in an HTML page.
        const form = {
          values: Object.fromEntries(
            Object.entries({ email, name, role }).map(([key, value]) => [key, withoutControlCharacters(value)]),
          ),
          errors: {},
        };
        const errors: string[] = [];
        if (!emailShape.test(email) || email.length > 254 || hasControlCharacters(email))
          errors.push("Enter a valid email address.");
        if (name === "" || name.length > 100 || hasControlCharacters(name) || /[\r\n\t]/.test(name))
          errors.push("Enter the person's name (one line, at most 100 characters).");
        if (!(STAFF_ROLES as readonly string[]).includes(role)) errors.push("Choose a role: admin or staff.");
        if (errors.length) return staffPage(request, reply, { error: errors.join(" "), form }, 400);
        const existing = await findStaffByEmail(db, email);
        if (existing?.disabledAt)
          return staffPage(request, reply, { error: `${email} is disabled: enable the account first.`, form }, 409);
        if (existing && existing.role === "admin" && role !== "admin" && (await countActiveAdmins(db)) <= 1) {
          return staffPage(
            request,
            reply,
            { error: "That is the only admin: make someone else an admin first.", form },
            409,
          );
        }
        const invited = await inviteStaff(db, { email, name, role: role as StaffRole }, now());
        const url = `${deps.siteUrl}${invitationPath(invited.token)}`;
        const mailed = await queueStaffMail("staff-invitation", email, { link: url, name });
        await audit(request, {
          actor: actorOf(sessionOf(request)),
          action: "invitation-created",
          target: { type: "staff", id: invited.member.id, label: email },
          details: { role, mailed },
        });
        return staffPage(request, reply, { issued: { kind: "invitation", email, url, mailed } });
      });

      /** The member of staff a management action names, or an answer saying there is none. */
      async function targetMember(request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) {
        const member = await findStaffById(db, request.params.id);
        if (!member) await staffPage(request, reply, { error: "There is no such member of staff." }, 404);
        return member;
      }

      admin.post<{ Params: { id: string } }>("/staff/:id/sign-in-link", route("admin"), async (request, reply) => {
        const member = await targetMember(request, reply);
        if (!member) return reply;
        if (member.disabledAt)
          return staffPage(request, reply, { error: `${member.email} is disabled: enable the account first.` }, 409);
        const token = await createToken(db, member.id, "sign-in", now());
        const url = `${deps.siteUrl}${signInLinkPath(token)}`;
        const mailed = await queueStaffMail("staff-sign-in-link", member.email, { link: url });
        await audit(request, {
          actor: actorOf(sessionOf(request)),
          action: "sign-in-link-created",
          target: { type: "staff", id: member.id, label: member.email },
          details: { mailed },
        });
        return staffPage(request, reply, { issued: { kind: "sign-in", email: member.email, url, mailed } });
      });

      admin.post<{ Params: { id: string } }>("/staff/:id/disable", route("admin"), async (request, reply) => {
        const member = await targetMember(request, reply);
        if (!member) return reply;
        const session = sessionOf(request);
        if (member.id === session.staff.id)
          return staffPage(request, reply, { error: "You cannot disable your own account." }, 409);
        if (member.role === "admin" && !member.disabledAt && (await countActiveAdmins(db)) <= 1) {
          return staffPage(request, reply, { error: "That is the only admin: make someone else an admin first." }, 409);
        }
        const { sessionsEnded } = await setStaffDisabled(db, member.id, true, now());
        await audit(request, {
          actor: actorOf(session),
          action: "staff-disabled",
          target: { type: "staff", id: member.id, label: member.email },
          details: { sessionsEnded },
        });
        return reply.code(303).header("location", `${adminPaths.staff}?notice=disabled`).send();
      });

      admin.post<{ Params: { id: string } }>("/staff/:id/enable", route("admin"), async (request, reply) => {
        const member = await targetMember(request, reply);
        if (!member) return reply;
        await setStaffDisabled(db, member.id, false, now());
        await audit(request, {
          actor: actorOf(sessionOf(request)),
          action: "staff-enabled",
          target: { type: "staff", id: member.id, label: member.email },
        });
        return reply.code(303).header("location", `${adminPaths.staff}?notice=enabled`).send();
      });

      admin.post<{ Params: { id: string } }>("/staff/:id/end-sessions", route("admin"), async (request, reply) => {
        const member = await targetMember(request, reply);
        if (!member) return reply;
        const sessions = await endSessionsOf(db, member.id);
        await audit(request, {
          actor: actorOf(sessionOf(request)),
          action: "sessions-ended",
          target: { type: "staff", id: member.id, label: member.email },
          details: { sessions },
        });
        return reply.code(303).header("location", `${adminPaths.staff}?notice=staff-sessions-ended`).send();
      });

      // The audit trail (admins) -----------------------------------------------------------------

      admin.get("/audit", route("admin"), async (request, reply) => {
        const query = request.query as Record<string, unknown>;
        const text = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : "");
        const action =
          (AUDIT_ACTIONS as readonly string[]).includes(text("action")) || /^[a-z-]{1,40}$/.test(text("action"))
            ? text("action")
            : "";
        const actor = (await findStaffById(db, text("actor"))) ? text("actor") : "";
        const from = parseIndiaDate(text("from"));
        const to = parseIndiaDate(text("to"));
        const pageNumber = Math.min(Math.max(1, Number.parseInt(text("page"), 10) || 1), 10_000);
        const { events, more } = await listAudit(
          db,
          {
            action: action || undefined,
            actorId: actor || undefined,
            from: from ? startOfIndiaDay(from) : undefined,
            to: to ? startOfIndiaDay(nextIndiaDay(to)) : undefined,
          },
          pageNumber,
        );
        const actors = await db.select({ id: staff.id, name: staff.name }).from(staff).orderBy(staff.name);
        return render(reply, {
          page: "audit",
          viewer: viewerOf(sessionOf(request)),
          events: events.map((event) => ({
            id: event.id,
            at: event.at.toISOString(),
            actor: event.actorLabel,
            action: event.action,
            target:
              event.targetLabel ??
              (event.targetType
                ? `${event.targetType}${event.targetId ? ` ${event.targetId.slice(0, 12)}` : ""}`
                : null),
            clientAddress: event.clientAddress,
            details: event.details ? JSON.stringify(event.details) : null,
          })),
          filter: { action, actor, from: from ? text("from") : "", to: to ? text("to") : "" },
          actions: AUDIT_ACTIONS,
          actors,
          pageNumber,
          more,
        });
      });

      // Anything else under /admin: a 404 for the signed in; the sign-in page for anyone else.
      admin.route({
        method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
        url: "/*",
        ...route("staff"),
        handler: async (request, reply) =>
          problem(request, reply, 404, "Not Found", "There is no such page in the back office."),
      });
    },
    { prefix: "/admin" },
  );
}
