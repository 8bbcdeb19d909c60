import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ApiErrorBody, FormFields } from "#shared/api-types.ts";
import { apiPaths } from "#shared/paths.ts";
import { articleMatchesApiPath } from "#shared/search.ts";
import type { StatedRetention } from "#shared/retention.ts";
import { SLUG_PATTERN } from "#shared/routes.ts";
import type { Database } from "../db/client.ts";
import { OLD_ADDRESS_CACHE_CONTROL, type OldAddresses } from "../pages/old-addresses.ts";
import { type CachedPage, cachedEntry, PageCache, sendCachedPage } from "../pages/page-cache.ts";
import { getArticle, getProject, listBlogPosts, listProjects, listTeamMembers } from "../content/public-content.ts";
import { articleSlugsMatching, searchSite } from "../content/search.ts";
import { listPublicTestimonials } from "../content/testimonials.ts";

/** The read API's search paths (#shared/search.ts): the page's data, and the blog's body matches. */
const SEARCH_PREFIX = "/api/search?";
const ARTICLE_MATCHES_PREFIX = "/api/search/articles?";

/**
 * What a read endpoint answers for an API path: its data, null when the path names something
 * that does not exist (an unknown slug), or undefined when there is no such endpoint. The page
 * renderer prefetches through the same function, so a page and its API never disagree.
 */
export type ReadApi = (apiPath: string) => Promise<unknown> | undefined;

/** A slug as the route table (#shared/routes.ts) defines it, captured. */
const slugPart = `(${SLUG_PATTERN.source.slice(1, -1)})`;
const articlePath = new RegExp(`^${apiPaths.blogPosts}/${slugPart}$`);
const projectPath = new RegExp(`^${apiPaths.projects}/${slugPart}$`);

export function createReadApi(deps: {
  db: Database;
  issueFormFields: () => FormFields;
  /** The retention periods the site is configured with: the privacy notice states them. */
  retention: StatedRetention;
  /** The instance's clock: an article is public once its time has come on it. */
  now?: () => Date;
}): ReadApi {
  const now = deps.now ?? (() => new Date());
  const fixed: Record<string, () => Promise<unknown>> = {
    [apiPaths.retention]: async () => deps.retention,
    [apiPaths.teamMembers]: () => listTeamMembers(deps.db),
    [apiPaths.projects]: () => listProjects(deps.db, now()),
    [apiPaths.blogPosts]: () => listBlogPosts(deps.db, now()),
    [apiPaths.testimonials]: () => listPublicTestimonials(deps.db, now()),
    [apiPaths.formToken]: async () => deps.issueFormFields(),
  };
  return (apiPath) => {
    const read = fixed[apiPath];
    if (read) return read();
    if (apiPath.startsWith(SEARCH_PREFIX))
      return searchSite(deps.db, new URLSearchParams(apiPath.slice(SEARCH_PREFIX.length)).get("q") ?? "", now());
    if (apiPath.startsWith(ARTICLE_MATCHES_PREFIX))
      return articleSlugsMatching(
        deps.db,
        new URLSearchParams(apiPath.slice(ARTICLE_MATCHES_PREFIX.length)).get("q") ?? "",
        now(),
      );
    const article = articlePath.exec(apiPath);
    if (article?.[1]) return getArticle(deps.db, article[1], now());
    const project = projectPath.exec(apiPath);
    if (project?.[1]) return getProject(deps.db, project[1], now());
    return undefined;
  };
}

/** Answers of unknown slugs kept, at most: slugs are visitor input. */
const MAX_KEPT_MISSES = 500;

/**
 * Registers the read endpoints. With `contentVersion`, each answer is serialised and compressed
 * (gzip and brotli) once per content version and kept with its ETag, as pages are
 * (pages/page-cache.ts): a repeated request costs no query, no JSON and no compression. The form
 * fields are new for every request.
 */
export function registerContentApi(
  app: FastifyInstance,
  readApi: ReadApi,
  contentVersion?: () => string,
  oldAddresses?: OldAddresses,
): void {
  const kept = new PageCache(100, 16 * 1024 * 1024);
  // Paths whose data said "no such thing" in the kept version, so that a made-up slug repeated
  // costs no query either; bounded, and emptied with the version.
  const misses = new Set<string>();
  let keptVersion = "";
  const useVersion = (version: string) => {
    if (version === keptVersion) return;
    keptVersion = version;
    kept.useVersion(version);
    misses.clear();
  };

  /** The kept answer for an API path, made when missing; null when there is no such thing. */
  const read = async (path: string): Promise<CachedPage | null> => {
    if (contentVersion) {
      useVersion(contentVersion());
      if (misses.has(path)) return null;
      const hit = kept.get(path);
      if (hit) return hit;
    }
    const data = await readApi(path);
    if (data === null || data === undefined) {
      if (contentVersion && misses.size < MAX_KEPT_MISSES) misses.add(path);
      return null;
    }
    const json = JSON.stringify(data);
    // Without a version (development) nothing is kept, and each answer is made afresh.
    return contentVersion ? kept.set(path, 200, json) : cachedEntry(200, json);
  };

  const send = (request: FastifyRequest, reply: FastifyReply, answer: CachedPage) =>
    sendCachedPage(request, reply.type("application/json; charset=utf-8").header("vary", "Accept-Encoding"), answer);

  // Kept answers carry their compressed forms: no compression step on these routes.
  const precompressed = { compress: false } as const;
  for (const path of [
    apiPaths.teamMembers,
    apiPaths.projects,
    apiPaths.blogPosts,
    apiPaths.testimonials,
    apiPaths.retention,
  ]) {
    app.get(path, precompressed, async (request, reply) => send(request, reply, (await read(path))!));
  }
  // The blog's search asks which articles' bodies match what is typed: never kept (its query is
  // the visitor's), bounded by the search's own limits (#shared/search.ts).
  app.get<{ Querystring: { q?: unknown } }>("/api/search/articles", async (request, reply) => {
    const q = request.query.q;
    if (typeof q !== "string") {
      const problem: ApiErrorBody = { error: "Bad Request", message: "Give one search as ?q=." };
      return reply.code(400).send(problem);
    }
    reply.header("cache-control", "no-store");
    return { slugs: await readApi(articleMatchesApiPath(q)) };
  });
  app.get(apiPaths.formToken, async (_request, reply) => {
    reply.header("cache-control", "no-store");
    return readApi(apiPaths.formToken);
  });
  for (const [collection, what] of [
    [apiPaths.blogPosts, "article"],
    [apiPaths.projects, "project"],
  ] as const) {
    app.get<{ Params: { slug: string } }>(`${collection}/:slug`, precompressed, async (request, reply) => {
      const answer = await read(`${collection}/${request.params.slug}`);
      if (answer === null) {
        // An old address of an item that is public now is sent on, as its page is (decision 038).
        const current =
          oldAddresses && SLUG_PATTERN.test(request.params.slug)
            ? await oldAddresses(what, request.params.slug)
            : undefined;
        if (current) {
          return reply
            .code(301)
            .header("location", `${collection}/${current}`)
            .header("cache-control", OLD_ADDRESS_CACHE_CONTROL)
            .send();
        }
        const problem: ApiErrorBody = {
          error: "Not Found",
          message: `There is no ${what} at ${collection}/${request.params.slug}.`,
        };
        return reply.code(404).send(problem);
      }
      return send(request, reply, answer);
    });
  }
}
