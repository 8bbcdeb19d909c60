import { CircleCheck, ClipboardCheck, FileText, Search, Settings } from "lucide-react";
import { paths } from "#shared/paths.ts";
import { CtaBand } from "../../components/cta-band.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { useRouteBreadcrumbs } from "../../lib/page-context.ts";
import { powerSystemStudies, studyGroups } from "#shared/content/power-system-studies.ts";
import { serviceAnchor, serviceSlug } from "#shared/content/testimonials.ts";
import { useTestimonials } from "../../api/queries.ts";
import { TestimonialList } from "../../components/testimonials.tsx";

const workSteps = [
  {
    title: "Data collection and site survey",
    Icon: Search,
    text: "Single-line diagrams, nameplates, relay settings and, where it matters, measurements on site.",
  },
  {
    title: "Modelling and validation",
    Icon: Settings,
    text: "A network model in ETAP, PSS®E, PowerFactory or PSCAD, checked against recorded operating data.",
  },
  {
    title: "Analysis and recommendations",
    Icon: ClipboardCheck,
    text: "Every case the standards and your operation require, with findings ranked by risk and cost.",
  },
  {
    title: "Report, review and support",
    Icon: FileText,
    text: "A report a utility or auditor accepts, a review meeting, and support through implementation.",
  },
];

export function ServicesPage() {
  const said = useTestimonials().data?.testimonials ?? [];
  return (
    <>
      <PageHero eyebrow="Services" title="Power System Studies" breadcrumbs={useRouteBreadcrumbs()}>
        <p>
          {powerSystemStudies.length} studies that show how your network behaves in normal operation, under fault and
          through disturbances, modelled in ETAP, PSS®E, DIgSILENT PowerFactory and PSCAD from validated data, and
          written up for the utility, the insurer and the engineers who operate it.
        </p>
      </PageHero>

      {studyGroups.map((group, index) => {
        const studies = powerSystemStudies.filter((study) => study.group === group);
        // The group's section: where the site search's results and a testimonial's service point.
        const id = serviceAnchor(group);
        const slug = serviceSlug(group);
        return (
          <section key={group} aria-labelledby={id} className={index % 2 ? "bg-paper py-14" : "py-14"}>
            <div className="container-page">
              <h2 id={id} className="text-2xl font-bold text-navy-900 sm:text-3xl">
                {group}
              </h2>
              <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
                {studies.map((study) => (
                  <li key={study.name} className="card flex gap-3 p-5">
                    <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-green-700" />
                    <div>
                      <h3 className="font-bold text-navy-900">{study.name}</h3>
                      <p className="mt-1 text-sm leading-6 text-slate-600">{study.description}</p>
                    </div>
                  </li>
                ))}
              </ul>
              <TestimonialList
                headingId={`${id}-testimonials`}
                testimonials={said.filter((testimonial) => testimonial.services.includes(slug))}
              />
            </div>
          </section>
        );
      })}

      <section aria-labelledby="process-heading" className="py-16">
        <div className="container-page">
          <p className="eyebrow">How we work</p>
          <h2 id="process-heading" className="section-title mt-2">
            From data to decisions
          </h2>
          <ol className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-4">
            {workSteps.map(({ title, Icon, text }, index) => (
              <li key={title} className="card p-6">
                <span className="flex size-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <h3 className="mt-4 font-bold text-navy-900">
                  <span className="text-brand-700">{index + 1}. </span>
                  {title}
                </h3>
                <p className="mt-2 text-sm leading-6 text-slate-600">{text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <CtaBand
        title="Not sure which study you need?"
        actions={
          <>
            <a href={paths.contact} className="btn-accent">
              Schedule Consultation
            </a>
            <a href={paths.projects} className="btn-outline-light">
              View Our Work
            </a>
          </>
        }
      >
        Send us your single-line diagram and the question you need answered; we will propose the studies and the data
        they need.
      </CtaBand>
    </>
  );
}
