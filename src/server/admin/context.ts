import type { CardMaker } from "../cards/card-maker.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AdminPageProps, AdminViewer, RetentionView, StaffRole } from "#shared/admin/pages.ts";
import type { AdminRouteName, AdminRouteParams } from "#shared/admin/routes.ts";
import type { Database } from "../db/client.ts";
import type { AuditActor, AuditEventInput } from "./audit/audit.ts";
import type { SessionMethod, StaffSession } from "./door/sessions.ts";

// What every area of the back office gets from the door (door/door.ts): the database, the clock,
// rendering, answers, the audit trail and the account limits. An area (src/server/admin/<area>/)
// gives one handler per route name of src/shared/admin/routes.ts; the door registers them, and
// decides access, origin and the client's rate limit from the table before a handler runs.
// src/server/admin/README.md is the checklist for a new screen.

/** A request to the route `Name`, its parameters typed from the route's path. */
export type AdminRequest<Name extends AdminRouteName> = FastifyRequest<{ Params: AdminRouteParams<Name> }>;

export type AdminHandler<Name extends AdminRouteName> = (
  request: AdminRequest<Name>,
  reply: FastifyReply,
) => Promise<unknown>;

/** One handler for each of these routes: an area's contribution, checked by the compiler. */
export type AdminHandlers<Names extends AdminRouteName> = { [Name in Names]: AdminHandler<Name> };

/** Limits per account, kept apart from the client's: a bucket name and its allowance per window. */
export type AccountBucket = "sign-in" | "invitation" | "sign-in-link";

export type AdminContext = {
  db: Database;
  /** Draws link-preview cards, the public site's maker: one line of drawing per instance. */
  cards: CardMaker;
  /** The clock: tests move it. */
  now: () => Date;
  siteUrl: string;
  /** The site is served over HTTPS: cookies get Secure. */
  secure: boolean;
  mailConfigured: boolean;
  /** How long the site keeps what it holds, as configured (the privacy page states it). */
  retention: RetentionView;
  /** Tells the outbox a mail was queued, so it goes out at once. */
  onMailQueued?: () => void;
  /** Tells the newsletter sender a newsletter's mail was queued (a send, or a test). */
  onNewsletterQueued?: () => void;
  /** Renders a page; a `?notice=` key of the request becomes the page's notice. */
  render: (reply: FastifyReply, props: AdminPageProps, status?: number) => Promise<FastifyReply>;
  /** Answers an error: JSON for the JSON routes and clients that ask for it, else the error page. */
  problem: (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    title: string,
    message: string,
  ) => Promise<FastifyReply> | FastifyReply;
  /** Answers 404 with `message` saying what is not there ("There is no such enquiry."), as `problem` does. */
  notFound: (request: FastifyRequest, reply: FastifyReply, message: string) => Promise<FastifyReply> | FastifyReply;
  /** Answers 303 to an address built with adminHref: after a change, so a reload does not post again. */
  seeOther: (reply: FastifyReply, href: string) => FastifyReply;
  /** Writes an event to the audit trail, with the request's client address. */
  audit: (request: FastifyRequest, event: Omit<AuditEventInput, "clientAddress">) => Promise<void>;
  /** The signed-in member of staff of a route that needs a session. */
  sessionOf: (request: FastifyRequest) => StaffSession;
  viewerOf: (session: StaffSession) => AdminViewer;
  actorOf: (session: StaffSession) => AuditActor;
  /** Starts a session for a member of staff and sets its cookie on the answer. */
  startSession: (request: FastifyRequest, reply: FastifyReply, staffId: string, method: SessionMethod) => Promise<void>;
  /** Queues a staff mail with its link; whether it will be mailed (mail configured). */
  queueStaffMail: (
    kind: "staff-sign-in-link" | "staff-invitation",
    recipient: string,
    payload: Record<string, string>,
  ) => Promise<boolean>;
  /**
   * The account's failed attempts: `spent` answers 429 and returns true when the account's
   * allowance is used up; `failed` counts one failure. Successes are not counted.
   */
  accountAttempts: {
    spent: (request: FastifyRequest, reply: FastifyReply, bucket: AccountBucket, staffId: string) => Promise<boolean>;
    failed: (bucket: AccountBucket, staffId: string) => Promise<void>;
  };
  /**
   * Queues work for the back office's timer, which runs what is queued every 2 s: its time then
   * shows neither in the answer nor in the client's next request. Errors are logged.
   */
  queueWork: (request: FastifyRequest, work: () => Promise<void>) => void;
};

export const viewerOf = (session: StaffSession): AdminViewer => ({
  ...session.staff,
  role: session.staff.role as StaffRole,
});
export const actorOf = (session: StaffSession): AuditActor => ({ id: session.staff.id, label: session.staff.name });
