import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { apiNotFound, frameworkErrorHandler, registerErrorHandling } from "./plugins/errors.ts";
import { lazyChildLogger, requestIdGenerator } from "./plugins/request-ids.ts";
import { logWithoutOneTimeTokens, registerRequestLogging, serializeErrorForLog } from "./plugins/request-logging.ts";
import { registerSecurityHeaders, securityHeaders } from "./plugins/security-headers.ts";
import { registerFeeds } from "./routes/feeds.ts";
import { registerHealthRoutes } from "./routes/health.ts";
import type { PageRenderer } from "./render/page-renderer.ts";
import fastifyCompress from "@fastify/compress";
import fastifyFormbody from "@fastify/formbody";
import { type ContentVersionWatcher, watchContentVersion } from "./content/data-version.ts";
import { generateSecret, sharedSetting } from "./db/settings.ts";
import { issueFormFields } from "./enquiries/form-token.ts";
import { FORM_FIELD_PLACEHOLDERS } from "./pages/form-fields.ts";
import { registerAdmin } from "./admin/door/door.ts";
import { healthSettingsOf } from "./admin/health/health-queries.ts";
import type { PageCache } from "./pages/page-cache.ts";
import type { AdminRenderer } from "./render/admin-renderer.ts";
import { registerCanonicalRedirects, registerPageRoutes } from "./pages/page-routes.ts";
import { createReadApi, registerContentApi } from "./routes/content-api.ts";
import { SearchMissCounter } from "./analytics/search-misses.ts";
import { registerPreviewRoutes } from "./routes/preview-routes.ts";
import { registerNewsletterPublicRoutes } from "./newsletter/public-routes.ts";
import { oldAddresses } from "./pages/old-addresses.ts";
import { registerEnquiryRoutes } from "./routes/enquiry-routes.ts";
import { registerForwardedForFilter } from "./http/client-address.ts";
import { capConnectionsPerClient, serverTimeoutOptions } from "./http/connection-limits.ts";
import { limitJsonNesting } from "./http/json-depth.ts";
import { limitFormFields } from "./http/form-fields.ts";
import { originOf } from "./http/same-origin.ts";
import { WorkAfterAnswer } from "./http/after-answer.ts";
import { ViewCounter } from "./analytics/counting.ts";
import { retention, type StatedRetention } from "#shared/retention.ts";
import { PUBLIC_PICTURE_CORP, registerMedia } from "./media/media-routes.ts";
import { registerMetrics } from "./metrics/metrics-routes.ts";
import type { BackupControl } from "./backup/backup-runs.ts";
import type { CardMaker } from "./cards/card-maker.ts";
import { cardMakerFor, cardsFromPages, registerCardRoutes } from "./cards/card-routes.ts";

export type AppDependencies = {
  config: Config;
  db: Database;
  /** Renders the pages; without one, page routes answer 503 (API-only tests). */
  renderer?: PageRenderer;
  /** Built browser assets to serve (dist/client), with hashed files under /assets/. */
  clientDir?: string;
  /** Development: Vite's connect middleware, run before routing. */
  devMiddleware?: import("@fastify/middie").Handler;
  /** pino options (level, transport); error serialisation is the app's own. */
  logger?: Exclude<FastifyServerOptions["logger"], boolean>;
  /** How often to look for a content change made by another instance (default 2 s). */
  contentPollMs?: number;
  /** Renders the back office's pages; without one, they answer 503. */
  adminRenderer?: AdminRenderer;
  /**
   * The instance's clock: the back office's (tests move it to check session expiry) and the
   * public read's (an article is public once its time has come on it; tests move it past one).
   */
  now?: () => Date;
  /** Where rendered pages are kept (tests pass one to look into it); the app makes its own when unset. */
  pageCache?: PageCache;
  /** Told when an enquiry has queued mail, so the outbox worker sends it at once. */
  onEnquiryQueued?: () => void;
  /** Told when a newsletter's mail was queued, so the newsletter sender starts at once. */
  onNewsletterQueued?: () => void;
  /** Starts the back office's timer for queued work (tests hold it, to give it its turn themselves). */
  queuedWorkTimer?: (run: () => Promise<void>) => () => void;
  /**
   * Starts the work that follows an answer (a newsletter subscription):
   * tests hold it to look in between. The next turn of the event loop by default.
   */
  afterAnswer?: (work: () => Promise<void>) => void;
  /** How much work may wait after answers (MAX_WORK_AFTER_ANSWER unless a test fills a smaller bound). */
  maxWorkAfterAnswer?: number;
  /**
   * The backups this process makes (site.ts: the daily schedule), for the Health page's "Make a
   * backup now"; a getter, as the schedule starts after the app. Absent: the page offers none.
   */
  backups?: () => BackupControl | undefined;
  /** Draws the link-preview cards (tests pass one that counts or slows its drawing). */
  cardMaker?: CardMaker;
};

