import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "#shared/paths.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { projectDriver } from "../../../test/databases.ts";
import { pageRoutesForTests } from "../../../test/page-paths.ts";

/** Every indexed page: one of each route of the table, but the thank-you page (noindex). */
// The thank-you page and the search's results are for people, not search engines: noindex.
const routes = pageRoutesForTests.filter((path) => path !== paths.thankYou && path !== paths.search);
/** The article the structured-data checks below read. */
const article = "/blog/arc-flash-studies-ieee-1584-2018";

const headOf = (html: string) => /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? "";
const attr = (head: string, pattern: RegExp) => pattern.exec(head)?.[1];
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );

describe("metadata and structured data", () => {
  let t: TestApp;
  const pages = new Map<string, string>();
  beforeAll(async () => {
    t = await buildTestApp(projectDriver);
    for (const route of [...routes, article, "/thank-you", "/search", "/missing-page"])
      pages.set(route, (await t.app.inject({ method: "GET", url: route })).body);
  });
  afterAll(async () => {
    await t.close();
  });

  it("gives every route its own title and description, a canonical URL, and link-preview tags with a served image", async () => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const route of routes) {
      const head = headOf(pages.get(route)!);
      const title = attr(head, /<title>([^<]+)<\/title>/)!;
      const description = attr(head, /<meta name="description" content="([^"]+)">/)!;
      expect(title, route).toBeTruthy();
      expect(description.length, route).toBeGreaterThan(50);
      titles.add(title);
      descriptions.add(description);
      expect(attr(head, /<link rel="canonical" href="([^"]+)">/)).toBe(`https://www.example.test${route}`);
      expect(attr(head, /<meta property="og:url" content="([^"]+)">/)).toBe(`https://www.example.test${route}`);
      expect(attr(head, /<meta property="og:title" content="([^"]+)">/)).toBe(title);
      // The page's link-preview card (docs/decisions/053-link-preview-cards.md), a JPEG at an
      // address of the page's key and a hash of what the card shows.
      const image = attr(head, /<meta property="og:image" content="([^"]+)">/);
      expect(image).toMatch(/^https:\/\/www\.example\.test\/cards\/[a-z0-9_-]+-[0-9a-f]{16}\.jpg$/);
      expect(attr(head, /<meta name="twitter:image" content="([^"]+)">/)).toBe(image);
      expect(attr(head, /<meta property="og:image:type" content="([^"]+)">/)).toBe("image/jpeg");
      expect(attr(head, /<meta property="og:image:width" content="([^"]+)">/)).toBe("1200");
      expect(attr(head, /<meta property="og:image:height" content="([^"]+)">/)).toBe("627");
      expect(attr(head, /<meta name="twitter:card" content="([^"]+)">/)).toBe("summary_large_image");
      const imageAlt = attr(head, /<meta property="og:image:alt" content="([^"]+)">/);
      expect(imageAlt, route).toBeTruthy();
      expect(attr(head, /<meta name="twitter:image:alt" content="([^"]+)">/), route).toBe(imageAlt);
      expect(head).toContain('<link rel="alternate" type="application/rss+xml"');
      expect(head).toContain('<link rel="manifest" href="/site.webmanifest">');
      expect(head).not.toContain('name="robots"');
    }
    expect(titles.size).toBe(routes.length);
    expect(descriptions.size).toBe(routes.length);
    expect(pages.get("/")).toMatch(/^<!doctype html><html lang="en-IN">/);
  });

  it("keeps the thank-you, search and 404 pages out of search results", async () => {
    for (const route of ["/thank-you", "/search", "/missing-page"])
      expect(headOf(pages.get(route)!)).toContain('<meta name="robots" content="noindex">');
  });

  it("describes the firm on every page as a ProfessionalService with address, phone, email and opening hours", async () => {
    for (const route of routes) {
      const firm = jsonLd(pages.get(route)!).find((data) => data["@type"] === "ProfessionalService");
      expect(firm, route).toMatchObject({
        "@context": "https://schema.org",
        name: expect.any(String),
        telephone: expect.any(String),
        email: expect.any(String),
        address: {
          "@type": "PostalAddress",
          addressLocality: "Ahmedabad",
          addressRegion: "Gujarat",
          addressCountry: "IN",
        },
      });
      expect(firm!.openingHoursSpecification).toEqual([
        {
          "@type": "OpeningHoursSpecification",
          dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
          opens: "08:00",
          closes: "18:00",
        },
        { "@type": "OpeningHoursSpecification", dayOfWeek: ["Saturday"], opens: "09:00", closes: "14:00" },
      ]);
    }
  });

  it("adds a BreadcrumbList on inner pages and an Article on article pages", async () => {
    expect(jsonLd(pages.get("/")!).some((data) => data["@type"] === "BreadcrumbList")).toBe(false);
    const trail = jsonLd(pages.get("/blog/arc-flash-studies-ieee-1584-2018")!).find(
      (data) => data["@type"] === "BreadcrumbList",
    );
    expect(trail?.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: "https://www.example.test/" },
      { "@type": "ListItem", position: 2, name: "Insights", item: "https://www.example.test/blog" },
      {
        "@type": "ListItem",
        position: 3,
        name: expect.stringContaining("Arc Flash"),
        item: "https://www.example.test/blog/arc-flash-studies-ieee-1584-2018",
      },
    ]);
    const article = jsonLd(pages.get("/blog/arc-flash-studies-ieee-1584-2018")!).find(
      (data) => data["@type"] === "Article",
    );
    expect(article).toMatchObject({
      headline: expect.stringContaining("Arc Flash"),
      datePublished: "2024-09-11T18:30:00.000Z",
      author: { "@type": "Person", name: "Anil Patel" },
      image: [
        expect.stringMatching(/^https:\/\/www\.example\.test\/(og-image\.png|media\/[0-9a-f]{16}\/[0-9]+\.jpg)$/),
      ],
      mainEntityOfPage: "https://www.example.test/blog/arc-flash-studies-ieee-1584-2018",
      // Inline, as Google's article result reads it: not an @id reference.
      publisher: {
        "@type": "Organization",
        name: expect.any(String),
        logo: { "@type": "ImageObject", url: "https://www.example.test/icon-512.png" },
      },
    });
    for (const route of routes.filter((route) => route !== "/")) {
      expect(
        jsonLd(pages.get(route)!).some((data) => data["@type"] === "BreadcrumbList"),
        route,
      ).toBe(true);
    }
  });
});
