import { apiPaths, articlePath, paths } from "#shared/paths.ts";

// The addresses the bench visits, all taken from the site's one list of paths.

/** An article that ships with the site's content, for the article page. */
const ARTICLE_SLUG = "ieee-519-harmonics-at-a-vfd-heavy-plant";

/** The routes Lighthouse measures: the main navigation, the contact form and an article. */
export const lighthouseRoutes: string[] = [
  paths.home,
  paths.about,
  paths.services,
  paths.industries,
  paths.projects,
  paths.blog,
  articlePath(ARTICLE_SLUG),
  paths.contact,
];

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
  // A query string is never cached: the page is rendered for each request.
  { name: "page with ?query", pathname: `${paths.about}?utm_source=newsletter`, headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING } },
];
