import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TeamMember } from "#shared/api-types.ts";
import { site } from "#shared/site.ts";
import { pageRoutesForTests } from "../../../test/page-paths.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";
import { media } from "../db/schema.ts";

/** The islands a page asks the browser to hydrate: [name, props] in page order. */
function islandsOf(html: string): [string, Record<string, unknown>][] {
  const match = /<script type="application\/json" id="islands">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error("no island list in the page");
  return JSON.parse(match[1]);
}

/**
 * A publication time safely in the past. The column's default, PostgreSQL's now(), has
 * microseconds, and the pages ask for articles published up to a JavaScript Date, which has
 * milliseconds: a post inserted and requested within the same millisecond is not yet published.
 */
const PUBLISHED_A_MINUTE_AGO = () => new Date(Date.now() - 60_000);

describe.each(testDrivers)("server-rendered pages on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver);
  });
  afterAll(async () => {
    await t.close();
  });

  it("GET / answers HTML that already holds text from the database", async () => {
    const members = (await t.app.inject({ method: "GET", url: "/api/team-members" })).json<TeamMember[]>();
    const response = await t.app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body).toMatch(/^<!doctype html><html lang="en-IN">/);
    expect(members[0]).toBeDefined();
    expect(response.body).toContain(members[0]!.name);
    // Only the interactive parts are hydrated, so the page's data is not repeated as JSON.
    expect(islandsOf(response.body)).toEqual([
      ["menuButton", {}],
      ["consultationButton", {}],
    ]);
    const jsonScripts = response.body.match(/<script type="application\/json" id="[^"]+">/g);
    expect(jsonScripts).toEqual(['<script type="application/json" id="islands">']);
  });

  it("renders each island inside its slot, in the order of the list, with ids of its own", async () => {
    const response = await t.app.inject({ method: "GET", url: "/contact" });
    const islands = islandsOf(response.body);
    expect(islands.map(([name]) => name)).toEqual(["menuButton", "contactForm", "toaster", "consultationButton"]);
    // The form's hidden fields came with the page: a token for this one enquiry.
    expect(islands[1]![1]).toMatchObject({ fields: { token: expect.any(String), idempotencyKey: expect.any(String) } });
    islands.forEach((_, index) => {
      const slot = response.body.indexOf(`<div data-island="${index}" class="contents">`);
      expect(slot, `island ${index}`).toBeGreaterThan(-1);
      // Not an empty slot: the island's own HTML follows.
      expect(response.body.slice(slot).startsWith(`<div data-island="${index}" class="contents"></div>`)).toBe(false);
    });
    // The header is the server's; its menu button is island 0, inside it.
    expect(response.body.indexOf('data-island="0"')).toBeGreaterThan(response.body.indexOf('id="site-header"'));
    expect(response.body.indexOf('id="menu-button"')).toBeGreaterThan(response.body.indexOf('data-island="0"'));
    // useId in the form (island 1) makes ids with that island's prefix, which hydration repeats.
    expect(response.body).toMatch(/id="[^"]*i1-[^"]*-firstName"/);
  });

  it.each(pageRoutesForTests)("GET %s answers 200 with its own title and a canonical URL", async (path) => {
    const response = await t.app.inject({ method: "GET", url: path });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/<title>[^<]+<\/title>/);
    expect(response.body).toContain(`<link rel="canonical" href="https://www.example.test${path}">`);
  });

  it("answers an unknown path with status 404 and the 'Page Not Found' page", async () => {
    const response = await t.app.inject({ method: "GET", url: "/no/such/page" });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body).toContain("Page Not Found");
    expect(response.body).toContain('<meta name="robots" content="noindex">');
  });

  it("embeds page data as non-executable JSON that cannot close its script element", async () => {
    await addArticle(
      t.database.db,
      articleDocument({
        title: "Hostile </script><script>alert(1)</script> title",
        excerpt: "<!-- excerpt & more \u2028",
        body: "body",
        category: "Power Quality",
        imageUrl: "/images/articles/x.svg",
        slug: "hostile-title",
      }),
      { state: "published", at: PUBLISHED_A_MINUTE_AGO() },
    );
    // A search the earlier tests did not render, so the page is not one cached before the insert.
    const response = await t.app.inject({ method: "GET", url: "/blog?q=hostile" });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain("<script>alert(1)</script>");
    const scripts = response.body.match(/<script\b[^>]*>/g) ?? [];
    for (const tag of scripts) expect(tag).toMatch(/type="(module|application\/json|application\/ld\+json)"/);
    const articles = islandsOf(response.body).find(([name]) => name === "blogArticles");
    expect(JSON.stringify(articles?.[1].posts)).toContain("Hostile </script><script>alert(1)</script> title");
  });

  it("gives an article's headings ids the page does not use, with a table of contents that reaches each", async () => {
    // Headings named like the page's own ids, and one repeated.
    const headings = [
      "Related heading",
      "Article title",
      "Toc heading",
      "Main",
      "Load Flow",
      "Load Flow",
      "Site footer",
    ];
    await addArticle(
      t.database.db,
      articleDocument({
        title: "Headings That Echo The Page",
        excerpt: "Every heading is named like an element of the page around it.",
        body: headings.map((heading) => `## ${heading}\n\nText about ${heading.toLowerCase()}.\n`).join("\n"),
        category: "Power Quality",
        imageUrl: "/images/articles/x.svg",
        slug: "headings-that-echo-the-page",
      }),
      { state: "published", at: PUBLISHED_A_MINUTE_AGO() },
    );
    const html = (await t.app.inject({ method: "GET", url: "/blog/headings-that-echo-the-page" })).body;
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]!);
    expect(ids).toContain("related-heading");
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    const contents = /<nav aria-labelledby="toc-heading"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";
    const targets = [...contents.matchAll(/href="#([^"]+)"/g)].map((match) => match[1]!);
    expect(targets).toHaveLength(headings.length);
    expect(targets).toContain("section-load-flow-2");
    for (const target of targets) expect(html).toMatch(new RegExp(`<h2 id="${target}">`));
  });

  it("gives an article's cover its alt text, and a cover without one the library's alt text for that picture", async () => {
    await addArticle(
      t.database.db,
      articleDocument({
        title: "A Cover Described",
        slug: "a-cover-described",
        imageUrl: "/images/articles/arc-flash-studies-ieee-1584-2018.svg",
        imageAlt: "Switchgear with its arc flash label & boundary",
        body: "Text.",
      }),
      { state: "published", at: PUBLISHED_A_MINUTE_AGO() },
    );
    // The cover: the first picture of the page with fetchpriority="high" (the page's largest above the fold).
    const escapeHtml = (text: string) =>
      text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
    const cover = (html: string) => {
      const tag = /<img\b[^>]*fetchPriority="high"[^>]*>|<img\b[^>]*fetchpriority="high"[^>]*>/.exec(html)?.[0] ?? "";
      return /\salt="([^"]*)"/.exec(tag)?.[1];
    };
    const described = await t.app.inject({ method: "GET", url: "/blog/a-cover-described" });
    expect(cover(described.body)).toBe("Switchgear with its arc flash label &amp; boundary");
    const [picture] = await t.database.db
      .select({ alt: media.alt })
      .from(media)
      .where(eq(media.sourcePath, "/images/articles/ieee-519-harmonics-at-a-vfd-heavy-plant.svg"));
    expect(picture?.alt).toBeTruthy();
    const seeded = await t.app.inject({ method: "GET", url: "/blog/ieee-519-harmonics-at-a-vfd-heavy-plant" });
    expect(cover(seeded.body)).toBe(escapeHtml(picture!.alt));
  });

  it("sends every 'Get directions' link to the office's full address, postcode included", async () => {
    const html = (await t.app.inject({ method: "GET", url: "/contact" })).body;
    const links = [...html.matchAll(/<a href="([^"]+)"[^>]*>Get directions/g)].map((match) =>
      match[1]!.replaceAll("&amp;", "&"),
    );
    expect(links).toHaveLength(2);
    const { street, locality, region, postalCode, country } = site.address;
    for (const link of links) {
      const destination = decodeURIComponent(/(?:destination|query)=([^&]+)/.exec(link)?.[1] ?? "");
      expect(destination).toBe(`${street}, ${locality}, ${region} ${postalCode}, ${country}`);
    }
  });

  it("sends the security headers on pages, API answers, errors and 404s", async () => {
    const answers = await Promise.all([
      t.app.inject({ method: "GET", url: "/" }),
      t.app.inject({ method: "GET", url: "/api/projects" }),
      t.app.inject({ method: "POST", url: "/api/contact", payload: {} }),
      t.app.inject({ method: "GET", url: "/missing" }),
      t.app.inject({ method: "GET", url: "/api/missing" }),
    ]);
    for (const response of answers) {
      const csp = String(response.headers["content-security-policy"]);
      const scriptSrc = csp
        .split(";")
        .map((part) => part.trim())
        .find((part) => part.startsWith("script-src"));
      expect(scriptSrc).toBe("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    }
  });
});
