import { Mail, Phone, Zap } from "lucide-react";
import { companyDataKey, type CompanyDetails } from "#shared/company.ts";
import { paths } from "#shared/paths.ts";
import { site } from "#shared/site.ts";
import { usePageValue } from "../lib/page-context.ts";

// SPEC section 2, footer: four columns. Entries the spec calls placeholders have no destination
// yet, so they are plain text rather than links that go nowhere.

type FooterEntry = { label: string; href?: string };

const footerColumns: { title: string; entries: FooterEntry[] }[] = [
  {
    title: "Services",
    entries: [
      { label: "Grid Integration", href: paths.services },
      { label: "Renewable Energy", href: paths.services },
      { label: "System Design", href: paths.services },
      { label: "Reliability Analysis", href: paths.services },
      { label: "Regulatory Compliance", href: paths.services },
    ],
  },
  {
    title: "Company",
    entries: [
      { label: "About Us", href: paths.about },
      { label: "Projects", href: paths.projects },
      { label: "Insights", href: paths.blog },
      { label: "Contact", href: paths.contact },
      { label: "Careers" },
    ],
  },
  {
    title: "Resources",
    entries: [
      { label: "Whitepapers" },
      { label: "Case Studies" },
      { label: "Technical Resources" },
      { label: "Industry News" },
      { label: "Regulatory Updates" },
    ],
  },
];

const socialPlaceholders = [
  { label: "LinkedIn", mark: "in" },
  { label: "X (Twitter)", mark: "X" },
  { label: "YouTube", mark: "YT" },
];

const legalLinks = [
  { label: "Privacy Policy", href: paths.privacy },
  { label: "Terms of Service", href: paths.terms },
  { label: "Cookie Policy", href: paths.cookies },
];

/**
 * The company's statutory details, those configured (COMPANY_*): its name, Corporate Identity
 * Number, GSTIN and registered office, which an Indian company's website must show.
 */
function CompanyLine() {
  const company = usePageValue<CompanyDetails>(companyDataKey);
  const parts = [
    company?.legalName,
    company?.cin && `CIN ${company.cin}`,
    company?.gstin && `GSTIN ${company.gstin}`,
    company?.registeredOffice && `Registered office: ${company.registeredOffice}`,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  return <p className="text-xs leading-5 text-slate-400">{parts.join(" · ")}</p>;
}

export function SiteFooter() {
  return (
    <footer id="site-footer" className="bg-navy-950 text-slate-300">
      <div className="container-page grid gap-10 py-14 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="flex items-center gap-2 text-white">
            <span className="flex size-9 items-center justify-center rounded-lg bg-white/10 text-amber-accent">
              <Zap aria-hidden="true" className="size-5" />
            </span>
            <span className="text-lg font-bold">{site.name}</span>
          </p>
          <p className="mt-4 text-sm leading-6">
            Independent power-system studies, grid integration and protection engineering for utilities, renewable
            developers, industry and commercial buildings, from our office in Ahmedabad.
          </p>
          <ul className="mt-4 space-y-2 text-sm">
            <li className="flex items-center gap-2">
              <Phone aria-hidden="true" className="size-4 text-amber-accent" />
              <a className="whitespace-nowrap hover:text-white" href={site.phoneHref}>
                {site.phone}
              </a>
            </li>
            <li className="flex items-center gap-2">
              <Mail aria-hidden="true" className="size-4 text-amber-accent" />
              <a className="hover:text-white" href={`mailto:${site.email}`}>
                {site.email}
              </a>
            </li>
          </ul>
          <ul className="mt-5 flex gap-3" aria-label="Social media (profiles coming soon)">
            {socialPlaceholders.map(({ label, mark }) => (
              <li key={label}>
                <span
                  className="flex size-9 items-center justify-center rounded-full bg-white/10 text-xs font-bold text-slate-200"
                  title={`${label}: coming soon`}
                >
                  <span aria-hidden="true">{mark}</span>
                  <span className="sr-only">{label} (coming soon)</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        {footerColumns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="text-sm font-semibold tracking-wider text-white uppercase">{column.title}</h2>
            <ul className="mt-4 space-y-2 text-sm">
              {column.entries.map((entry) => (
                <li key={entry.label}>
                  {entry.href ? (
                    <a className="hover:text-white hover:underline" href={entry.href}>
                      {entry.label}
                    </a>
                  ) : (
                    <span className="text-slate-400">
                      {entry.label} <span className="text-xs">(soon)</span>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10">
        <div className="container-page flex flex-col gap-3 py-6 text-sm sm:flex-row sm:items-center sm:justify-between">
          <div className="space-y-1">
            <p>
              © {site.copyrightYear} {site.name}. All rights reserved.
            </p>
            <CompanyLine />
          </div>
          <ul className="flex flex-wrap gap-x-5 gap-y-1">
            {legalLinks.map((link) => (
              <li key={link.href}>
                <a href={link.href} className="hover:text-white hover:underline">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
