import { paths } from "#shared/paths.ts";
import { useProjects } from "../../api/queries.ts";
import { CategoryFilter } from "../../components/category-filter.tsx";
import { CtaBand } from "../../components/cta-band.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { ProjectCard } from "../../components/project-card.tsx";
import { useRouteBreadcrumbs, useSearch } from "../../lib/page-context.ts";

const ALL = "All";

export function ProjectsPage() {
  const projects = useProjects();
  const category = new URLSearchParams(useSearch()).get("category") || ALL;
  const shown = projects.data?.filter((project) => category === ALL || project.category === category);
  const categories = [ALL, ...new Set(projects.data?.map((project) => project.category))];
  const hrefFor = (name: string) =>
    name === ALL ? paths.projects : `${paths.projects}?${new URLSearchParams({ category: name })}`;

  return (
    <>
      <PageHero eyebrow="Our Work" title="Projects" breadcrumbs={useRouteBreadcrumbs()}>
        <p>
          Grid connections, substations, protection and power-quality work for utilities, renewable developers,
          industrial plants and commercial buildings.
        </p>
      </PageHero>
      <section aria-labelledby="projects-list-heading" className="bg-paper py-16">
        <div className="container-page">
          {projects.data ? (
            <>
              <CategoryFilter
                categories={categories}
                active={category}
                hrefFor={hrefFor}
                label="Filter projects by category"
              />
              <h2 id="projects-list-heading" className="mt-8 text-2xl font-bold text-navy-900" aria-live="polite">
                {category === ALL ? `All Projects (${shown?.length ?? 0})` : `${category} (${shown?.length ?? 0})`}
              </h2>
              <ul className="mt-8 grid gap-6 md:grid-cols-2">
                {shown?.map((project, index) => (
                  <li key={project.id}>
                    {/* The first card's picture is the page's largest above the fold on most screens. */}
                    <ProjectCard project={project} priority={index === 0} />
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <h2 id="projects-list-heading" className="sr-only">
              Projects
            </h2>
          )}
        </div>
      </section>
      <CtaBand
        title="Planning a project like these?"
        actions={
          <>
            <a href={paths.contact} className="btn-accent">
              Discuss Your Project
            </a>
            <a href={paths.services} className="btn-outline-light">
              View Our Services
            </a>
          </>
        }
      >
        Share your single-line diagram and we will tell you which studies it needs.
      </CtaBand>
    </>
  );
}
