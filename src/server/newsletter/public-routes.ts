import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { newsletterPageKey, type NewsletterPageState } from "#shared/page-rendering.ts";
import type { Database } from "../db/client.ts";
import { clientRateLimitKey, hitRateLimit } from "../enquiries/rate-limit.ts";
import { type SameOriginOptions, sameOriginOnly } from "../http/same-origin.ts";
import { errorCode } from "../plugins/request-logging.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import {
  checkConfirmationLink,
  confirmSubscription,
  type LinkVerdict,
  readUnsubscribeLink,
  unsubscribe,
} from "./subscriptions.ts";
import { newsletterPaths } from "./tokens.ts";

// The pages a newsletter's links open (docs/decisions/044-newsletter-double-opt-in.md):
// - /newsletter/confirm/<token>: GET shows one "Confirm subscription" button and changes nothing
//   (mail systems' link scanners open links); its POST, from the site's own page, confirms.
// - /newsletter/unsubscribe/<token>: GET shows one "Unsubscribe" button and changes nothing; a
//   POST unsubscribes at once, from the page or from a mail provider's one-click unsubscribe
//   (RFC 8058: `List-Unsubscribe=One-Click`, posted by the provider, so no Origin check and no
//   sign-in: the signed token is the proof).
// The token is in the address, so every answer is kept by nobody (no-store, never in the page
// cache), indexed by nobody (noindex) and sent on to nobody (no Referer). Rendered by the server in
// the site's layout with no island: the forms are plain posts.

export type NewsletterRouteDeps = {
  db: Database;
  renderer?: PageRenderer;
  /** Signs the unsubscribe links (the site's form secret). */
  secret: string;
  sameOrigin: SameOriginOptions;
  /** Posts and opened links one client may make a minute on these pages, each kind counted apart. */
  rateLimitPerMinute: number;
  now?: () => Date;
};

/**
 * What every answer under /newsletter/ carries: it is kept and indexed by nobody, and its address
 * (which holds a token) is never sent to another site. `same-origin`, not `no-referrer`: under
 * no-referrer Chromium sends `Origin: null` with the page's own form post, which the same-origin
 * check of the confirmation rightly refuses (the browser test caught it).
 */
export const NEWSLETTER_PAGE_HEADERS = {
  "cache-control": "no-store",
  "x-robots-tag": "noindex, nofollow",
  "referrer-policy": "same-origin",
} as const;

const ROBOTS_META = '<meta name="robots" content="noindex, nofollow">';

/** A one-click unsubscribe's body is one short field; a few KB leaves room for a provider's multipart framing. */
export const UNSUBSCRIBE_BODY_LIMIT = 4096;

/**
 * One-click unsubscribes come from the mail providers' servers, a few addresses posting for all
 * their users at once after a newsletter: they get this many times the per-client limit, so an
 * unsubscribe is not refused for being one of many, while one client still cannot post endlessly.
 */
export const UNSUBSCRIBE_LIMIT_FACTOR = 20;

const statusOf: Record<NewsletterPageState["kind"], number> = {
  confirm: 200,
  confirmed: 200,
  unsubscribe: 200,
  unsubscribed: 200,
  test: 200,
  invalid: 404,
  expired: 410,
  unavailable: 503,
};

class Unavailable extends Error {}

