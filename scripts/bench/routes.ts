import { apiPaths, paths } from "#shared/paths.ts";
import { routeIds } from "#shared/routes.ts";
import { sampleAddress } from "../../test/page-paths.ts";

// The addresses the bench visits, all taken from the site's one route table (src/shared/routes.ts).

/** The routes Lighthouse measures: one page of every route but the thank-you page (noindex, it redirects). */
export const lighthouseRoutes: string[] = routeIds.filter((id) => id !== "thankYou").map(sampleAddress);

/** What a current browser sends. */
export const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br";

export type LoadTarget = { name: string; pathname: string; headers: Record<string, string> };

/** The throughput section's targets. */
export const loadTargets: LoadTarget[] = [
  // The cached page, as a browser gets it: its brotli form, kept with the page.
  { name: "page / (brotli)", pathname: paths.home, headers: { "accept-encoding": "br" } },
  // The same page uncompressed (a client that asks for no encoding).
  { name: "page / (identity)", pathname: paths.home, headers: {} },
  { name: "API blog posts", pathname: apiPaths.blogPosts, headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING } },
  { name: "404 page", pathname: "/no-such-page", headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING } },
  // A query string the page does not read (utm_source) is the same page, from the cache.
  {
    name: "page with ?query",
    pathname: `${paths.about}?utm_source=newsletter`,
    headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING },
  },
];
