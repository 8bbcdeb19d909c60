import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { navSection } from "#shared/paths.ts";
import { matchRoute, queryChangesPage, type RouteMatch, routePath } from "#shared/routes.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import type { ReadApi } from "../routes/content-api.ts";
import { fillFormFields, hasFormFields } from "./form-fields.ts";
import { canonicalPageTarget, mayNeedCanonicalising } from "./canonical-url.ts";
import { PageCache, sendCachedPage } from "./page-cache.ts";
import type { ViewCounter } from "../analytics/counting.ts";
import { OLD_ADDRESS_CACHE_CONTROL, type OldAddresses } from "./old-addresses.ts";
import type { SearchMissCounter } from "../analytics/search-misses.ts";
import type { SearchAnswer } from "#shared/search.ts";

// Serving the site's pages: one canonical address per page (a 301 from any other spelling), the
// route table (#shared/routes.ts) deciding what is a page, rendered pages kept per content version,
// an article's or a project's old address sent on to its current one, and the 404 page for
// everything else.

export type PageRouteDependencies = {
  /** Renders the pages; without one, page routes answer 503 (API-only tests). */
  renderer?: PageRenderer;
  /** Reads a page's data for one request: its form fields are real. */
  readApi: ReadApi;
  /** Reads a page's data for the cache: its form fields are placeholders, filled in per answer. */
  cachedReadApi: ReadApi;
  /** The content version: kept pages are rendered again once it changes. Unset: nothing is kept. */
  contentVersion?: () => string;
  formSecret: string;
  /** The cache to keep pages in (tests pass their own to look into it); one is made when unset. */
  cache?: PageCache;
  /** Counts the views of public pages (analytics), after each answer has gone. */
  counter?: ViewCounter;
  /** Where an old address of an article or a project leads now (old-addresses.ts); unset: nowhere. */
  oldAddresses?: OldAddresses;
  /** Counts the searches that found nothing (analytics/search-misses.ts). */
  searchMisses?: SearchMissCounter;
};

/**
 * The 404 page for a path: a path no route matches under the same header link (its HTML differs
 * only in which link the header marks), and the key it is kept under, which no path can be. So
 * at most one 404 page per header link is ever kept, whatever addresses are asked for.
 */
function notFoundPage(pathname: string): { key: string; renderAt: string } {
  const section = navSection(pathname) ?? "";
  return { key: `(not found)${section}`, renderAt: `${section}/_` };
}

/**
 * Sends any GET or HEAD for a page in another spelling to its canonical address. A hook rather
 * than a route, so it also sees what the router cannot route: the absolute form of a request line.
 */
export function registerCanonicalRedirects(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    const target = request.raw.url ?? "/";
    if ((request.method === "GET" || request.method === "HEAD") && mayNeedCanonicalising(target)) {
      const canonical = canonicalPageTarget(target);
      if (canonical !== undefined && canonical !== target) {
        void reply.code(301).header("location", canonical).header("cache-control", "public, max-age=3600").send();
        return;
      }
    }
    done();
  });
}