export function registerNewsletterPublicRoutes(app: FastifyInstance, deps: NewsletterRouteDeps): void {
  const now = () => deps.now?.() ?? new Date();

  async function page(request: FastifyRequest, reply: FastifyReply, state: NewsletterPageState) {
    reply.headers(NEWSLETTER_PAGE_HEADERS);
    if (state.kind === "unavailable") reply.header("retry-after", "30");
    if (!deps.renderer) {
      return reply.code(503).send({ error: "Service Unavailable", message: "Pages are not being served." });
    }
    // The address itself is rendered, never through the page cache (the route table knows no such page).
    const rendered = await deps.renderer.render(request.url.split("?")[0]!, {
      readApi: () => Promise.resolve(null),
      log: request.log,
      extraData: { [newsletterPageKey]: state },
    });
    // The document's noindex meta is "noindex"; these pages' links are not to be followed either.
    // No canonical address: it would be the link, token and all.
    const html = rendered.html
      .replace('<meta name="robots" content="noindex">', ROBOTS_META)
      .replace(/<link rel="canonical" href="[^"]*">/, "")
      .replace(/<meta property="og:url" content="[^"]*">/, "");
    return reply.code(statusOf[state.kind]).type("text/html; charset=utf-8").send(html);
  }

  /** Counts this client's requests of one kind; false (and a 429 page sent) when over the limit. */
  async function withinLimit(
    request: FastifyRequest,
    reply: FastifyReply,
    action: string,
    factor = 1,
  ): Promise<boolean> {
    const limit = await database(request, () =>
      hitRateLimit(deps.db, clientRateLimitKey(deps.secret, action, request.ip), deps.rateLimitPerMinute * factor),
    );
    if (limit.allowed) return true;
    reply.headers(NEWSLETTER_PAGE_HEADERS).header("retry-after", String(limit.retryAfterSeconds));
    await reply.code(429).send({
      error: "Too Many Requests",
      message: `You have opened several newsletter links in the last minute. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
    });
    return false;
  }

  async function database<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      request.log.error({ errCode: errorCode(error) }, "newsletter link: database unavailable");
      throw new Unavailable();
    }
  }

  /** Runs a page's work; an unreachable database is a 503 page, never a 500. */
  function handler<P>(work: (request: FastifyRequest<{ Params: P }>, reply: FastifyReply) => Promise<unknown>) {
    return async (request: FastifyRequest<{ Params: P }>, reply: FastifyReply) => {
      try {
        return await work(request, reply);
      } catch (error) {
        if (!(error instanceof Unavailable)) throw error;
        return page(request, reply, { kind: "unavailable" });
      }
    };
  }

  const confirmState = (verdict: LinkVerdict, token: string): NewsletterPageState =>
    verdict === "valid"
      ? { kind: "confirm", action: newsletterPaths.confirm(token) }
      : verdict === "expired"
        ? { kind: "expired" }
        : { kind: "invalid", link: "confirm" };

  type TokenParams = { token: string };

  app.get<{ Params: TokenParams }>(
    "/newsletter/confirm/:token",
    handler<TokenParams>(async (request, reply) => {
      if (!(await withinLimit(request, reply, "newsletter-link"))) return reply;
      const { token } = request.params;
      const verdict = await database(request, () => checkConfirmationLink(deps.db, token, now()));
      return page(request, reply, confirmState(verdict, token));
    }),
  );

  app.post<{ Params: TokenParams }>(
    "/newsletter/confirm/:token",
    // A browser says where its post came from; a mail scanner that submits the form may say
    // nothing, and must not confirm a subscription for the person (decision 044).
    { onRequest: sameOriginOnly({ ...deps.sameOrigin, requireBrowser: true }), bodyLimit: UNSUBSCRIBE_BODY_LIMIT },
    handler<TokenParams>(async (request, reply) => {
      if (!(await withinLimit(request, reply, "newsletter-confirm"))) return reply;
      const verdict = await database(request, () => confirmSubscription(deps.db, request.params.token, now()));
      if (verdict === "valid") request.log.info("newsletter subscription confirmed");
      return page(request, reply, verdict === "valid" ? { kind: "confirmed" } : confirmState(verdict, ""));
    }),
  );

  app.get<{ Params: TokenParams }>(
    "/newsletter/unsubscribe/:token",
    handler<TokenParams>(async (request, reply) => {
      if (!(await withinLimit(request, reply, "newsletter-link"))) return reply;
      const { token } = request.params;
      const link = readUnsubscribeLink(deps.secret, token);
      return page(
        request,
        reply,
        link.kind === "subscriber"
          ? { kind: "unsubscribe", action: newsletterPaths.unsubscribe(token) }
          : link.kind === "test"
            ? { kind: "test" }
            : { kind: "invalid", link: "unsubscribe" },
      );
    }),
  );

  // A mail provider's one-click post comes as a form, URL-encoded or multipart; its body says only
  // `List-Unsubscribe=One-Click`, and nothing in it is needed: the token is the proof. Multipart is
  // taken here as bytes, unread, up to the route's small limit.
  app.register(async (scope) => {
    scope.addContentTypeParser("multipart/form-data", { parseAs: "buffer" }, (_request, _body, done) =>
      done(null, undefined),
    );
    scope.post<{ Params: TokenParams }>(
      "/newsletter/unsubscribe/:token",
      { bodyLimit: UNSUBSCRIBE_BODY_LIMIT },
      handler<TokenParams>(async (request, reply) => {
        if (!(await withinLimit(request, reply, "newsletter-unsubscribe", UNSUBSCRIBE_LIMIT_FACTOR))) return reply;
        const link = readUnsubscribeLink(deps.secret, request.params.token);
        if (link.kind === "test") return page(request, reply, { kind: "test" });
        if (link.kind === "invalid") return page(request, reply, { kind: "invalid", link: "unsubscribe" });
        const changed = await database(request, () => unsubscribe(deps.db, link.id, now()));
        if (changed) request.log.info("newsletter subscription ended by its unsubscribe link");
        return page(request, reply, { kind: "unsubscribed" });
      }),
    );
  });

  // Anything else under /newsletter/ (no token, a token with a slash in it) is a link that does
  // not work, answered as such and with the same headers, not as the site's usual 404.
  for (const method of ["GET", "POST"] as const) {
    app.route({
      method,
      url: "/newsletter/*",
      bodyLimit: UNSUBSCRIBE_BODY_LIMIT,
      handler: async (request, reply) =>
        page(request, reply, {
          kind: "invalid",
          link: request.url.startsWith("/newsletter/unsubscribe") ? "unsubscribe" : "confirm",
        }),
    });
  }
}
