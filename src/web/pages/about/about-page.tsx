import { Award, Eye, Lightbulb, Target, Users } from "lucide-react";
import { paths } from "#shared/paths.ts";
import { site, stats } from "#shared/site.ts";
import { useTeamMembers } from "../../api/queries.ts";
import { CertificationList } from "../../components/certifications.tsx";
import { CtaBand } from "../../components/cta-band.tsx";
import { mission, vision } from "../../components/firm-statements.ts";
import { PageHero } from "../../components/page-hero.tsx";
import { useRouteBreadcrumbs } from "../../lib/page-context.ts";
import { StatRow } from "../../components/stat-row.tsx";
import { TeamCard } from "../../components/team-card.tsx";

const values = [
  {
    title: "Excellence",
    Icon: Award,
    text: "Every model is validated against field data or test reports before we draw conclusions from it, and every report is checked by a second senior engineer.",
  },
  {
    title: "Collaboration",
    Icon: Users,
    text: "We work beside your operations and design teams, explain our assumptions, and stay available after the report for the relay engineer on site at midnight.",
  },
  {
    title: "Innovation",
    Icon: Lightbulb,
    text: "From EMT models of inverter-based plants to IEC 61850 digital substations, we adopt new methods when they make a system safer or a study more accurate.",
  },
] as const;

export function AboutPage() {
  const team = useTeamMembers();
  return (
    <>
      <PageHero eyebrow="About Us" title="Engineers of reliable power systems" breadcrumbs={useRouteBreadcrumbs()}>
        <p>
          {site.name} is an independent power-systems consultancy in Ahmedabad. Since {site.foundedYear} our engineers
          have studied, designed and commissioned electrical systems for utilities, renewable developers, industrial
          plants and commercial buildings across India.
        </p>
      </PageHero>

      <section aria-labelledby="story-heading" className="py-20">
        <div className="container-page grid gap-12 lg:grid-cols-2">
          <div>
            <p className="eyebrow">Our story</p>
            <h2 id="story-heading" className="section-title mt-2">
              From relay settings to gigawatts of renewables
            </h2>
          </div>
          <div className="space-y-5 leading-7 text-slate-600">
            <p>
              We began as three protection engineers setting relays for textile mills and chemical plants around
              Ahmedabad and Vadodara. Plants called us when breakers tripped for no clear reason; we found
              miscoordinated relays, undersized earthing and harmonics no one had measured.
            </p>
            <p>
              As Gujarat became one of India&apos;s largest renewable markets, developers needed engineers who could
              prove to the transmission utility that a solar park would hold its voltage, ride through faults and keep
              harmonics within limits. We built that practice around validated models in PSS®E, PSCAD and PowerFactory.
            </p>
            <p>
              Today more than 25 engineers deliver load flow, short circuit, protection, arc flash, power quality,
              stability and grid-code studies, from 11 kV factory networks to 400 kV pooling substations, with the same
              care we gave our first relay setting.
            </p>
          </div>
        </div>
      </section>

      <section aria-labelledby="purpose-heading" className="bg-paper py-20">
        <div className="container-page">
          <h2 id="purpose-heading" className="sr-only">
            Mission and vision
          </h2>
          <div className="grid gap-6 lg:grid-cols-2">
            <div className="card p-8">
              <Target aria-hidden="true" className="size-8 text-brand-700" />
              <h3 className="mt-4 text-2xl font-bold text-navy-900">Our Mission</h3>
              <p className="mt-3 leading-7 text-slate-600">{mission}</p>
            </div>
            <div className="card p-8">
              <Eye aria-hidden="true" className="size-8 text-brand-700" />
              <h3 className="mt-4 text-2xl font-bold text-navy-900">Our Vision</h3>
              <p className="mt-3 leading-7 text-slate-600">{vision}</p>
            </div>
          </div>
          <div className="mt-12">
            <StatRow stats={stats} />
          </div>
        </div>
      </section>

      <section aria-labelledby="values-heading" className="py-20">
        <div className="container-page">
          <p className="eyebrow">What we stand for</p>
          <h2 id="values-heading" className="section-title mt-2">
            Our Values
          </h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {values.map(({ title, Icon, text }) => (
              <li key={title} className="card p-6">
                <span className="flex size-12 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <Icon aria-hidden="true" className="size-6" />
                </span>
                <h3 className="mt-4 text-xl font-bold text-navy-900">{title}</h3>
                <p className="mt-2 leading-7 text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="team-heading" className="bg-paper py-20">
        <div className="container-page">
          <p className="eyebrow">Our people</p>
          <h2 id="team-heading" className="section-title mt-2">
            Our Team
          </h2>
          {team.data ? (
            <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {team.data.map((member) => (
                <li key={member.id}>
                  <TeamCard member={member} fourToARow />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="certifications-heading" className="py-20">
        <div className="container-page">
          <p className="eyebrow">Credentials</p>
          <h2 id="certifications-heading" className="section-title mt-2">
            Certifications &amp; Partnerships
          </h2>
          <div className="mt-10">
            <CertificationList />
          </div>
        </div>
      </section>

      <CtaBand
        title="Work with our engineers"
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
        Tell us about your network, plant or project and a senior engineer will reply within 24 hours.
      </CtaBand>
    </>
  );
}