export function registerPageRoutes(app: FastifyInstance, deps: PageRouteDependencies): void {
  const cache = deps.contentVersion ? (deps.cache ?? new PageCache()) : undefined;
  // Whether a kept page has a form is known once, not looked for in its HTML on every request.
  const pagesWithForms = new WeakSet<object>();

  /** A page rendered for this request alone: nothing of it is kept. */
  async function renderOnce(
    renderer: PageRenderer,
    request: FastifyRequest,
    reply: FastifyReply,
    url: string,
    status?: number,
  ) {
    // A search that found nothing is counted (no more than its words and the day) once answered.
    let missed: string | undefined;
    const readApi: ReadApi = deps.searchMisses
      ? (apiPath) => {
          const read = deps.readApi(apiPath);
          if (!read || !apiPath.startsWith("/api/search?")) return read;
          return read.then((answer) => {
            const found = answer as SearchAnswer;
            if (found.state === "done" && found.total === 0) missed = found.query;
            return answer;
          });
        }
      : deps.readApi;
    const rendered = await renderer.render(url, { readApi, log: request.log });
    if (missed !== undefined && request.method === "GET" && rendered.status === 200)
      deps.searchMisses!.count(request, missed);
    return reply
      .code(status ?? rendered.status)
      .header("cache-control", "no-cache")
      .send(rendered.html);
  }

  /**
   * The page kept under `key`, rendered (from `url`) and kept when it is not there yet. A page
   * rendered without some of its data (the database failed) is answered but not kept: the next
   * request renders it again.
   */
  async function keptPage(renderer: PageRenderer, request: FastifyRequest, key: string, url: string) {
    cache!.useVersion(deps.contentVersion!());
    const kept = cache!.get(key);
    if (kept) return kept;
    const rendered = await renderer.render(url, { readApi: deps.cachedReadApi, log: request.log });
    // An address the table matches but whose data says there is no such page (an unknown
    // article) is a 404: not kept under its own address, which anyone can make up.
    if (rendered.status !== 200 && !key.startsWith("(not found)")) return undefined;
    if (!rendered.complete) return { incomplete: true as const, status: rendered.status, html: rendered.html };
    const page = cache!.set(key, rendered.status, rendered.html);
    if (hasFormFields(page.html)) pagesWithForms.add(page);
    return page;
  }

  /**
   * The current address an article's or a project's old address leads to (its query string kept),
   * or undefined: an address of another route, or one that leads nowhere public now.
   */
  async function redirectTarget(match: RouteMatch, search: string): Promise<string | undefined> {
    const kind = match.id === "article" ? "article" : match.id === "project" ? "project" : undefined;
    const oldSlug = match.params.slug;
    if (!kind || !oldSlug || !deps.oldAddresses) return undefined;
    const slug = await deps.oldAddresses(kind, oldSlug);
    return slug ? `${routePath(match.id, { slug })}${search}` : undefined;
  }

  const sendRedirect = (reply: FastifyReply, target: string) =>
    reply.code(301).header("location", target).header("cache-control", OLD_ADDRESS_CACHE_CONTROL).send();

  async function sendNotFound(renderer: PageRenderer, request: FastifyRequest, reply: FastifyReply, pathname: string) {
    const { key, renderAt } = notFoundPage(pathname);
    if (!cache) return renderOnce(renderer, request, reply, renderAt, 404);
    const page = await keptPage(renderer, request, key, renderAt);
    if (!page || "incomplete" in page) return reply.code(404).header("cache-control", "no-cache").send(page?.html);
    return sendCachedPage(request, reply, page);
  }

  const counter = deps.counter?.enabled ? deps.counter : undefined;
  // Counted once the answer is sent, so counting adds nothing to it: a GET (not HEAD) answered
  // 200 is a page of the route table (a path it does not match gets the 404 page), and so is a
  // 304, a browser showing again the page it holds (only a kept page of status 200 has an ETag).
  const countView = counter
    ? {
        onResponse(request: FastifyRequest, reply: FastifyReply, done: () => void) {
          if ((reply.statusCode === 200 || reply.statusCode === 304) && request.method === "GET") {
            const referrer = request.headers.referer;
            counter.count(request, { url: request.url, referrer: referrer ?? null });
          }
          done();
        },
      }
    : {};

  app.get("/*", countView, async (request, reply) => {
    const { renderer } = deps;
    if (!renderer) {
      return reply.code(503).send({ error: "Service Unavailable", message: "Pages are not being served." });
    }
    reply.type("text/html; charset=utf-8").header("vary", "Accept-Encoding");
    const url = request.url;
    const queryAt = url.indexOf("?");
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    const match = matchRoute(pathname);
    if (!match) return sendNotFound(renderer, request, reply, pathname);

    // A query string the page reads (the blog's search) is rendered for this request; any other
    // (utm_source, say) changes nothing, and the page comes from the cache.
    const search = queryAt === -1 ? undefined : new URLSearchParams(url.slice(queryAt + 1));
    const query = queryAt === -1 ? "" : url.slice(queryAt);
    if (!cache) {
      // Development: nothing kept; an unknown article may still be an old address.
      const rendered = await renderer.render(url, { readApi: deps.readApi, log: request.log });
      const target = rendered.status === 404 ? await redirectTarget(match, query) : undefined;
      if (target) return sendRedirect(reply, target);
      return reply.code(rendered.status).header("cache-control", "no-cache").send(rendered.html);
    }
    if (search && queryChangesPage(match.id, search)) return renderOnce(renderer, request, reply, url);

    const page = await keptPage(renderer, request, pathname, pathname);
    if (!page) {
      // No page at this address: an old address of an article or a project is sent on, if its
      // item is public now; anything else gets the 404 page. Neither is kept under the address.
      const target = await redirectTarget(match, query);
      if (target) return sendRedirect(reply, target);
      return sendNotFound(renderer, request, reply, pathname);
    }
    if ("incomplete" in page) {
      const html = fillFormFields(page.html, deps.formSecret) ?? page.html;
      return reply.code(page.status).header("cache-control", "no-store").send(html);
    }
    if (pagesWithForms.has(page)) {
      // A page with a form: its fields are new for every answer, so it is never stored downstream.
      const withForm = fillFormFields(page.html, deps.formSecret)!;
      return reply.code(page.status).header("cache-control", "no-store").send(withForm);
    }
    return sendCachedPage(request, reply, page);
  });
}
