import { ArrowRight, CalendarDays, Clock, Gauge } from "lucide-react";
import type { Project } from "#shared/api-types.ts";
import { PROJECT_CARD_SIZES, PROJECT_CARD_WIDE_SIZES } from "#shared/image-sizes.ts";
import { projectPath } from "#shared/paths.ts";
import { CategoryBadge } from "./category-badge.tsx";
import { ResponsiveImage } from "./responsive-image.tsx";

/** Year, capacity and timeline, each only when the project has it. */
export function ProjectFacts({ project, className = "" }: { project: Project; className?: string }) {
  const facts = [
    { label: "Year", value: project.year, Icon: CalendarDays },
    { label: "Capacity", value: project.capacity, Icon: Gauge },
    { label: "Timeline", value: project.timeline, Icon: Clock },
  ].filter((fact) => fact.value);
  return (
    <dl className={`grid gap-3 text-sm sm:grid-cols-3 ${className}`}>
      {facts.map(({ label, value, Icon }) => (
        <div key={label}>
          <dt className="flex items-center gap-1.5 text-xs font-semibold tracking-wider text-slate-600 uppercase">
            <Icon aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
            {label}
          </dt>
          <dd className="mt-0.5 pl-5.5 text-slate-800">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ProjectCard({
  project,
  headingLevel = 3,
  wide = false,
  priority = false,
}: {
  project: Project;
  headingLevel?: 2 | 3;
  /** The card is in a grid of two to a row from lg (the home page), not from md. */
  wide?: boolean;
  /** The card's picture is the largest above the fold of its page. */
  priority?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const titleId = `project-${project.slug}`;
  return (
    <article className="card flex h-full flex-col overflow-hidden" aria-labelledby={titleId}>
      {/* The card's title names what the picture shows: here it is decorative. */}
      <ResponsiveImage
        image={project.image}
        sizes={wide ? PROJECT_CARD_WIDE_SIZES : PROJECT_CARD_SIZES}
        alt=""
        fallbackSrc={project.imageUrl}
        fallbackWidth={1200}
        fallbackHeight={675}
        priority={priority}
        className="aspect-video w-full bg-slate-100 object-cover"
      />
      <div className="flex flex-1 flex-col p-6">
        {/* In this flex column the badge would stretch across the card: it keeps its own width. */}
        <CategoryBadge category={project.category} className="self-start" />
        <Heading id={titleId} className="mt-3 text-xl leading-snug font-bold text-navy-900">
          {project.title}
        </Heading>
        <div className="mt-2 flex-1">
          <p className="line-clamp-4 text-sm leading-6 text-slate-600">{project.description}</p>
        </div>
        <ProjectFacts project={project} className="mt-5 border-t border-slate-200 pt-4" />
        <a
          href={projectPath(project.slug)}
          className="mt-5 inline-flex items-center gap-1.5 self-start text-sm font-semibold text-brand-700 hover:underline"
          aria-describedby={titleId}
        >
          View Project <ArrowRight aria-hidden="true" className="size-4" />
        </a>
      </div>
    </article>
  );
}
