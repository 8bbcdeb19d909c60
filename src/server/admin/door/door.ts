import type { CardMaker } from "../../cards/card-maker.ts";
import { cardMakerFor } from "../../cards/card-routes.ts";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AdminPageProps } from "#shared/admin/pages.ts";
import { noticeText } from "#shared/admin/notices.ts";
import {
  ADMIN_HOME,
  ADMIN_PREFIX,
  type AdminRouteDefinition,
  type AdminRouteName,
  adminHref,
  adminRoutes,
  admits,
} from "#shared/admin/routes.ts";
import type { ApiErrorBody } from "#shared/api-types.ts";
import type { ContentVersionWatcher } from "../../content/data-version.ts";
import type { Database } from "../../db/client.ts";
import { mailOutbox } from "../../db/schema.ts";
import { clientRateLimitKey, hitRateLimit, peekRateLimit, rateLimitKey } from "../../enquiries/rate-limit.ts";
import { crossSiteProblem, originOf } from "../../http/same-origin.ts";
import type { AdminRenderer } from "../../render/admin-renderer.ts";
import type { ViewCounter } from "../../analytics/counting.ts";
import { type AccountBucket, type AdminContext, type AdminHandlers, actorOf, viewerOf } from "../context.ts";
import { recordAudit } from "../audit/audit.ts";
import { accountRoutes } from "../account/account-routes.ts";
import { analyticsRoutes } from "../analytics/analytics-routes.ts";
import { auditRoutes } from "../audit/audit-routes.ts";
import { inboxRoutes } from "../inbox/inbox-routes.ts";
import { studioRoutes } from "../studio/studio-routes.ts";
import { privacyRoutes } from "../privacy/privacy-routes.ts";
import { staffRoutes } from "../staff/staff-routes.ts";
import { subscriberRoutes } from "../subscribers/subscriber-routes.ts";
// The team (src/server/admin/team/).
import { orderedKindsRoutes } from "../ordered/kinds.ts";
import { doorRoutes } from "./door-routes.ts";
// The media library.
import { mediaRoutes } from "../media/library-routes.ts";
import { registerMultipartUploads } from "../../media/media-routes.ts";
// Newsletters.
import { newsletterRoutes } from "../newsletters/newsletter-routes.ts";
// Health.
import { mailFailingReason } from "../health/health-alerts.ts";
import type { HealthSettings } from "../health/health-queries.ts";
import { healthRoutes } from "../health/health-routes.ts";
import { searchSynonymRoutes } from "../search/search-synonym-routes.ts";
import type { BackupControl } from "../../backup/backup-runs.ts";
import { safeNextPath } from "./safe-next.ts";
import { createSession, describeDevice, findSession, sessionCookie, sessionCookieValue } from "./sessions.ts";
import type { StaffSession } from "./sessions.ts";

// The back office's door: everything under /admin. Every answer is private (no-store, noindex, no
// Referer); every request that changes something must come from the site's own pages; each route's
// access and client (or session) rate limit come from the route table (src/shared/admin/routes.ts)
// and are applied here, before its handler runs. docs/decisions/026-passkeys-and-database-sessions.md
// and 036-the-back-office-route-table.md say why.

