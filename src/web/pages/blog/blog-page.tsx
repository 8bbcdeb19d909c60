import { newsletterFormNotice } from "#shared/privacy-notice.ts";
import { Cpu, Gauge, Scale, SunMedium } from "lucide-react";
import { formStateKeys, type PostedFormState } from "#shared/page-rendering.ts";
import { useBlogPosts } from "../../api/queries.ts";
import { PageHero } from "../../components/page-hero.tsx";
import { FormNotice } from "../../components/form-notice.tsx";
import { Island } from "../../islands/island.tsx";
import { usePageValue, useRouteBreadcrumbs, useSearch } from "../../lib/page-context.ts";
import { articleMatchesApiPath } from "#shared/search.ts";
import { ALL_CATEGORIES, type BlogFilters, blogHref } from "./filter-posts.ts";

const featuredTopics = [
  {
    title: "Smart Grid",
    Icon: Cpu,
    text: "Digital substations, IEC 61850 and grid automation.",
    filters: { query: "grid", category: ALL_CATEGORIES },
  },
  {
    title: "Renewables",
    Icon: SunMedium,
    text: "Solar, wind, hybrid and storage integration.",
    filters: { query: "", category: "Renewable Energy" },
  },
  {
    title: "Regulations",
    Icon: Scale,
    text: "CEA, CERC and GERC requirements explained.",
    filters: { query: "", category: "Regulatory Compliance" },
  },
  {
    title: "Power Quality",
    Icon: Gauge,
    text: "Harmonics, flicker, voltage sags and power factor.",
    filters: { query: "", category: "Power Quality" },
  },
] satisfies { title: string; Icon: unknown; text: string; filters: BlogFilters }[];

export function BlogPage() {
  const posts = useBlogPosts();
  const search = useSearch();
  const subscribed = new URLSearchParams(search).get("subscribed") === "1";
  const posted = usePageValue<PostedFormState>(formStateKeys.newsletter);
  const query = new URLSearchParams(search).get("q")?.trim() ?? "";
  const slugs = usePageValue<string[]>(query ? articleMatchesApiPath(query) : "");
  const bodyMatches = query && slugs ? { query, slugs } : undefined;

  return (
    <>
      <PageHero eyebrow="Insights" title="Industry Insights" breadcrumbs={useRouteBreadcrumbs()}>
        <p>
          Technical notes from our engineers on grid integration, renewable energy, power quality, protection and the
          regulations that shape them.
        </p>
      </PageHero>

      {/* Without row ids: a page is the same bytes whichever database holds the same content. */}
      <Island
        name="blogArticles"
        props={{ posts: posts.data?.map(({ id: _id, ...post }) => post) ?? null, search, bodyMatches }}
      />

      <section aria-labelledby="newsletter-heading" className="bg-paper py-16">
        <div className="container-page grid gap-10 lg:grid-cols-2">
          {/* The box: the form (an island), then under its button the privacy notice's lines. */}
          <div id="newsletter" className="rounded-xl bg-navy-900 p-8 text-white">
            <Island
              name="newsletterSignup"
              props={{ subscribed, posted, noticeVersion: newsletterFormNotice.version }}
            />
            <FormNotice id="newsletter-notice" notice={newsletterFormNotice} tone="dark" className="mt-2" />
          </div>
          <div>
            <h2 className="text-2xl font-bold text-navy-900">Featured Topics</h2>
            <ul className="mt-6 grid gap-4 sm:grid-cols-2">
              {featuredTopics.map(({ title, Icon, text, filters: topicFilters }) => (
                <li key={title}>
                  <a href={blogHref(topicFilters)} className="card flex h-full gap-3 p-4 hover:shadow-md">
                    <Icon aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-brand-700" />
                    <span>
                      <span className="block font-semibold text-navy-900">{title}</span>
                      <span className="block text-sm text-slate-600">{text}</span>
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>
    </>
  );
}
