// The site's pages, written once. The server matches requests against this table (which page,
// which canonical address, what enters the page cache) and renders the page it names (the browser hydrates only its islands),
// the sitemap lists its indexed pages, and the tests and the bench take their routes from it.
// docs/decisions/015-one-route-table.md says why there is one table and how a URL becomes canonical.

type RouteDefinition = {
  /** A path, or a pattern whose `:name` segments are slugs: "/blog/:slug". */
  readonly pattern: string;
  /** Listed in the sitemap (a pattern's pages are listed from the content instead). */
  readonly indexed: boolean;
  /**
   * Query parameters that change what the page shows (the blog's search and category filter). Any
   * other parameter (utm_source, fbclid…) is ignored: the page is the same, and comes from the cache.
   */
  readonly query?: readonly string[];
};

export const routes = {
  home: { pattern: "/", indexed: true },
  about: { pattern: "/about", indexed: true },
  services: { pattern: "/services", indexed: true },
  industries: { pattern: "/industries", indexed: true },
  projects: { pattern: "/projects", indexed: true, query: ["category"] },
  project: { pattern: "/projects/:slug", indexed: false },
  blog: { pattern: "/blog", indexed: true, query: ["q", "category", "subscribed"] },
  article: { pattern: "/blog/:slug", indexed: false },
  contact: { pattern: "/contact", indexed: true },
  // Results pages are not for search engines: not in the sitemap, and noindex (src/web/routes.tsx).
  search: { pattern: "/search", indexed: false, query: ["q"] },
  thankYou: { pattern: "/thank-you", indexed: false },
  privacy: { pattern: "/privacy", indexed: true },
  /** The privacy notice in Hindi and in Gujarati (translations awaiting the firm's review). */
  privacyHindi: { pattern: "/privacy/hi", indexed: true },
  privacyGujarati: { pattern: "/privacy/gu", indexed: true },
  terms: { pattern: "/terms", indexed: true },
  cookies: { pattern: "/cookies", indexed: true },
} as const satisfies Record<string, RouteDefinition>;

export type RouteId = keyof typeof routes;
export type RouteParams = Record<string, string>;
export type RouteMatch = { id: RouteId; params: RouteParams };

/** A slug: lower-case letters and digits in words joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The routes without parameters, by id: the addresses links point at. */
type FixedRouteId = {
  [Id in RouteId]: (typeof routes)[Id]["pattern"] extends `${string}:${string}` ? never : Id;
}[RouteId];
export type FixedPaths = { [Id in FixedRouteId]: (typeof routes)[Id]["pattern"] };

// Pure: a browser bundle that never matches routes drops these (docs/performance.md, the budget).
const routeEntries = /* @__PURE__ */ Object.entries(routes) as [RouteId, RouteDefinition][];
const compiled = /* @__PURE__ */ routeEntries.map(([id, route]) => ({ id, segments: route.pattern.split("/") }));

/**
 * The page at this path and its parameters, or undefined (a 404). Exact: the path must already be
 * canonical (see canonicalPagePath), so "/about/", "//about" and "/About" match nothing here.
 */
export function matchRoute(pathname: string): RouteMatch | undefined {
  const segments = pathname.split("/");
  for (const route of compiled) {
    if (route.segments.length !== segments.length) continue;
    const params: RouteParams = {};
    let matches = true;
    for (let index = 0; index < segments.length && matches; index += 1) {
      const part = route.segments[index]!;
      const segment = segments[index]!;
      if (part.startsWith(":")) {
        matches = SLUG_PATTERN.test(segment);
        params[part.slice(1)] = segment;
      } else {
        matches = part === segment;
      }
    }
    if (matches) return { id: route.id, params };
  }
  return undefined;
}

/** The address of a route with its parameters filled in. */
export function routePath(id: RouteId, params: RouteParams = {}): string {
  return routes[id].pattern.replace(/:(\w+)/g, (_, name: string) => params[name] ?? "");
}

/** Whether the page at this route shows something different for the given query string. */
export function queryChangesPage(id: RouteId, search: URLSearchParams): boolean {
  const read: readonly string[] = (routes[id] as RouteDefinition).query ?? [];
  return read.some((name) => search.has(name));
}

/** Every route id, in the table's order. */
export const routeIds = /* @__PURE__ */ routeEntries.map(([id]) => id);