export type AdminDependencies = {
  db: Database;
  siteUrl: string;
  renderer?: AdminRenderer;
  /** Keys the rate limits (the same secret as the forms'). */
  secret: string;
  mailConfigured: boolean;
  /** How long the site keeps what it holds, as configured. */
  retention: AdminContext["retention"];
  /** ADMIN_ATTEMPTS_PER_MINUTE: the unit of every client limit in the route table. */
  attemptsPerMinute: number;
  /** Told when staff mail was queued, so the outbox sends it at once. */
  onMailQueued?: () => void;
  onNewsletterQueued?: () => void;
  /** The clock (tests move it to check expiry). */
  now?: () => Date;
  /** Counts page views: the analytics dashboard writes its waiting views before reporting. */
  counter?: ViewCounter;
  /**
   * Starts the timer that runs the work answers queued (every 2 s) and returns its stop. Tests pass
   * one that keeps `run`, to give the timer its turn when they say.
   */
  queuedWorkTimer?: (run: () => Promise<void>) => () => void;
  /** What the Health page reads of the settings (src/server/admin/health/health-queries.ts). */
  health: HealthSettings;
  /** The backups this process makes, for "Make a backup now" (app.ts). */
  backups?: () => BackupControl | undefined;
  /** The public site's card maker, which the studio's previews of drafts' cards share (app.ts). */
  cards?: CardMaker;
  /**
   * This instance's watcher of the content version (app.ts): read again after a route marked
   * `publicContent` answers with success, before the answer leaves.
   */
  contentVersion: Pick<ContentVersionWatcher, "refresh">;
};

/** How often the back office's timer runs the work answers queued, and how much it holds. */
const QUEUED_WORK_EVERY_MS = 2000;
const QUEUED_WORK_MAX = 1000;

