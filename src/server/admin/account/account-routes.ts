import { and, desc, eq, gt, ne } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PageMessages } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { staffSessions } from "../../db/schema.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";
import { listPasskeys, removePasskey } from "../door/passkeys.ts";

// Your account (/admin/account): your passkeys, your sessions, and ending the others.

export function accountRoutes(context: AdminContext): AdminHandlers<"account" | "passkeyRemove" | "endOtherSessions"> {
  const { db, now } = context;

  async function accountPage(request: FastifyRequest, reply: FastifyReply, messages: PageMessages = {}, status = 200) {
    const session = context.sessionOf(request);
    const [keys, sessions] = await Promise.all([
      listPasskeys(db, session.staff.id),
      db
        .select()
        .from(staffSessions)
        .where(and(eq(staffSessions.staffId, session.staff.id), gt(staffSessions.expiresAt, now())))
        .orderBy(desc(staffSessions.lastSeenAt)),
    ]);
    return context.render(
      reply,
      {
        page: "account",
        viewer: context.viewerOf(session),
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
        ...messages,
      },
      status,
    );
  }

  return {
    account: (request, reply) => accountPage(request, reply),

    async passkeyRemove(request, reply) {
      const session = context.sessionOf(request);
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
      await context.audit(request, {
        actor: context.actorOf(session),
        action: "passkey-removed",
        target: { type: "passkey", id: request.params.id },
      });
      return context.seeOther(reply, adminHref("account", {}, { notice: "passkey-removed" }));
    },

    async endOtherSessions(request, reply) {
      const session = context.sessionOf(request);
      const ended = await db
        .delete(staffSessions)
        .where(and(eq(staffSessions.staffId, session.staff.id), ne(staffSessions.idHash, session.idHash)))
        .returning({ idHash: staffSessions.idHash });
      await context.audit(request, {
        actor: context.actorOf(session),
        action: "sessions-ended",
        target: { type: "staff", id: session.staff.id, label: session.staff.email },
        details: { sessions: ended.length, kept: "current" },
      });
      return context.seeOther(reply, adminHref("account", {}, { notice: "sessions-ended" }));
    },
  };
}
