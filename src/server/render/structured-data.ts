import type { PageMeta } from "#shared/page-rendering.ts";
import { businessHours, site } from "#shared/site.ts";

// schema.org descriptions of the firm (every page), the page's breadcrumb trail and, on article
// pages, the article; embedded as application/ld+json, which browsers never execute.

const dayNames: Record<string, string[]> = {
  "Monday-Friday": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
  Saturday: ["Saturday"],
  Sunday: ["Sunday"],
};

function to24h(time: string): string {
  const match = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(time.trim());
  if (!match) return time;
  let hours = Number(match[1]) % 12;
  if (match[3] === "PM") hours += 12;
  return `${String(hours).padStart(2, "0")}:${match[2]}`;
}

export function organizationJsonLd(siteUrl: string) {
  return {
    "@context": "https://schema.org",
    "@type": "ProfessionalService",
    "@id": `${siteUrl}/#organization`,
    name: site.name,
    description: site.description,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/icon-512.png`,
    image: `${siteUrl}/og-image.png`,
    telephone: site.phone,
    email: site.email,
    foundingDate: String(site.foundedYear),
    address: {
      "@type": "PostalAddress",
      streetAddress: site.address.street,
      addressLocality: site.address.locality,
      addressRegion: site.address.region,
      postalCode: site.address.postalCode,
      addressCountry: site.address.countryCode,
    },
    areaServed: { "@type": "Country", name: "India" },
    openingHoursSpecification: businessHours
      .filter((entry) => entry.hours !== "Closed")
      .map((entry) => {
        const [opens = "", closes = ""] = entry.hours.split(" - ");
        return {
          "@type": "OpeningHoursSpecification",
          dayOfWeek: dayNames[entry.days],
          opens: to24h(opens),
          closes: to24h(closes),
        };
      }),
  };
}

export function breadcrumbJsonLd(meta: PageMeta, siteUrl: string) {
  if (!meta.breadcrumbs?.length) return undefined;
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: meta.breadcrumbs.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: `${siteUrl}${crumb.path === "/" ? "/" : crumb.path}`,
    })),
  };
}

export function articleJsonLd(meta: PageMeta, canonicalUrl: string, siteUrl: string) {
  if (!meta.article) return undefined;
  const headline = meta.title.replace(new RegExp(` \\| ${site.name}$`), "");
  return {
    "@context": "https://schema.org",
    "@type": "Article",
    headline: headline.slice(0, 110),
    description: meta.description,
    image: [`${siteUrl}${meta.image?.path ?? "/og-image.png"}`],
    datePublished: meta.article.publishedAt,
    dateModified: meta.article.publishedAt,
    articleSection: meta.article.category,
    author: meta.article.authorName
      ? { "@type": "Person", name: meta.article.authorName, worksFor: { "@id": `${siteUrl}/#organization` } }
      : { "@type": "Organization", name: site.name, url: `${siteUrl}/` },
    // Inline, not an @id reference: Google's article result reads the publisher's name and logo here.
    publisher: {
      "@type": "Organization",
      name: site.name,
      url: `${siteUrl}/`,
      logo: { "@type": "ImageObject", url: `${siteUrl}/icon-512.png`, width: 512, height: 512 },
    },
    mainEntityOfPage: canonicalUrl,
    inLanguage: "en-IN",
  };
}
