import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { apiNotFound, frameworkErrorHandler, registerErrorHandling } from "./plugins/errors.ts";
import { registerRequestLogging, serializeErrorForLog } from "./plugins/request-logging.ts";
import { registerSecurityHeaders, securityHeaders } from "./plugins/security-headers.ts";
import { registerFeeds } from "./routes/feeds.ts";
import { registerHealthRoutes } from "./routes/health.ts";
import type { PageRenderer } from "./render/page-renderer.ts";
import fastifyCompress from "@fastify/compress";
import fastifyFormbody from "@fastify/formbody";
import { watchContentVersion } from "./content/data-version.ts";
import { PageCache, sendCachedPage } from "./render/page-cache.ts";
import { generateSecret, sharedSetting } from "./db/settings.ts";
import { FORM_FIELD_PLACEHOLDERS, fillFormFields, hasFormFields, issueFormFields } from "./enquiries/form-token.ts";
import { createReadApi, registerContentApi } from "./routes/content-api.ts";
import { registerEnquiryRoutes } from "./routes/enquiry-routes.ts";
import { registerForwardedForFilter } from "./http/client-address.ts";
import { capConnectionsPerClient, serverTimeoutOptions } from "./http/connection-limits.ts";
import { originOf } from "./http/same-origin.ts";

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
  /** How often to look for a content change made by another instance (default 5 s). */
  contentPollMs?: number;
  /** Told when an enquiry has queued mail, so the outbox worker sends it at once. */
  onEnquiryQueued?: () => void;
};

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
    logger: deps.logger ? { ...deps.logger, serializers: { err: serializeErrorForLog } } : false,
    // Our own one line per request (plugins/request-logging.ts) replaces Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "requestId" }),
    genReqId: () => randomUUID(),
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
  // Dynamic answers (API JSON, pages rendered for one request) compressed on the fly; cached pages
  // and built assets carry their compressed forms already.
  await app.register(fastifyCompress, { encodings: ["br", "gzip"], threshold: 1024 });
  registerRequestLogging(app);
  registerSecurityHeaders(app, headerOptions);
  registerErrorHandling(app, { bodyLimit: config.bodyLimitBytes });

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
      },
    });
  }

  registerHealthRoutes(app, db);
  const formSecret = config.formSecret ?? (await sharedSetting(db, "form-secret", generateSecret));
  const readApi = createReadApi({ db, issueFormFields: () => issueFormFields(formSecret) });
  // Pages are rendered once and kept; the form fields they carry are filled in for each request.
  const pageReadApi = createReadApi({ db, issueFormFields: () => FORM_FIELD_PLACEHOLDERS });
  const pageCache = config.dev ? undefined : new PageCache();
  const pagesWithForms = new WeakSet<object>();
  const contentVersion = await watchContentVersion(db, deps.contentPollMs);
  app.addHook("onClose", async () => contentVersion.stop());
  registerFeeds(app, { db, siteUrl: config.siteUrl, contentVersion: () => contentVersion.current() });
  registerContentApi(app, readApi, pageCache ? () => contentVersion.current() : undefined);
  registerEnquiryRoutes(app, {
    db,
    formSecret,
    rateLimitPerMinute: config.rateLimitPerMinute,
    mail: { configured: config.mail !== undefined, acknowledge: config.mail?.acknowledge ?? false },
    onEnquiryQueued: deps.onEnquiryQueued,
    renderer: deps.renderer,
    readApi,
    sameOrigin: { siteOrigin: originOf(config.siteUrl), acceptLoopback: !config.siteUrlSet },
  });
  for (const unknownApi of ["/api", "/api/*"]) {
    app.all(unknownApi, async (request, reply) => reply.code(404).send(apiNotFound(request.method, request.url)));
  }

  app.get("/*", async (request, reply) => {
    if (!deps.renderer) {
      return reply.code(503).send({ error: "Service Unavailable", message: "Pages are not being served." });
    }
    reply.type("text/html; charset=utf-8").header("vary", "Accept-Encoding");
    // Only pages at their plain address are kept: query strings and unknown paths are unbounded,
    // and keeping them would let any client fill the cache and spend CPU compressing.
    if (!pageCache || request.url.includes("?")) {
      const { status, html } = await deps.renderer.render(request.url, { readApi, log: request.log });
      return reply.code(status).header("cache-control", "no-cache").send(html);
    }
    pageCache.useVersion(contentVersion.current());
    let page = pageCache.get(request.url);
    if (!page) {
      const rendered = await deps.renderer.render(request.url, { readApi: pageReadApi, log: request.log });
      if (rendered.status !== 200) {
        const html = fillFormFields(rendered.html, formSecret) ?? rendered.html;
        return reply.code(rendered.status).header("cache-control", "no-cache").send(html);
      }
      page = pageCache.set(request.url, rendered.status, rendered.html);
      // Whether a page has a form is known once, not looked for in its HTML on every request.
      if (hasFormFields(page.html)) pagesWithForms.add(page);
    }
    if (pagesWithForms.has(page)) {
      // A page with a form: its fields are new for every request, so it is never stored downstream.
      const withForm = fillFormFields(page.html, formSecret)!;
      return reply.code(page.status).header("cache-control", "no-store").send(withForm);
    }
    return sendCachedPage(request, reply, page);
  });

  app.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send(apiNotFound(request.method, request.url)),
  );

  return app;
}
