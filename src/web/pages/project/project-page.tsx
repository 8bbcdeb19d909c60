import { ArrowLeft } from "lucide-react";
import type { ProjectDetail } from "#shared/api-types.ts";
import { PROJECT_SIZES } from "#shared/image-sizes.ts";
import { paths, projectApiPath } from "#shared/paths.ts";
import { Breadcrumbs } from "../../components/breadcrumbs.tsx";
import { CategoryBadge } from "../../components/category-badge.tsx";
import { CtaBand } from "../../components/cta-band.tsx";
import { PostCard } from "../../components/post-card.tsx";
import { ProjectCard, ProjectFacts } from "../../components/project-card.tsx";
import { ResponsiveImage } from "../../components/responsive-image.tsx";
import { TestimonialList } from "../../components/testimonials.tsx";
import { useTestimonials } from "../../api/queries.ts";
import { usePageData, usePath, useRouteBreadcrumbs } from "../../lib/page-context.ts";
import { NotFoundPage } from "../not-found/not-found-page.tsx";

export function ProjectPage({ params }: { params: { slug?: string } }) {
  const detail = usePageData<ProjectDetail>(projectApiPath(params.slug ?? ""));
  const path = usePath();
  const breadcrumbs = useRouteBreadcrumbs();
  const said = useTestimonials().data;

  // The server could not load it (an unknown project never gets here: it is a 404).
  if (detail.isError) {
    return (
      <div role="alert" className="container-page py-32 text-center">
        <h1 className="text-2xl font-bold text-navy-900">Unable to Load Project</h1>
        <p className="mt-2 text-slate-600">Please try again later.</p>
        <a href={path} className="btn-primary mt-6">
          Try Again
        </a>
      </div>
    );
  }
  if (!detail.data) return <NotFoundPage />;

  const { project, relatedProjects, relatedArticles } = detail.data;
  return (
    <>
      <article aria-labelledby="project-title">
        <header className="relative overflow-hidden bg-navy-900 text-white">
          <div aria-hidden="true" className="hero-grid absolute inset-0 opacity-40" />
          <div className="container-page relative py-12 sm:py-16">
            {breadcrumbs ? <Breadcrumbs items={breadcrumbs} /> : null}
            <div className="mt-6">
              <CategoryBadge category={project.category} />
            </div>
            <h1
              id="project-title"
              className="mt-4 max-w-4xl text-3xl leading-tight font-bold tracking-tight sm:text-5xl"
            >
              {project.title}
            </h1>
          </div>
        </header>
        <div className="container-page grid gap-10 py-12 lg:grid-cols-5">
          {/* The page's largest picture above the fold, with the library's words for it. */}
          <ResponsiveImage
            image={project.image}
            sizes={PROJECT_SIZES}
            alt={project.image?.alt ?? ""}
            fallbackSrc={project.imageUrl}
            fallbackWidth={1200}
            fallbackHeight={675}
            priority
            className="aspect-video w-full rounded-xl bg-slate-100 object-cover"
            layoutClassName="self-start lg:col-span-3"
          />
          <div className="lg:col-span-2">
            <h2 className="text-xl font-bold text-navy-900">About the project</h2>
            <p className="mt-3 text-lg leading-8 text-slate-700">{project.description}</p>
            <ProjectFacts
              project={project}
              className="mt-8 rounded-xl border border-slate-200 bg-paper p-5 sm:grid-cols-1"
            />
            <a href={paths.contact} className="btn-primary mt-8">
              Discuss Your Project
            </a>
          </div>
        </div>
        <div className="container-page -mt-4 pb-8 empty:hidden">
          <TestimonialList
            headingId="project-testimonials-heading"
            testimonials={said?.testimonials.filter((testimonial) => testimonial.projectSlug === project.slug) ?? []}
          />
        </div>
        <p className="container-page pb-12">
          <a
            href={paths.projects}
            className="inline-flex items-center gap-2 font-semibold text-brand-700 hover:underline"
          >
            <ArrowLeft aria-hidden="true" className="size-4" /> All projects
          </a>
        </p>
      </article>

      {relatedProjects.length ? (
        <section aria-labelledby="related-projects-heading" className="bg-paper py-16">
          <div className="container-page">
            <h2 id="related-projects-heading" className="section-title">
              Related Projects
            </h2>
            <ul className="mt-8 grid gap-6 md:grid-cols-2">
              {relatedProjects.map((related) => (
                <li key={related.id}>
                  <ProjectCard project={related} />
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}

      {relatedArticles.length ? (
        <section aria-labelledby="related-articles-heading" className="py-16">
          <div className="container-page">
            <h2 id="related-articles-heading" className="section-title">
              Related Articles
            </h2>
            <ul className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {relatedArticles.map((post) => (
                <li key={post.id}>
                  <PostCard post={post} />
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}

      <CtaBand
        title="Have a similar project?"
        actions={
          <a href={paths.contact} className="btn-accent">
            Discuss Your Project
          </a>
        }
      >
        Tell us about the plant, network or connection and a senior engineer will reply within 24 hours.
      </CtaBand>
    </>
  );
}
