import {
  Activity,
  ArrowRight,
  Cable,
  Eye,
  Gauge,
  LayoutGrid,
  ScrollText,
  ShieldCheck,
  SunMedium,
  Target,
} from "lucide-react";
import { paths } from "#shared/paths.ts";
import { limits, stats } from "#shared/site.ts";
import { useBlogPosts, useProjects, useTeamMembers, useTestimonials } from "../../api/queries.ts";
import { mission, vision } from "../../components/firm-statements.ts";
import { PostCard } from "../../components/post-card.tsx";
import { ProjectCard } from "../../components/project-card.tsx";
import { StatRow } from "../../components/stat-row.tsx";
import { TeamCard } from "../../components/team-card.tsx";
import { ClientLogoRow, TestimonialFigure } from "../../components/testimonials.tsx";

const coreServices = [
  {
    title: "Grid Integration",
    Icon: Cable,
    text: "Connectivity studies, reactive power capability and grid-code compliance for plants connecting at 33 kV to 400 kV.",
  },
  {
    title: "Renewable Energy Solutions",
    Icon: SunMedium,
    text: "Solar, wind, hybrid and battery storage: plant design reviews, yield-critical electrical studies and model validation.",
  },
  {
    title: "System Design",
    Icon: LayoutGrid,
    text: "Single-line diagrams, equipment sizing, earthing and protection schemes for substations and industrial networks.",
  },
  {
    title: "Reliability Analysis",
    Icon: Activity,
    text: "N-1 contingency, failure-mode and availability studies that show where an outage will start and how to stop it.",
  },
  {
    title: "Regulatory Compliance",
    Icon: ScrollText,
    text: "CEA, CERC and GERC requirements, IEEE 519 harmonic limits and IEEE 1584 arc-flash labelling, documented for approval.",
  },
  {
    title: "Performance Optimization",
    Icon: Gauge,
    text: "Loss reduction, power-factor correction and voltage profile improvement backed by measured data, not rules of thumb.",
  },
] as const;

