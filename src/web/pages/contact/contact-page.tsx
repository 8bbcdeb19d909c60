import { Clock, ExternalLink, Mail, MapPin, Phone, ShieldAlert } from "lucide-react";
import { businessHours, site } from "#shared/site.ts";
import { CertificationList } from "../../components/certifications.tsx";
import { PageHero } from "../../components/page-hero.tsx";
import type { FormFields } from "#shared/api-types.ts";
import { formStateKeys, type PostedFormState } from "#shared/page-rendering.ts";
import { apiPaths } from "#shared/paths.ts";
import { enquiryFormNotice } from "#shared/privacy-notice.ts";
import { retention, type StatedRetention } from "#shared/retention.ts";
import { FormNotice } from "../../components/form-notice.tsx";
import { Island } from "../../islands/island.tsx";
import { usePageData, usePageValue, useRouteBreadcrumbs } from "../../lib/page-context.ts";

const addressLines = [
  site.address.street,
  `${site.address.locality}, ${site.address.region} ${site.address.postalCode}`,
  site.address.country,
];
// The whole address, postcode included, so that the map service finds the building.
const mapQuery = encodeURIComponent(addressLines.join(", "));
const directions = [
  { label: "Google Maps", href: `https://www.google.com/maps/dir/?api=1&destination=${mapQuery}` },
  { label: "OpenStreetMap", href: `https://www.openstreetmap.org/search?query=${mapQuery}` },
];

export function ContactPage() {
  const notice = enquiryFormNotice(usePageData<StatedRetention>(apiPaths.retention).data ?? retention);
  return (
    <>
      <PageHero eyebrow="Contact Us" title="Get In Touch" breadcrumbs={useRouteBreadcrumbs()}>
        <p>
          Tell us about your substation, plant or project. A senior engineer reads every enquiry and replies within 24
          hours, with the questions we need answered to scope the work.
        </p>
      </PageHero>

      <section className="bg-paper py-16">
        <div className="container-page grid gap-8 lg:grid-cols-3">
          <div className="lg:col-span-2">
            {/* The form's box: the form (an island), then under its button the privacy notice's lines. */}
            <div className="card p-6 sm:p-8">
              <Island
                name="contactForm"
                props={{
                  fields: usePageData<FormFields>(apiPaths.formToken).data,
                  posted: usePageValue<PostedFormState>(formStateKeys.contact),
                  noticeVersion: notice.version,
                }}
              />
              <FormNotice id="enquiry-notice" notice={notice} className="mt-5" />
            </div>
          </div>
          <aside className="grid content-start gap-6" aria-label="Contact details">
            <section className="card p-6" aria-labelledby="contact-info-heading">
              <h2 id="contact-info-heading" className="text-lg font-bold text-navy-900">
                Contact Information
              </h2>
              <ul className="mt-4 space-y-4 text-sm">
                <li className="flex gap-3">
                  <MapPin aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
                  <address className="text-slate-700 not-italic">
                    {addressLines.map((line) => (
                      <span key={line} className="block">
                        {line}
                      </span>
                    ))}
                  </address>
                </li>
                <li className="flex gap-3">
                  <Phone aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
                  <a
                    href={site.phoneHref}
                    className="whitespace-nowrap text-slate-700 hover:text-brand-700 hover:underline"
                  >
                    {site.phone}
                  </a>
                </li>
                <li className="flex gap-3">
                  <Mail aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
                  <a
                    href={`mailto:${site.email}`}
                    className="break-all text-slate-700 hover:text-brand-700 hover:underline"
                  >
                    {site.email}
                  </a>
                </li>
              </ul>
            </section>

            <section className="card p-6" aria-labelledby="hours-heading">
              <h2 id="hours-heading" className="flex items-center gap-2 text-lg font-bold text-navy-900">
                <Clock aria-hidden="true" className="size-5 text-brand-700" /> Business Hours
              </h2>
              <dl className="mt-4 space-y-2 text-sm">
                {businessHours.map((entry) => (
                  <div key={entry.days} className="flex justify-between gap-4">
                    <dt className="text-slate-700">{entry.days}</dt>
                    <dd className="font-semibold text-navy-900">{entry.hours}</dd>
                  </div>
                ))}
              </dl>
              <p className="mt-4 flex gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
                <ShieldAlert aria-hidden="true" className="size-5 shrink-0" />
                24/7 emergency support is available for critical infrastructure projects.
              </p>
            </section>

            <section className="card p-6" aria-labelledby="certs-heading">
              <h2 id="certs-heading" className="text-lg font-bold text-navy-900">
                Certifications &amp; Partnerships
              </h2>
              <div className="mt-4">
                <CertificationList compact />
              </div>
            </section>
          </aside>
        </div>
      </section>

      <section aria-labelledby="office-heading" className="py-16">
        <div className="container-page grid items-center gap-10 lg:grid-cols-2">
          <div>
            <p className="eyebrow">Our office</p>
            <h2 id="office-heading" className="section-title mt-2">
              Visit Our Office
            </h2>
            <address className="mt-5 text-lg leading-8 text-slate-700 not-italic">
              {site.name}
              {addressLines.map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
            </address>
            <p className="mt-3 text-slate-600">Visits by appointment: please call or write before you come.</p>
            <ul className="mt-6 flex flex-wrap gap-3">
              {directions.map((link) => (
                <li key={link.label}>
                  <a href={link.href} target="_blank" rel="noopener noreferrer" className="btn-outline">
                    Get directions ({link.label}) <ExternalLink aria-hidden="true" className="size-4" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <img
            src="/images/office-map.svg"
            alt={`Sketch map: our office off S.G. Highway in ${site.address.locality}`}
            width={640}
            height={400}
            loading="lazy"
            className="w-full rounded-xl border border-slate-200"
          />
        </div>
      </section>
      {/* Only this page raises notifications, so only it carries their region. */}
      <Island name="toaster" props={{}} />
    </>
  );
}
