import { ArrowLeft, CalendarDays, Clock, UserRound } from "lucide-react";
import type { ArticleDetail } from "#shared/api-types.ts";
import { ARTICLE_SIZES } from "#shared/image-sizes.ts";
import { articleApiPath, paths } from "#shared/paths.ts";
import { Breadcrumbs } from "../../components/breadcrumbs.tsx";
import { CategoryBadge } from "../../components/category-badge.tsx";
import { CtaBand } from "../../components/cta-band.tsx";
import { PostCard } from "../../components/post-card.tsx";
import { ResponsiveImage } from "../../components/responsive-image.tsx";
import { teamAnchor } from "../../components/team-card.tsx";
import { formatLongDate } from "../../lib/format-date.ts";
import { usePageData, usePath, useRouteBreadcrumbs } from "../../lib/page-context.ts";
import { NotFoundPage } from "../not-found/not-found-page.tsx";

/** Articles with this many sections or more get a table of contents. */
const TOC_MIN_SECTIONS = 4;

// No id on this page starts with "section-": the headings of the article body own that start
// (server/content/render-markdown.ts), so they can never clash with the ids here.
export function ArticlePage({ params }: { params: { slug?: string } }) {
  const article = usePageData<ArticleDetail>(articleApiPath(params.slug ?? ""));
  const path = usePath();
  const breadcrumbs = useRouteBreadcrumbs();

  // The server could not load it (an unknown article never gets here: it is a 404).
  if (article.isError) {
    return (
      <div role="alert" className="container-page py-32 text-center">
        <h1 className="text-2xl font-bold text-navy-900">Unable to Load Article</h1>
        <p className="mt-2 text-slate-600">Please try again later.</p>
        <a href={path} className="btn-primary mt-6">
          Try Again
        </a>
      </div>
    );
  }
  if (!article.data) return <NotFoundPage />;

  const post = article.data;
  const sections = post.headings.filter((heading) => heading.level === 2);
  return (
    <>
      <article aria-labelledby="article-title">
        <header className="relative overflow-hidden bg-navy-900 text-white">
          <div aria-hidden="true" className="hero-grid absolute inset-0 opacity-40" />
          <div className="container-page relative max-w-4xl py-12 sm:py-16">
            {breadcrumbs ? <Breadcrumbs items={breadcrumbs} /> : null}
            <div className="mt-6">
              <CategoryBadge category={post.category} />
            </div>
            <h1 id="article-title" className="mt-4 text-3xl leading-tight font-bold tracking-tight sm:text-5xl">
              {post.title}
            </h1>
            <p className="mt-4 text-lg text-slate-200">{post.excerpt}</p>
            <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-200">
              <li className="flex items-center gap-1.5">
                <CalendarDays aria-hidden="true" className="size-4" />
                <time dateTime={post.publishedAt}>{formatLongDate(post.publishedAt)}</time>
              </li>
              <li className="flex items-center gap-1.5">
                <Clock aria-hidden="true" className="size-4" />
                {post.readingMinutes} min read
              </li>
              {post.authorName ? (
                <li className="flex items-center gap-1.5">
                  <UserRound aria-hidden="true" className="size-4" />
                  <span>
                    By{" "}
                    <a
                      href={`${paths.about}#${teamAnchor(post.authorName)}`}
                      className="font-semibold text-white underline underline-offset-4"
                    >
                      {post.authorName}
                    </a>
                  </span>
                </li>
              ) : null}
            </ul>
          </div>
        </header>

        <div className="container-page max-w-4xl py-12">
          {/* The cover's alt text when the article has one, else the library's; without either it
              is decorative. The page's largest picture above the fold. A draft seen through a
              preview link may have no cover yet (then nothing is drawn). */}
          <ResponsiveImage
            image={post.image}
            sizes={ARTICLE_SIZES}
            alt={post.imageAlt || post.image?.alt || ""}
            fallbackSrc={post.imageUrl}
            fallbackWidth={1200}
            fallbackHeight={675}
            priority
            className="aspect-video w-full rounded-xl bg-slate-100 object-cover"
          />
          {sections.length >= TOC_MIN_SECTIONS ? (
            <nav aria-labelledby="toc-heading" className="mt-10 rounded-xl border border-slate-200 bg-paper p-6">
              <h2 id="toc-heading" className="text-sm font-semibold tracking-wider text-navy-900 uppercase">
                In this article
              </h2>
              <ol className="mt-3 list-decimal space-y-1.5 pl-5 text-brand-700">
                {sections.map((heading) => (
                  <li key={heading.id}>
                    <a href={`#${heading.id}`} className="hover:underline">
                      {heading.text}
                    </a>
                  </li>
                ))}
              </ol>
            </nav>
          ) : null}
          <div className="article-body mt-10" dangerouslySetInnerHTML={{ __html: post.contentHtml }} />
          <p className="mt-12">
            <a
              href={paths.blog}
              className="inline-flex items-center gap-2 font-semibold text-brand-700 hover:underline"
            >
              <ArrowLeft aria-hidden="true" className="size-4" /> Back to Insights
            </a>
          </p>
        </div>
      </article>

      {post.related.length ? (
        <section aria-labelledby="related-heading" className="bg-paper py-16">
          <div className="container-page">
            <h2 id="related-heading" className="section-title">
              Related Articles
            </h2>
            <ul className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {post.related.map((related) => (
                <li key={related.slug}>
                  <PostCard post={related} />
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}

      <CtaBand
        title="Need this analysed for your system?"
        actions={
          <a href={paths.contact} className="btn-accent">
            Request Consultation
          </a>
        }
      >
        Our engineers run these studies every week. Tell us about your network and we will reply within 24 hours.
      </CtaBand>
    </>
  );
}