export function HomePage() {
  const team = useTeamMembers();
  const projects = useProjects();
  const posts = useBlogPosts();
  // Published, not in the trash, allowed on this website (src/server/content/testimonials.ts).
  const said = useTestimonials().data;

  return (
    <>
      <section className="relative overflow-hidden bg-navy-900 text-white">
        <div aria-hidden="true" className="hero-grid absolute inset-0 opacity-50" />
        <div className="container-page relative grid items-center gap-12 py-20 lg:grid-cols-2 lg:py-28">
          <div>
            <p className="text-sm font-semibold tracking-wider text-amber-accent uppercase">Power Systems Consulting</p>
            <h1 className="mt-4 text-4xl leading-tight font-bold tracking-tight sm:text-5xl">
              Power-system engineering you can build on
            </h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-slate-200">
              Grid integration, renewable energy, system design, reliability analysis, regulatory compliance and
              performance optimization for utilities, developers, industry and commercial buildings, from our
              engineering office in Ahmedabad.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <a href={paths.contact} className="btn-accent">
                Request Consultation
              </a>
              <a href={paths.services} className="btn-outline-light">
                View Our Services
              </a>
            </div>
          </div>
          <img
            src="/images/hero-substation.svg"
            alt="Illustration of a substation feeding a solar park and a wind farm into the transmission grid"
            width={640}
            height={480}
            fetchPriority="high"
            className="hidden w-full rounded-2xl lg:block"
          />
        </div>
      </section>

      <section aria-labelledby="services-heading" className="bg-paper py-20">
        <div className="container-page">
          <p className="eyebrow">What we do</p>
          <h2 id="services-heading" className="section-title mt-2">
            Core Services
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {coreServices.map(({ title, Icon, text }) => (
              <li key={title}>
                <a
                  href={paths.services}
                  className="card group flex h-full flex-col p-6 transition-shadow hover:shadow-md"
                >
                  <span className="flex size-12 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                    <Icon aria-hidden="true" className="size-6" />
                  </span>
                  <h3 className="mt-4 text-lg font-bold text-navy-900 group-hover:text-brand-700">{title}</h3>
                  <p className="mt-2 flex-1 text-sm leading-6 text-slate-600">{text}</p>
                  <span className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-brand-700">
                    Learn more <ArrowRight aria-hidden="true" className="size-4" />
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="about-heading" className="py-20">
        <div className="container-page grid gap-12 lg:grid-cols-2">
          <div>
            <p className="eyebrow">About us</p>
            <h2 id="about-heading" className="section-title mt-2">
              Fifteen years of studies behind every recommendation
            </h2>
            <div className="mt-8 space-y-6">
              <div className="flex gap-4">
                <Target aria-hidden="true" className="mt-1 size-6 shrink-0 text-brand-700" />
                <div>
                  <h3 className="text-lg font-bold text-navy-900">Our Mission</h3>
                  <p className="mt-1 leading-7 text-slate-600">{mission}</p>
                </div>
              </div>
              <div className="flex gap-4">
                <Eye aria-hidden="true" className="mt-1 size-6 shrink-0 text-brand-700" />
                <div>
                  <h3 className="text-lg font-bold text-navy-900">Our Vision</h3>
                  <p className="mt-1 leading-7 text-slate-600">{vision}</p>
                </div>
              </div>
            </div>
            <a href={paths.about} className="btn-outline mt-8">
              More about us
            </a>
          </div>
          <div className="self-center">
            <StatRow stats={stats} columns={2} />
          </div>
        </div>
      </section>

      <section aria-labelledby="team-heading" className="bg-paper py-20">
        <div className="container-page">
          <p className="eyebrow">Our people</p>
          <h2 id="team-heading" className="section-title mt-2">
            Meet Our Leadership
          </h2>
          {team.data ? (
            <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {team.data.slice(0, limits.homeTeamMembers).map((member) => (
                <li key={member.id}>
                  <TeamCard member={member} />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="projects-heading" className="py-20">
        <div className="container-page">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <p className="eyebrow">Our work</p>
              <h2 id="projects-heading" className="section-title mt-2">
                Featured Projects
              </h2>
            </div>
            <a
              href={paths.projects}
              className="inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline"
            >
              All projects <ArrowRight aria-hidden="true" className="size-4" />
            </a>
          </div>
          {projects.data ? (
            <ul className="mt-10 grid gap-6 lg:grid-cols-2">
              {projects.data.slice(0, limits.homeProjects).map((project) => (
                <li key={project.id}>
                  <ProjectCard project={project} wide />
                </li>
              ))}
            </ul>
          ) : null}
          <div className="mt-10 text-center">
            <a href={paths.projects} className="btn-primary">
              View All Projects
            </a>
          </div>
        </div>
      </section>

      {said?.testimonials.length ? (
        <section aria-labelledby="testimonials-heading" className="bg-navy-900 py-20 text-white">
          <div className="container-page">
            <p className="text-sm font-semibold tracking-wider text-amber-accent uppercase">Testimonials</p>
            <h2 id="testimonials-heading" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
              What Our Clients Say
            </h2>
            <ul className="mt-10 grid gap-6 lg:grid-cols-3">
              {said.testimonials.map((testimonial) => (
                <li key={testimonial.id}>
                  <TestimonialFigure testimonial={testimonial} tone="dark" stars />
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}

      <ClientLogoRow logos={said?.clientLogos ?? []} />

      <section aria-labelledby="insights-heading" className="py-20">
        <div className="container-page">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <p className="eyebrow">Insights</p>
              <h2 id="insights-heading" className="section-title mt-2">
                Industry Insights
              </h2>
            </div>
            <a
              href={paths.blog}
              className="inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline"
            >
              All articles <ArrowRight aria-hidden="true" className="size-4" />
            </a>
          </div>
          {posts.data ? (
            <ul className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {posts.data.slice(0, limits.homeBlogPosts).map((post) => (
                <li key={post.id}>
                  <PostCard post={post} />
                </li>
              ))}
            </ul>
          ) : null}
          <div className="mt-10 text-center">
            <a href={paths.blog} className="btn-primary">
              View All Articles
            </a>
          </div>
        </div>
      </section>

      <section className="bg-paper py-16">
        <div className="container-page flex flex-col items-start gap-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-3 text-lg font-semibold text-navy-900">
            <ShieldCheck aria-hidden="true" className="size-6 text-green-700" />
            24/7 emergency support for critical infrastructure projects.
          </p>
          <a href={paths.contact} className="btn-primary">
            Talk to an engineer
          </a>
        </div>
      </section>
    </>
  );
}
