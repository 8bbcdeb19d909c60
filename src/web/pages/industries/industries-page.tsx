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
import { paths } from "#shared/paths.ts";
import { CtaBand } from "../../components/cta-band.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import { StatRow } from "../../components/stat-row.tsx";
import { useRouteBreadcrumbs } from "../../lib/page-context.ts";

const industryStats = [
  { value: "50+", label: "Utility Partners" },
  { value: "2GW+", label: "Renewable Capacity" },
  { value: "100+", label: "Industrial Projects" },
  { value: "500+", label: "Commercial Clients" },
] as const;

const industries = [
  {
    name: "Utilities",
    Icon: TowerControl,
    description:
      "Transmission and distribution utilities bring us their planning, protection and compliance work: from 11 kV feeders to 400 kV substations, we study networks as the operator sees them, with real loads, real settings and the contingencies that keep control rooms awake.",
    services: [
      "Transmission planning and N-1 contingency studies",
      "Protection audits and relay setting reviews",
      "Distribution loss reduction and feeder reconfiguration",
      "IEC 61850 substation automation",
      "Earthing and insulation coordination",
    ],
    projects: [
      "220/66 kV Substation Protection Audit, North Gujarat",
      "Distribution Loss Reduction for an Urban DISCOM",
      "132 kV Substation IEC 61850 Retrofit, Central Gujarat",
    ],
  },
  {
    name: "Renewables",
    Icon: SunMedium,
    description:
      "Solar, wind, hybrid and storage developers need a connection the transmission utility will approve and a plant that behaves as modelled. We carry projects from connectivity application to commissioning tests and model validation.",
    services: [
      "Connectivity and grid-code compliance studies",
      "Reactive power capability and plant controller studies",
      "Fault ride-through with validated RMS and EMT models",
      "Collector system and pooling substation design",
      "Battery storage sizing and integration",
    ],
    projects: [
      "300 MW Solar Park Grid Connection, Kutch",
      "Wind-Solar Hybrid Plant Integration, Rajasthan",
      "40 MWh Battery Storage for a Data Centre Campus",
    ],
  },
  {
    name: "Industrial",
    Icon: Factory,
    description:
      "Chemical, cement, steel, pharmaceutical and textile plants run on networks that have grown over decades. We find why drives trip and breakers fail, make the network safe to work on, and size it for the next expansion.",
    services: [
      "Arc flash studies and labelling to IEEE 1584-2018",
      "Relay coordination, including captive generation",
      "Harmonic measurement and filter design to IEEE 519",
      "Motor starting and transient stability",
      "Power factor correction and energy audits",
    ],
    projects: [
      "Arc Flash and Relay Coordination, Chemical Complex, Dahej",
      "Harmonic Mitigation for a Cement Plant, Saurashtra",
      "Captive Solar Protection Review, Textile Mill, Ahmedabad",
    ],
  },
  {
    name: "Commercial",
    Icon: Building2,
    description:
      "Hospitals, data centres, IT parks and malls cannot afford an outage. We design and review their supply so that a single fault never takes down critical load, and cut their demand charges where the tariff rewards it.",
    services: [
      "Reliability analysis of supply and standby schemes",
      "Generator, UPS and transfer scheme design",
      "Battery storage for peak shaving",
      "Power quality for sensitive loads",
      "Electrical design review for new buildings",
    ],
    projects: [
      "Power Resilience Design for a 600-Bed Hospital, Ahmedabad",
      "Peak Demand Reduction for an IT Park, Gandhinagar",
      "Power Quality Survey for a Tier III Data Centre",
    ],
  },
] as const;

const crossIndustry = [
  {
    title: "Power Quality & Harmonics",
    Icon: Waves,
    text: "Measurement to IEC 61000-4-30 and filters that meet IEEE 519 at the point of common coupling.",
  },
  {
    title: "Protection & Arc Flash Safety",
    Icon: ShieldCheck,
    text: "Selective, fast protection that lowers incident energy where people work.",
  },
  {
    title: "Grid Code & Regulatory Compliance",
    Icon: ScrollText,
    text: "CEA connectivity standards, CERC and GERC regulations, documented for approval.",
  },
  {
    title: "Digital Substations",
    Icon: Cpu,
    text: "IEC 61850 engineering, testing and cyber-secure substation networks.",
  },
  {
    title: "Energy Storage",
    Icon: BatteryCharging,
    text: "Battery sizing, protection and controls for peak shaving, firming and backup.",
  },
  {
    title: "Asset Performance",
    Icon: Gauge,
    text: "Loss reduction, loading studies and condition-based plans for ageing equipment.",
  },
] as const;

export function IndustriesPage() {
  return (
    <>
      <PageHero eyebrow="Industries" title="Industries We Serve" breadcrumbs={useRouteBreadcrumbs()}>
        <p>
          The same physics in four very different businesses. Each has its own regulations, risks and ways of working,
          and our engineers have spent years in each.
        </p>
      </PageHero>

      {industries.map(({ name, Icon, description, services, projects }, index) => {
        const headingId = `industry-${name.toLowerCase()}`;
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
