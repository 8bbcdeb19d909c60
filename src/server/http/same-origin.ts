import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import type { ApiErrorBody } from "#shared/api-types.ts";

// A form on another site must not be able to make a visitor's browser post to ours (subscribe an
// address, send an enquiry, and later change something in the back office). Browsers say where a
// post comes from: `Sec-Fetch-Site` (same-origin, same-site, cross-site or none) and `Origin`.
// A post that says it came from elsewhere is refused with 403; one that says nothing (curl, a
// script, an old browser) is let through, since no browser leaves both out of a cross-site post.

export type SameOriginOptions = {
  /** The site's public origin, from SITE_URL (`https://www.example.com`). */
  siteOrigin: string;
  /**
   * SITE_URL was not set: the site runs on a developer's machine, reached as localhost, 127.0.0.1
   * or [::1] on whatever port, so a post from any loopback origin counts as the site's own.
   */
  acceptLoopback: boolean;
  /**
   * Refuse a post that says nothing of where it came from (neither header): for a route that only
   * a person's browser should reach, where a mail scanner that submits forms must not act (the
   * newsletter's confirmation).
   */
  requireBrowser?: boolean;
};

const loopbackOrigin = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/** Why the request must be refused as coming from another site, or undefined when it may go on. */
export function crossSiteProblem(headers: FastifyRequest["headers"], options: SameOriginOptions): string | undefined {
  const fetchSite = headers["sec-fetch-site"];
  if (fetchSite === "cross-site" || fetchSite === "same-site") {
    return `This request came from another site (Sec-Fetch-Site: ${fetchSite}); the site accepts forms sent from its own pages only.`;
  }
  const origin = headers.origin;
  if (origin === undefined) {
    if (options.requireBrowser && fetchSite === undefined)
      return "This form is accepted from its page in a browser only: open the link again and press the button there.";
    return undefined;
  }
  if (origin === options.siteOrigin || (options.acceptLoopback && loopbackOrigin.test(origin))) return undefined;
  return `This request came from ${JSON.stringify(origin).slice(0, 120)}, not from ${options.siteOrigin}; the site accepts forms sent from its own pages only.`;
}

/**
 * An onRequest hook that answers 403 to a request from another site, before its body is read.
 * Add it to every route that changes something: `app.post(path, { onRequest: sameOriginOnly(options) }, handler)`.
 */
export function sameOriginOnly(options: SameOriginOptions): onRequestHookHandler {
  return function rejectCrossSite(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
    const problem = crossSiteProblem(request.headers, options);
    if (!problem) return done();
    const body: ApiErrorBody = { error: "Forbidden", message: problem };
    void reply.code(403).send(body);
  };
}

/** The origin (scheme, host and port) of a URL such as SITE_URL. */
export function originOf(url: string): string {
  return new URL(url).origin;
}