declare module "fastify" {
  interface FastifyInstance {
    /** The analytics' view counter (tests flush it). */
    viewCounter: ViewCounter;
    /** The count of searches that found nothing (tests flush it). */
    searchMisses: SearchMissCounter;
    /** The content version this instance serves pages under (tests refresh it, or read it). */
    contentVersion: ContentVersionWatcher;
    /** The public routes' work after their answers (tests wait for it to settle before they look). */
    workAfterAnswer: WorkAfterAnswer;
    /** Draws and keeps the link-preview cards (tests count its drawings). */
    cards: CardMaker;
  }
}

/**
 * How many subscriptions' work may wait or run after their answers in one instance at once:
 * beyond it a subscription is answered 503 (try again), whatever its address.
 */
export const MAX_WORK_AFTER_ANSWER = 100;

export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";
export const STATIC_FILE_CACHE = "public, max-age=604800";

/**
 * A hop count as a trust function: Fastify 5 refuses a bare number (it cannot tell the proxy from
 * a client that reaches the site directly), so a count is for instances only the proxy can reach.
 */
function fastifyTrustProxy(trust: Config["trustProxy"]): FastifyServerOptions["trustProxy"] {
  return typeof trust === "number" ? (_address: string, hop: number) => hop < trust : trust;
}