const everyTwoSeconds = (run: () => Promise<void>) => {
  const timer = setInterval(() => void run(), QUEUED_WORK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
};

declare module "fastify" {
  interface FastifyContextConfig {
    /** The back-office route this is, by its name in the route table. */
    adminRoute?: AdminRouteName;
  }
  interface FastifyRequest {
    staffSession?: StaffSession;
  }
}

/** Failed attempts one account may make, per window, at each door. */
const accountAllowance: Record<AccountBucket, { limit: number; windowSeconds: number }> = {
  "sign-in": { limit: 10, windowSeconds: 15 * 60 },
  invitation: { limit: 10, windowSeconds: 15 * 60 },
  "sign-in-link": { limit: 10, windowSeconds: 15 * 60 },
};

/** The route a request matched, or undefined for the catch-all. */
function routeOf(request: FastifyRequest): AdminRouteDefinition | undefined {
  const name = request.routeOptions.config.adminRoute;
  return name ? adminRoutes[name] : undefined;
}

/** Whether the client wants JSON back: a JSON route, or an Accept that prefers it. */
function wantsJson(request: FastifyRequest): boolean {
  if (routeOf(request)?.json) return true;
  const accept = String(request.headers.accept ?? "");
  return accept.includes("application/json") && !accept.includes("text/html");
}

/** The state of the thing a page shows (an article's, a project's, a newsletter's), when it shows one. */
function stateOf(props: AdminPageProps): string | undefined {
  if ("editor" in props && props.editor && typeof props.editor === "object" && "status" in props.editor)
    return String(props.editor.status);
  if (props.page === "newsletter") return props.newsletter.status;
  return undefined;
}

export async function registerAdmin(app: FastifyInstance, deps: AdminDependencies): Promise<void> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const siteOrigin = originOf(deps.siteUrl);
  const secure = deps.siteUrl.startsWith("https://");

  async function render(reply: FastifyReply, props: AdminPageProps, status = 200) {
    if (!deps.renderer) {
      return reply.code(503).send({ error: "Service Unavailable", message: "The back office is not being served." });
    }
    const notice =
      props.notice ?? noticeText((reply.request.query as Record<string, unknown> | undefined)?.notice, stateOf(props));
    // Mail failing (the Health page's Mail line red): a banner on every page behind the sign-in.
    // One read by key of what the last evaluation recorded; a page is not refused for want of it.
    const mailFailing =
      "viewer" in props && props.viewer ? await mailFailingReason(db).catch(() => undefined) : undefined;
    const html = await deps.renderer.render({ ...props, notice, ...(mailFailing ? { mailFailing } : {}) });
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

  /** 429 with Retry-After; `what` says what there were too many of ("attempts from your address"). */
  async function tooMany(request: FastifyRequest, reply: FastifyReply, retryAfterSeconds: number, what: string) {
    reply.header("retry-after", String(retryAfterSeconds));
    const wait =
      retryAfterSeconds > 90 ? `${Math.ceil(retryAfterSeconds / 60)} minutes` : `${retryAfterSeconds} seconds`;
    await problem(request, reply, 429, "Too Many Requests", `Too many ${what}. Please wait ${wait} and try again.`);
  }

  // Work an answer must not be followed by (a sign-in link asked for by email): queued, and run by
  // the timer, so that what it costs shows neither in the answer nor in the asker's next request
  // (issue 31, finding 12). What is still queued when the app closes is run then.
  const queued: { work: () => Promise<void>; log: FastifyBaseLogger }[] = [];
  let running: Promise<void> | undefined;
  async function runEachQueued() {
    for (let next = queued.shift(); next; next = queued.shift()) {
      const { work, log } = next;
      await work().catch((error: unknown) => log.error({ err: error }, "queued work failed"));
    }
  }
  /** Runs what is queued, and what is queued meanwhile; a turn that meets one running joins it. */
  const runQueued = () =>
    (running ??= runEachQueued().finally(() => {
      running = undefined;
    }));
  const stopTimer = (deps.queuedWorkTimer ?? everyTwoSeconds)(runQueued);
  app.addHook("onClose", async () => {
    stopTimer();
    await runQueued();
  });

  const clientKey = (request: FastifyRequest, bucket: string) =>
    clientRateLimitKey(deps.secret, `admin:${bucket}`, request.ip);
  const accountKey = (bucket: AccountBucket, staffId: string) =>
    rateLimitKey(deps.secret, `admin:${bucket}`, `staff:${staffId}`);

  const context: AdminContext = {
    db,
    cards: deps.cards ?? cardMakerFor(db),
    now,
    siteUrl: deps.siteUrl,
    secure,
    mailConfigured: deps.mailConfigured,
    retention: deps.retention,
    onMailQueued: deps.onMailQueued,
    onNewsletterQueued: deps.onNewsletterQueued,
    render,
    problem,
    notFound: (request, reply, message) => problem(request, reply, 404, "Not Found", message),
    seeOther: (reply, href) => reply.code(303).header("location", href).send(),
    audit: (request, event) => recordAudit(db, { ...event, clientAddress: request.ip }, now()),
    sessionOf: (request) => request.staffSession!,
    viewerOf,
    actorOf,
    async startSession(request, reply, staffId, method) {
      const id = await createSession(db, staffId, {
        method,
        device: describeDevice(request.headers["user-agent"]),
        now: now(),
      });
      reply.header("set-cookie", sessionCookie(id, { secure }));
    },
    async queueStaffMail(kind, recipient, payload) {
      if (!deps.mailConfigured) return false;
      await db.insert(mailOutbox).values({ kind, recipient, payload, submissionId: null });
      deps.onMailQueued?.();
      return true;
    },
    accountAttempts: {
      async spent(request, reply, bucket, staffId) {
        const { limit, windowSeconds } = accountAllowance[bucket];
        const verdict = await peekRateLimit(db, accountKey(bucket, staffId), limit, windowSeconds);
        if (verdict.allowed) return false;
        await tooMany(request, reply, verdict.retryAfterSeconds, "attempts for this account");
        return true;
      },
      async failed(bucket, staffId) {
        const { limit, windowSeconds } = accountAllowance[bucket];
        await hitRateLimit(db, accountKey(bucket, staffId), limit, windowSeconds);
      },
    },
    queueWork(request, work) {
      if (queued.length >= QUEUED_WORK_MAX) {
        request.log.warn("queued work dropped: the queue is full");
        return;
      }
      queued.push({ work, log: request.log });
    },
  };

  const handlers: AdminHandlers<AdminRouteName> = {
    ...doorRoutes(context, deps.secret),
    ...accountRoutes(context),
    ...inboxRoutes(context),
    ...subscriberRoutes(context),
    ...analyticsRoutes(context, deps.counter),
    ...staffRoutes(context),
    ...auditRoutes(context),
    ...privacyRoutes(context, deps.health.backupDir),
    ...studioRoutes(context),
    // The ordered kinds: the team, testimonials, client logos.
    ...orderedKindsRoutes(context),
    // The media library.
    ...mediaRoutes(context),
    // Newsletters.
    ...newsletterRoutes(context),
    // Health.
    ...healthRoutes(context, deps.health, deps.backups),
    ...searchSynonymRoutes(context),
  };

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

        // Access, then the client's limit, both from the route table, before the body is read: a
        // client without a session or over its limit never has a body parsed.
        const route = routeOf(request);
        const access = route?.access ?? "staff";
        const session = request.staffSession;
        const holder = session
          ? { role: session.staff.role as "admin" | "staff", canPublish: session.staff.canPublish }
          : undefined;
        if (!admits(access, holder)) {
          if (!session) {
            if (wantsJson(request))
              return problem(request, reply, 401, "Unauthorized", "Sign in to the back office first.");
            const next = request.method === "GET" ? safeNextPath(request.url) : ADMIN_HOME;
            return reply
              .code(303)
              .header("location", adminHref("signIn", {}, { next: next === ADMIN_HOME ? undefined : next }))
              .send();
          }
          return problem(
            request,
            reply,
            403,
            "Forbidden",
            access === "publisher"
              ? "Publishing needs an admin, or a member of staff an admin has allowed to publish."
              : "This part of the back office is for admins.",
          );
        }
        // The session's limit: what the editor sends by itself as someone types (decision 048).
        const perSession = route?.sessionLimit;
        if (perSession && session) {
          const key = rateLimitKey(deps.secret, `admin:${perSession.bucket}`, `session:${session.idHash}`);
          const verdict = await hitRateLimit(db, key, perSession.perMinute, 60);
          if (!verdict.allowed)
            return tooMany(request, reply, verdict.retryAfterSeconds, `${perSession.what} from this session`);
        }
        const limit = route?.limit;
        if (!limit) return;
        const allowance = deps.attemptsPerMinute * (limit.times ?? 1);
        const key = clientKey(request, limit.bucket);
        const verdict =
          limit.counts === "requests"
            ? await hitRateLimit(db, key, allowance, 60)
            : await peekRateLimit(db, key, allowance, 60);
        if (!verdict.allowed)
          return tooMany(
            request,
            reply,
            verdict.retryAfterSeconds,
            limit.what
              ? `${limit.what} from your address (at most ${allowance} a minute)`
              : "attempts from your address",
          );
      });

      // A refused attempt counts against the client; an answer that went through does not. A route
      // that changes what visitors read has this instance read the content version again once it
      // succeeded, before the answer leaves: the page a 303 leads to already shows the change.
      admin.addHook("onSend", async (request, reply, payload) => {
        const route = routeOf(request);
        const limit = route?.limit;
        if (limit?.counts === "failures" && reply.statusCode >= 400 && reply.statusCode !== 429) {
          await hitRateLimit(db, clientKey(request, limit.bucket), deps.attemptsPerMinute * (limit.times ?? 1), 60);
        }
        // A failed read keeps the last version, as a failed poll does; the next poll reads it.
        if (route?.publicContent && reply.statusCode < 400) await deps.contentVersion.refresh().catch(() => {});
        return payload;
      });

      // The media library: multipart uploads, for its two upload routes alone.
      await registerMultipartUploads(admin);

      for (const [name, route] of Object.entries(adminRoutes) as [AdminRouteName, AdminRouteDefinition][]) {
        admin.route({
          method: route.method,
          url: route.path.slice(ADMIN_PREFIX.length) || "/",
          config: { adminRoute: name },
          ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
          handler: handlers[name] as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
        });
      }

      // Anything else under /admin: a 404 for the signed in; the sign-in page for anyone else.
      admin.route({
        method: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
        url: "/*",
        handler: async (request, reply) =>
          problem(request, reply, 404, "Not Found", "There is no such page in the back office."),
      });
    },
    { prefix: ADMIN_PREFIX },
  );
}
