import { AlertTriangle, BookOpen, Search } from "lucide-react";
import { useEffect, useState } from "react";
import type { BlogPostSummary } from "#shared/api-types.ts";

/**
 * An article as the blog's island receives it: without its row id, so a page rendered from two
 * databases holding the same content is the same bytes (the JSON API keeps `id`).
 */
export type ListedPost = Omit<BlogPostSummary, "id">;
import { apiPaths, paths } from "#shared/paths.ts";
import { CategoryFilter } from "../../components/category-filter.tsx";
import { PostCard } from "../../components/post-card.tsx";
import { readApi } from "../../lib/api-client.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { articleMatchesApiPath } from "#shared/search.ts";
import {
  ALL_CATEGORIES,
  type BlogFilters,
  type BodyMatches,
  blogHref,
  categoriesOf,
  filterPosts,
  isFiltering,
  readBlogFilters,
} from "./filter-posts.ts";

type Posts = { state: "pending" } | { state: "error" } | { state: "ready"; data: ListedPost[] };

/**
 * The blog's articles with their search and category filter, an island: the list follows each
 * keystroke and each category chosen, and the address follows the list (so a filtered view can be
 * shared). `posts` are the articles the server loaded, null when it could not: the browser then
 * reads them itself, once, showing the spec's loading and error states. `search` is the page's
 * query string, whose filters the server applied.
 */
export function BlogArticles({
  posts: loaded,
  search,
  bodyMatches: loadedMatches,
}: {
  posts: ListedPost[] | null;
  search: string;
  /** The articles whose bodies match the page's query, as the server found them. */
  bodyMatches?: BodyMatches;
}) {
  const [posts, setPosts] = useState<Posts>(() => (loaded ? { state: "ready", data: loaded } : { state: "pending" }));
  const [filters, setFilterState] = useState(() => readBlogFilters(search));
  const [bodyMatches, setBodyMatches] = useState<BodyMatches | undefined>(loadedMatches);
  const filtering = isFiltering(filters);

  // The bodies are searched by the server: asked a moment after typing stops, the list then
  // widening to the articles whose bodies match; titles and excerpts match at once, as before.
  const query = filters.query.trim();
  useEffect(() => {
    if (query === "" || bodyMatches?.query.trim() === query) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(articleMatchesApiPath(query), { signal: controller.signal })
        .then((response) => (response.ok ? (response.json() as Promise<{ slugs: string[] }>) : undefined))
        .then((answer) => {
          if (answer) setBodyMatches({ query, slugs: answer.slugs });
        })
        .catch(() => {});
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, bodyMatches]);

  useEffect(() => {
    if (loaded) return;
    readApi<BlogPostSummary[]>([apiPaths.blogPosts], { on401: "throw" }).then(
      (data) => setPosts({ state: "ready", data: data ?? [] }),
      () => setPosts({ state: "error" }),
    );
  }, [loaded]);

  const setFilters = (next: BlogFilters) => {
    setFilterState(next);
    history.replaceState(history.state, "", blogHref(next));
  };

  return (
    <section aria-labelledby="articles-heading" className="py-16">
      <div className="container-page">
        {/* Every state renders the heading the section is labelled by. */}
        {posts.state === "pending" ? (
          <>
            <h2 id="articles-heading" className="sr-only">
              Articles
            </h2>
            <div role="status" className="flex flex-col items-center gap-4 py-20 text-slate-600">
              <Spinner className="size-10 text-brand-700" />
              <p>Loading articles...</p>
            </div>
          </>
        ) : posts.state === "error" ? (
          <div role="alert" className="mx-auto max-w-xl rounded-xl border border-red-200 bg-red-50 p-8 text-center">
            <AlertTriangle aria-hidden="true" className="mx-auto size-10 text-red-700" />
            <h2 id="articles-heading" className="mt-4 text-xl font-bold text-red-900">
              Unable to Load Articles
            </h2>
            <p className="mt-2 text-red-900">
              We&apos;re having trouble loading our latest insights. Please try again later.
            </p>
            <button type="button" className="btn-primary mt-6" onClick={() => window.location.reload()}>
              Try Again
            </button>
          </div>
        ) : (
          <>
            <form
              method="get"
              action={paths.blog}
              role="search"
              className="flex flex-col gap-4 lg:flex-row lg:items-center lg:justify-between"
              onSubmit={(event) => event.preventDefault()}
            >
              {/* The button sends the form without JavaScript (the server renders the filtered
                    list); with it, the list already follows each keystroke. */}
              <div className="flex w-full gap-2 lg:max-w-md">
                <div className="relative grow">
                  <label htmlFor="blog-search" className="sr-only">
                    Search articles
                  </label>
                  <Search
                    aria-hidden="true"
                    className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500"
                  />
                  <input
                    id="blog-search"
                    type="search"
                    name="q"
                    placeholder="Search articles..."
                    value={filters.query}
                    onChange={(event) => setFilters({ ...filters, query: event.target.value })}
                    className="min-h-11 w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600"
                  />
                  {filters.category !== ALL_CATEGORIES ? (
                    <input type="hidden" name="category" value={filters.category} />
                  ) : null}
                </div>
                <button type="submit" className="btn-outline shrink-0">
                  Search
                </button>
              </div>
              <CategoryFilter
                categories={categoriesOf(posts.data)}
                active={filters.category}
                hrefFor={(category) => blogHref({ ...filters, category })}
                onChoose={(category) => setFilters({ ...filters, category })}
                label="Filter by category"
              />
            </form>

            <FilteredPosts
              filtering={filtering}
              posts={filterPosts(posts.data, filters, bodyMatches)}
              onClear={() => setFilters({ query: "", category: ALL_CATEGORIES })}
            />
          </>
        )}
      </div>
    </section>
  );
}

function FilteredPosts({
  posts,
  filtering,
  onClear,
}: {
  posts: ListedPost[];
  filtering: boolean;
  onClear: () => void;
}) {
  return (
    <div className="mt-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="articles-heading" className="text-2xl font-bold text-navy-900" aria-live="polite">
          {filtering ? `Found ${posts.length} article(s)` : `Latest Articles (${posts.length})`}
        </h2>
        {filtering ? (
          <a
            href={paths.blog}
            className="btn-outline"
            onClick={(event) => {
              event.preventDefault();
              onClear();
            }}
          >
            Clear Filters
          </a>
        ) : null}
      </div>
      {posts.length === 0 ? (
        <div className="mt-10 rounded-xl border border-dashed border-slate-300 p-12 text-center">
          <BookOpen aria-hidden="true" className="mx-auto size-10 text-slate-500" />
          <h3 className="mt-4 text-xl font-bold text-navy-900">No Articles Found</h3>
          <p className="mt-2 text-slate-600">
            {filtering
              ? "Try adjusting your search or filter criteria."
              : "We're working on bringing you the latest insights. Check back soon!"}
          </p>
        </div>
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="article-grid">
          {posts.map((post, index) => (
            <li key={post.slug}>
              {/* The first card's picture is the page's largest above the fold on wide screens. */}
              <PostCard post={post} priority={index === 0} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
