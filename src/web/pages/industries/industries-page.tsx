import {
  BatteryCharging,
  Building2,
  Cpu,
  Factory,
  Gauge,
  ScrollText,
  ShieldCheck,
  SunMedium,
  TowerControl,
  Waves,
} from "lucide-react";
import {
  crossIndustry as crossIndustryTexts,
  industries as industryTexts,
  industryAnchor,
} from "#shared/content/industries.ts";
import { paths } from "#shared/paths.ts";
import { CtaBand } from "../../components/cta-band.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { StatRow } from "../../components/stat-row.tsx";
import { useRouteBreadcrumbs } from "../../lib/page-context.ts";
import { industrySlug } from "#shared/content/testimonials.ts";
import { useTestimonials } from "../../api/queries.ts";
import { TestimonialList } from "../../components/testimonials.tsx";

const industryStats = [
  { value: "50+", label: "Utility Partners" },
  { value: "2GW+", label: "Renewable Capacity" },
  { value: "100+", label: "Industrial Projects" },
  { value: "500+", label: "Commercial Clients" },
] as const;

const industryIcons = { Utilities: TowerControl, Renewables: SunMedium, Industrial: Factory, Commercial: Building2 };
const crossIndustryIcons = [Waves, ShieldCheck, ScrollText, Cpu, BatteryCharging, Gauge];
const industries = industryTexts.map((industry) => ({ ...industry, Icon: industryIcons[industry.name] }));
const crossIndustry = crossIndustryTexts.map((item, index) => ({ ...item, Icon: crossIndustryIcons[index]! }));

export function IndustriesPage() {
  const said = useTestimonials().data?.testimonials ?? [];
  return (
    <>
      <PageHero eyebrow="Industries" title="Industries We Serve" breadcrumbs={useRouteBreadcrumbs()}>
        <p>
          The same physics in four very different businesses. Each has its own regulations, risks and ways of working,
          and our engineers have spent years in each.
        </p>
      </PageHero>

      {industries.map(({ name, Icon, description, services, projects }, index) => {
        const headingId = industryAnchor(name);
        const slug = industrySlug(name);
        const quoted = said.filter((testimonial) => testimonial.industries.includes(slug));
        return (
          <section key={name} aria-labelledby={headingId} className={index % 2 ? "bg-paper py-16" : "py-16"}>
            <div className="container-page grid gap-10 lg:grid-cols-5">
              <div className="lg:col-span-2">
                <span className="flex size-14 items-center justify-center rounded-xl bg-navy-900 text-amber-accent">
                  <Icon aria-hidden="true" className="size-7" />
                </span>
                <h2 id={headingId} className="section-title mt-5">
                  {name}
                </h2>
                <p className="mt-4 leading-7 text-slate-600">{description}</p>
                <a href={paths.contact} className="btn-primary mt-6" aria-describedby={headingId}>
                  Discuss Your Project
                </a>
              </div>
              <div className="grid gap-6 sm:grid-cols-2 lg:col-span-3">
                <div className="card p-6">
                  <h3 className="font-bold text-navy-900">Key Services</h3>
                  <ul className="mt-3 list-disc space-y-2 pl-5 text-sm leading-6 text-slate-700 marker:text-brand-700">
                    {services.map((service) => (
                      <li key={service}>{service}</li>
                    ))}
                  </ul>
                </div>
                <div className="card p-6">
                  <h3 className="font-bold text-navy-900">Recent Projects</h3>
                  <ul className="mt-3 list-disc space-y-2 pl-5 text-sm leading-6 text-slate-700 marker:text-green-700">
                    {projects.map((project) => (
                      <li key={project}>{project}</li>
                    ))}
                  </ul>
                </div>
              </div>
              {quoted.length ? (
                <div className="lg:col-span-5">
                  <TestimonialList headingId={`${headingId}-testimonials`} testimonials={quoted} />
                </div>
              ) : null}
            </div>
          </section>
        );
      })}

      <section aria-label="Our work in numbers" className="py-12">
        <div className="container-page">
          <StatRow stats={industryStats} />
        </div>
      </section>

      <section aria-labelledby="cross-heading" className="bg-paper py-16">
        <div className="container-page">
          <p className="eyebrow">Across every sector</p>
          <h2 id="cross-heading" className="section-title mt-2">
            Cross-Industry Expertise
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {crossIndustry.map(({ title, Icon, text }) => (
              <li key={title} className="card p-6">
                <Icon aria-hidden="true" className="size-7 text-brand-700" />
                <h3 className="mt-3 font-bold text-navy-900">{title}</h3>
                <p className="mt-1 text-sm leading-6 text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <CtaBand
        title="Have a project in one of these sectors?"
        actions={
          <>
            <a href={paths.contact} className="btn-accent">
              Request Consultation
            </a>
            <a href={paths.projects} className="btn-outline-light">
              View Our Projects
            </a>
          </>
        }
      >
        Tell us what you are building or fixing; a senior engineer from that sector will reply within 24 hours.
      </CtaBand>
    </>
  );
}
