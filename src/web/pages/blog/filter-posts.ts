import type { BlogPostSummary } from "#shared/api-types.ts";
import { paths } from "#shared/paths.ts";

export const ALL_CATEGORIES = "All";

export type BlogFilters = { query: string; category: string };

/** Reads ?q= and ?category= from a search string; an absent category means 'All'. */
export function readBlogFilters(search: string): BlogFilters {
  const params = new URLSearchParams(search);
  return { query: params.get("q") ?? "", category: params.get("category") || ALL_CATEGORIES };
}

/** The search string for a set of filters, without the defaults: "q=grid&category=Power+Quality". */
export function blogFilterSearch(filters: BlogFilters): string {
  const params = new URLSearchParams();
  if (filters.query) params.set("q", filters.query);
  if (filters.category !== ALL_CATEGORIES) params.set("category", filters.category);
  return params.toString();
}

export function isFiltering(filters: BlogFilters): boolean {
  return filters.query.trim() !== "" || filters.category !== ALL_CATEGORIES;
}

/** The articles whose bodies the site search found for a query (docs/decisions/054-site-search.md). */
export type BodyMatches = { query: string; slugs: readonly string[] };

/**
 * SPEC section 5: the search matches title or excerpt, ignoring case, or (given the site search's
 * answer for the same query) the article's body; the category must match exactly; both must hold.
 */
export function filterPosts<Post extends Pick<BlogPostSummary, "title" | "excerpt" | "category" | "slug">>(
  posts: readonly Post[],
  filters: BlogFilters,
  bodyMatches?: BodyMatches,
): Post[] {
  const needle = filters.query.trim().toLowerCase();
  const inBody = new Set(bodyMatches && bodyMatches.query.trim() === filters.query.trim() ? bodyMatches.slugs : []);
  return posts.filter(
    (post) =>
      (needle === "" ||
        post.title.toLowerCase().includes(needle) ||
        post.excerpt.toLowerCase().includes(needle) ||
        inBody.has(post.slug)) &&
      (filters.category === ALL_CATEGORIES || post.category === filters.category),
  );
}

/** 'All' and each distinct category among the posts, in order of first appearance. */
export function categoriesOf(posts: readonly Pick<BlogPostSummary, "category">[]): string[] {
  return [ALL_CATEGORIES, ...new Set(posts.map((post) => post.category))];
}

/** The blog's address for a set of filters: /blog, or /blog?q=grid&category=Power+Quality. */
export function blogHref(filters: BlogFilters): string {
  const search = blogFilterSearch(filters);
  return search ? `${paths.blog}?${search}` : paths.blog;
}
