import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AdminPageProps, AdminViewer, StaffRole } from "#shared/admin/pages.ts";
import type { Database } from "../db/client.ts";
import type { AuditActor, AuditEventInput } from "./audit.ts";
import type { StaffSession } from "./sessions.ts";

// What every part of the back office gets from its door (admin-routes.ts): the database, the
// clock, rendering, error answers and the audit trail. A part (the inbox, analytics) registers
// its routes on the /admin plugin with `registerX(admin, context)`, and declares each route's
// access with `context.route(...)`; the door's hooks then enforce it.

export type Access = "public" | "staff" | "admin";

export type AdminContext = {
  db: Database;
  /** The clock: tests move it. */
  now: () => Date;
  siteUrl: string;
  mailConfigured: boolean;
  /** How long spam and closed enquiries are kept (SPAM_RETENTION_DAYS, ENQUIRY_RETENTION_DAYS). */
  retention: { spamDays: number; closedEnquiryDays: number };
  /** Tells the outbox a mail was queued, so it goes out at once. */
  onMailQueued?: () => void;
  /** Route options declaring who may use a route. */
  route: (access: Access) => { config: { access: Access } };
  /** Renders a back-office page with a status (200 by default). */
  render: (reply: FastifyReply, props: AdminPageProps, status?: number) => Promise<FastifyReply>;
  /** Answers an error: JSON for the API and JSON clients, else the error page. */
  problem: (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    title: string,
    message: string,
  ) => Promise<FastifyReply> | FastifyReply;
  /** Writes an event to the audit trail, with the request's client address. */
  audit: (request: FastifyRequest, event: Omit<AuditEventInput, "clientAddress">) => Promise<void>;
  /** The signed-in member of staff of a route that needs a session. */
  sessionOf: (request: FastifyRequest) => StaffSession;
  viewerOf: (session: StaffSession) => AdminViewer;
  actorOf: (session: StaffSession) => AuditActor;
};

export type AdminPart = (admin: FastifyInstance, context: AdminContext) => void | Promise<void>;

export const viewerOf = (session: StaffSession): AdminViewer => ({
  ...session.staff,
  role: session.staff.role as StaffRole,
});
export const actorOf = (session: StaffSession): AuditActor => ({ id: session.staff.id, label: session.staff.name });