/** Builds the site's Fastify app, ready for inject() or listen(); it never listens itself. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, db } = deps;
  const headerOptions = { dev: config.dev, https: config.siteUrl.startsWith("https://") };
  const app = Fastify({
    logger: deps.logger
      ? { ...deps.logger, serializers: { err: serializeErrorForLog }, hooks: { logMethod: logWithoutOneTimeTokens } }
      : false,
    // Our own one line per request (plugins/request-logging.ts) replaces Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
    genReqId: requestIdGenerator(),
    childLoggerFactory: lazyChildLogger,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Fastify types this option generically; ours handles any route's request and reply.
    frameworkErrors: frameworkErrorHandler(securityHeaders(headerOptions)) as FastifyServerOptions["frameworkErrors"],
    // Slow clients: time limits on receiving a request and on an idle connection (http/connection-limits.ts).
    ...serverTimeoutOptions(config),
  });
  // Slow clients: at most so many connections per client address; non-IP X-Forwarded-For entries ignored.
  capConnectionsPerClient(app.server, config);
  if (config.trustProxy !== false) registerForwardedForFilter(app);

  // Bodies are JSON or, for the forms without JavaScript, URL-encoded; never plain text.
  app.removeContentTypeParser("text/plain");
  await app.register(fastifyFormbody);
  // A form of more fields than any of the site's is refused before it is parsed (http/form-fields.ts).
  limitFormFields(app);
  // A JSON body nested deeper than any of the site's is refused before it is parsed (http/json-depth.ts).
  limitJsonNesting(app);
  // Dynamic answers (API JSON, pages rendered for one request) compressed on the fly; cached pages
  // and built assets carry their compressed forms already.
  // Request bodies are never compressed (forms and JSON are small): no decompression step on any route.
  await app.register(fastifyCompress, { encodings: ["br", "gzip"], threshold: 1024, globalDecompression: false });
  registerRequestLogging(app);
  // Prometheus metrics at /metrics behind METRICS_TOKEN; without it, nothing is measured (metrics/).
  if (config.metricsToken) registerMetrics(app, { token: config.metricsToken, db, now: deps.now, log: app.log });
  registerSecurityHeaders(app, headerOptions);
  registerErrorHandling(app, { bodyLimit: config.bodyLimitBytes });
  registerCanonicalRedirects(app);

  if (deps.devMiddleware) {
    const { default: middie } = await import("@fastify/middie");
    await app.register(middie);
    app.use(deps.devMiddleware);
  }

  if (deps.clientDir && existsSync(deps.clientDir)) {
    await app.register(fastifyStatic, {
      root: deps.clientDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        const hashed = /[\\/]assets[\\/]/.test(filePath);
        reply.header("cache-control", hashed ? IMMUTABLE_CACHE : STATIC_FILE_CACHE);
        // The site's icons and drawings may be shown by a mail client or another site, as /media's are.
        if (/\.(?:png|jpe?g|webp|avif|svg|ico)$/.test(filePath))
          reply.header("cross-origin-resource-policy", PUBLIC_PICTURE_CORP);
      },
    });
  }

  registerHealthRoutes(app, db);
  // Cookieless analytics: views counted in memory, written in batches, the last ones on close.
  const counter = new ViewCounter({
    db,
    enabled: config.analytics,
    siteUrl: config.siteUrl,
    now: deps.now,
    log: app.log,
  });
  app.decorate("viewCounter", counter);
  app.addHook("onClose", async () => counter.close());
  // Searches that found nothing, by their words and day alone, under the same rules (decision 054).
  const searchMisses = new SearchMissCounter({ db, enabled: config.analytics, now: deps.now, log: app.log });
  app.decorate("searchMisses", searchMisses);
  app.addHook("onClose", async () => searchMisses.close());
  // Work the public routes do after answering; the close waits for it (none is lost by a stop).
  const workAfterAnswer = new WorkAfterAnswer({
    maxPending: deps.maxWorkAfterAnswer ?? MAX_WORK_AFTER_ANSWER,
    schedule: deps.afterAnswer,
  });
  app.decorate("workAfterAnswer", workAfterAnswer);
  app.addHook("onClose", async () => workAfterAnswer.settled());
  const sameOrigin = { siteOrigin: originOf(config.siteUrl), acceptLoopback: !config.siteUrlSet };
  const formSecret = config.formSecret ?? (await sharedSetting(db, "form-secret", generateSecret));
  // What the privacy notice states: the periods this site is configured with, not the defaults.
  const statedRetention: StatedRetention = {
    ...retention,
    spamDays: config.spamRetentionDays,
    closedEnquiryDays: config.enquiryRetentionDays,
    analyticsDays: config.analyticsRetentionDays,
  };
  // One clock decides what the public reads and when the content version moves (decision 038).
  const now = deps.now ?? (() => new Date());
  const readApi = createReadApi({
    db,
    issueFormFields: () => issueFormFields(formSecret),
    retention: statedRetention,
    now,
  });
  const contentVersion = await watchContentVersion(db, deps.contentPollMs, now);
  app.decorate("contentVersion", contentVersion);
  app.addHook("onClose", async () => contentVersion.stop());
  const keptVersion = config.dev ? undefined : () => contentVersion.current();
  const previousAddresses = oldAddresses({ db, now, contentVersion: keptVersion });
  registerFeeds(app, { db, siteUrl: config.siteUrl, contentVersion: () => contentVersion.current(), now });
  registerContentApi(app, readApi, keptVersion, previousAddresses);
  registerEnquiryRoutes(app, {
    db,
    formSecret,
    rateLimitPerMinute: config.rateLimitPerMinute,
    mail: { configured: config.mail !== undefined, acknowledge: config.mail?.acknowledge ?? false },
    onEnquiryQueued: deps.onEnquiryQueued,
    renderer: deps.renderer,
    readApi,
    sameOrigin,
    attributionOf: (request) => counter.attributionOf(request),
    workAfterAnswer,
    now: deps.now,
    siteUrl: config.siteUrl,
  });
  // The media library's pictures at /media/<key>/<name>.
  await registerMedia(app, { db, contentVersion: () => contentVersion.current() });
  // One maker of link-preview cards for the public cards and the studio's previews of drafts' cards.
  const cards = deps.cardMaker ?? cardMakerFor(db);
  app.decorate("cards", cards);
  await registerAdmin(app, {
    db,
    siteUrl: config.siteUrl,
    renderer: deps.adminRenderer,
    secret: formSecret,
    mailConfigured: config.mail !== undefined,
    retention: {
      spamDays: config.spamRetentionDays,
      closedEnquiryDays: config.enquiryRetentionDays,
      analyticsDays: config.analyticsRetentionDays,
    },
    attemptsPerMinute: config.adminAttemptsPerMinute,
    onMailQueued: deps.onEnquiryQueued,
    onNewsletterQueued: deps.onNewsletterQueued,
    now: deps.now,
    counter,
    queuedWorkTimer: deps.queuedWorkTimer,
    health: healthSettingsOf(config),
    backups: deps.backups,
    cards,
    contentVersion,
  });
  for (const unknownApi of ["/api", "/api/*"]) {
    app.all(unknownApi, async (request, reply) => reply.code(404).send(apiNotFound(request.method, request.url)));
  }

  // Drafts through a preview or share link: never kept, never counted (routes/preview-routes.ts).
  registerPreviewRoutes(app, { db, renderer: deps.renderer, now, secret: formSecret });
  // The newsletter's confirmation and unsubscribe links (newsletter/public-routes.ts): never cached.
  registerNewsletterPublicRoutes(app, {
    db,
    renderer: deps.renderer,
    secret: formSecret,
    sameOrigin,
    rateLimitPerMinute: config.rateLimitPerMinute,
    now,
  });
  const cachedReadApi = createReadApi({
    db,
    issueFormFields: () => FORM_FIELD_PLACEHOLDERS,
    retention: statedRetention,
    now,
  });
  // Each page's link-preview card at /cards/<key>-<hash>.jpg, read from the public page (cards/).
  registerCardRoutes(app, {
    db,
    cardOfPage: cardsFromPages({ renderer: deps.renderer, readApi: cachedReadApi, contentVersion: keptVersion }),
    maker: cards,
  });
  registerPageRoutes(app, {
    renderer: deps.renderer,
    readApi,
    cachedReadApi,
    contentVersion: keptVersion,
    formSecret,
    cache: deps.pageCache,
    counter,
    oldAddresses: previousAddresses,
    searchMisses,
  });

  app.setNotFoundHandler(async (request, reply) => reply.code(404).send(apiNotFound(request.method, request.url)));

  return app;
}
