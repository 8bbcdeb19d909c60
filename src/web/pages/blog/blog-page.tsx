import { AlertTriangle, BookOpen, Cpu, Gauge, Scale, Search, SunMedium } from "lucide-react";
import { Link, useLocation, useSearch } from "wouter";
import { paths } from "#shared/paths.ts";
import { useBlogPosts } from "../../api/queries.ts";
import { CategoryFilter } from "../../components/category-filter.tsx";
import { NewsletterSignup } from "../../components/newsletter-signup.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { useRouteBreadcrumbs } from "../../lib/route-context.ts";
import { PostCard } from "../../components/post-card.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import {
  ALL_CATEGORIES,
  type BlogFilters,
  blogFilterSearch,
  categoriesOf,
  filterPosts,
  isFiltering,
  readBlogFilters,
} from "./filter-posts.ts";

const featuredTopics = [
  { title: "Smart Grid", Icon: Cpu, text: "Digital substations, IEC 61850 and grid automation.", filters: { query: "grid", category: ALL_CATEGORIES } },
  { title: "Renewables", Icon: SunMedium, text: "Solar, wind, hybrid and storage integration.", filters: { query: "", category: "Renewable Energy" } },
  { title: "Regulations", Icon: Scale, text: "CEA, CERC and GERC requirements explained.", filters: { query: "", category: "Regulatory Compliance" } },
  { title: "Power Quality", Icon: Gauge, text: "Harmonics, flicker, voltage sags and power factor.", filters: { query: "", category: "Power Quality" } },
] satisfies { title: string; Icon: unknown; text: string; filters: BlogFilters }[];

function blogHref(filters: BlogFilters): string {
  const search = blogFilterSearch(filters);
  return search ? `${paths.blog}?${search}` : paths.blog;
}

export function BlogPage() {
  const posts = useBlogPosts();
  const filters = readBlogFilters(useSearch());
  const [, navigate] = useLocation();
  const filtering = isFiltering(filters);

  const setFilters = (next: BlogFilters) => navigate(blogHref(next), { replace: true });

  return (
    <>
      <PageHero eyebrow="Insights" title="Industry Insights" breadcrumbs={useRouteBreadcrumbs()}>
        <p>
          Technical notes from our engineers on grid integration, renewable energy, power quality, protection and the
          regulations that shape them.
        </p>
      </PageHero>

      <section aria-labelledby="articles-heading" className="py-16">
        <div className="container-page">
          {/* Every state renders the heading the section is labelled by. */}
          {posts.isPending ? (
            <>
              <h2 id="articles-heading" className="sr-only">
                Articles
              </h2>
              <div role="status" className="flex flex-col items-center gap-4 py-20 text-slate-600">
                <Spinner className="size-10 text-brand-700" />
                <p>Loading articles...</p>
              </div>
            </>
          ) : posts.isError ? (
            <div role="alert" className="mx-auto max-w-xl rounded-xl border border-red-200 bg-red-50 p-8 text-center">
              <AlertTriangle aria-hidden="true" className="mx-auto size-10 text-red-700" />
              <h2 id="articles-heading" className="mt-4 text-xl font-bold text-red-900">
                Unable to Load Articles
              </h2>
              <p className="mt-2 text-red-900">We&apos;re having trouble loading our latest insights. Please try again later.</p>
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
                    <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500" />
                    <input
                      id="blog-search"
                      type="search"
                      name="q"
                      placeholder="Search articles..."
                      value={filters.query}
                      onChange={(event) => setFilters({ ...filters, query: event.target.value })}
                      className="min-h-11 w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600"
                    />
                    {filters.category !== ALL_CATEGORIES ? <input type="hidden" name="category" value={filters.category} /> : null}
                  </div>
                  <button type="submit" className="btn-outline shrink-0">
                    Search
                  </button>
                </div>
                <CategoryFilter
                  categories={categoriesOf(posts.data)}
                  active={filters.category}
                  hrefFor={(category) => blogHref({ ...filters, category })}
                  label="Filter by category"
                />
              </form>

              <FilteredPosts filtering={filtering} posts={filterPosts(posts.data, filters)} />
            </>
          )}
        </div>
      </section>

      <section aria-labelledby="newsletter-heading" className="bg-paper py-16">
        <div className="container-page grid gap-10 lg:grid-cols-2">
          <NewsletterSignup />
          <div>
            <h2 className="text-2xl font-bold text-navy-900">Featured Topics</h2>
            <ul className="mt-6 grid gap-4 sm:grid-cols-2">
              {featuredTopics.map(({ title, Icon, text, filters: topicFilters }) => (
                <li key={title}>
                  <Link href={blogHref(topicFilters)} className="card flex h-full gap-3 p-4 hover:shadow-md">
                    <Icon aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-brand-700" />
                    <span>
                      <span className="block font-semibold text-navy-900">{title}</span>
                      <span className="block text-sm text-slate-600">{text}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>
    </>
  );
}

function FilteredPosts({ posts, filtering }: { posts: ReturnType<typeof filterPosts>; filtering: boolean }) {
  return (
    <div className="mt-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="articles-heading" className="text-2xl font-bold text-navy-900" aria-live="polite">
          {filtering ? `Found ${posts.length} article(s)` : `Latest Articles (${posts.length})`}
        </h2>
        {filtering ? (
          <Link href={paths.blog} replace className="btn-outline">
            Clear Filters
          </Link>
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
          {posts.map((post) => (
            <li key={post.id}>
              <PostCard post={post} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
