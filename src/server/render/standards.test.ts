import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { projectDriver } from "../../../test/databases.ts";
import { htmlValidator as validator } from "../../../test/html-validator.ts";
import { everyPagePathForTests } from "../../../test/page-paths.ts";

// Every page's server HTML, as a validator and a search engine read it: valid HTML, and JSON-LD
// blocks that carry what Google's structured-data documentation asks of their type.

/**
 * What each JSON-LD @type must carry, as dotted paths. From Google Search Central's structured-data
 * documentation (developers.google.com/search/docs/appearance/structured-data/), its pages
 * "Article", "Breadcrumb", "Organization" and "Local business":
 * - BreadcrumbList: itemListElement is required; each ListItem needs position and name, and item
 *   (the crumb's URL) on every crumb but the last. This site links the last one too.
 * - LocalBusiness: name and address are required. ProfessionalService, the firm's type, is a
 *   LocalBusiness.
 * - Article and Organization: Google lists no required properties, only recommended ones. The ones
 *   here are those this site promises: an article's headline, image, dates and author's name, and
 *   its publisher inline as an Organization with a name and a logo (an ImageObject with a url),
 *   which is where the article result reads them, not through an @id reference.
 * A block of a type not in this table fails the test: add the type, from that documentation.
 */
const requiredProperties: Record<string, string[]> = {
  ProfessionalService: ["name", "address", "url"],
  BreadcrumbList: ["itemListElement"],
  ListItem: ["position", "name", "item"],
  Article: [
    "headline",
    "image",
    "datePublished",
    "dateModified",
    "author.name",
    "publisher.name",
    "publisher.logo.url",
  ],
  Organization: ["name", "url"],
  ImageObject: ["url"],
  Person: ["name"],
  PostalAddress: ["streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"],
};
/** Types that appear only inside another block, checked there. */
const nestedOnly = new Set([
  "ListItem",
  "ImageObject",
  "Person",
  "PostalAddress",
  "OpeningHoursSpecification",
  "Country",
]);

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function valueAt(node: JsonObject, path: string): unknown {
  return path.split(".").reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), node);
}

const present = (value: unknown) =>
  value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0);

/** Each node with an @type (the block itself and every object inside it) and what it lacks. */
function missingRequiredProperties(block: JsonObject): string[] {
  const problems: string[] = [];
  const visit = (node: unknown, where: string) => {
    if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${where}[${index}]`));
    if (!isObject(node)) return;
    const type = node["@type"];
    if (typeof type === "string") {
      for (const path of requiredProperties[type] ?? []) {
        if (!present(valueAt(node, path))) problems.push(`${where} (${type}) has no ${path}`);
      }
      // A publisher given only as an @id reference is not read by the article result.
      if (type === "Article" && isObject(node.publisher) && node.publisher["@type"] !== "Organization") {
        problems.push(`${where}.publisher is not an inline Organization`);
      }
    }
    for (const [key, value] of Object.entries(node)) visit(value, `${where}.${key}`);
  };
  visit(block, "$");
  return problems;
}

function jsonLdBlocks(html: string): JsonObject[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as JsonObject,
  );
}

/**
 * The HTML standard's form for a refresh pragma: seconds, or seconds, ";", at least one space,
 * "url=" in any case and a URL not starting with a quote. "10;url=/" is not valid; "10; url=/" is.
 */
const validRefresh = /^\d+(?:;[\t\n\f\r ]+[Uu][Rr][Ll]=(?!['"])\S.*)?$/;

describe("the server HTML of every page", () => {
  let t: TestApp;
  const pages = new Map<string, { status: number; html: string }>();

  beforeAll(async () => {
    t = await buildTestApp(projectDriver);
    const urls = [
      ...(await everyPagePathForTests()),
      // A filtered blog list, as the search form sends it without JavaScript.
      "/blog?q=grid&category=Power+Quality",
      "/no/such/page",
    ];
    for (const url of urls) {
      const response = await t.app.inject({ method: "GET", url });
      pages.set(url, { status: response.statusCode, html: response.body });
    }
    // The contact page as a plain form post with errors gets it back.
    const invalidPost = await t.app.inject({
      method: "POST",
      url: "/contact",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "form-name=contact&firstName=Asha&email=not-an-address",
    });
    pages.set("POST /contact (invalid)", { status: invalidPost.statusCode, html: invalidPost.body });
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers each page with the status it should have", () => {
    for (const [url, { status }] of pages) {
      const expected = url === "/no/such/page" ? 404 : url.startsWith("POST") ? 400 : 200;
      expect(status, url).toBe(expected);
    }
    expect(pages.has("/thank-you")).toBe(true);
  });

  it("passes html-validate's recommended rules", async () => {
    const problems: string[] = [];
    for (const [url, { html }] of pages) {
      const report = await validator.validateString(html, url);
      for (const result of report.results) {
        for (const message of result.messages)
          problems.push(`${url}: ${message.ruleId}: ${message.message} (at ${message.selector ?? "document"})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("writes every refresh in the form HTML defines, and the thank-you page has one", () => {
    const refreshes = [...pages].flatMap(([url, { html }]) =>
      [...html.matchAll(/<meta http-equiv="refresh" content="([^"]*)">/g)].map((match) => ({
        url,
        content: match[1]!,
      })),
    );
    expect(refreshes.map((refresh) => refresh.url)).toEqual(["/thank-you"]);
    for (const { url, content } of refreshes) expect(content, url).toMatch(validRefresh);
    expect(refreshes[0]?.content).toBe("10; url=/");
  });

  it("gives every JSON-LD block the properties Google's documentation asks of its type", () => {
    const problems: string[] = [];
    const typesSeen = new Set<string>();
    for (const [url, { html }] of pages) {
      const blocks = jsonLdBlocks(html);
      expect(blocks.length, url).toBeGreaterThan(0);
      for (const block of blocks) {
        const type = String(block["@type"]);
        typesSeen.add(type);
        if (block["@context"] !== "https://schema.org")
          problems.push(`${url}: a ${type} block without the schema.org context`);
        if (!(type in requiredProperties) || nestedOnly.has(type))
          problems.push(`${url}: no requirements are listed for a ${type} block`);
        problems.push(...missingRequiredProperties(block).map((problem) => `${url}: ${type} ${problem}`));
      }
    }
    expect(problems).toEqual([]);
    // The test looked at each kind of block the site writes.
    expect([...typesSeen].sort()).toEqual(["Article", "BreadcrumbList", "ProfessionalService"]);
  });
});

describe("the JSON-LD check", () => {
  it("names what a block lacks, at any depth, and an Article whose publisher is only a reference", () => {
    expect(
      missingRequiredProperties({
        "@type": "Article",
        headline: "H",
        image: [],
        datePublished: "2025-01-05",
        dateModified: "2025-01-05",
        author: { "@type": "Person" },
        publisher: { "@id": "https://x.test/#organization" },
      }),
    ).toEqual([
      "$ (Article) has no image",
      "$ (Article) has no author.name",
      "$ (Article) has no publisher.name",
      "$ (Article) has no publisher.logo.url",
      "$.publisher is not an inline Organization",
      "$.author (Person) has no name",
    ]);
    expect(
      missingRequiredProperties({
        "@type": "BreadcrumbList",
        itemListElement: [{ "@type": "ListItem", position: 1, name: "Home" }],
      }),
    ).toEqual(["$.itemListElement[0] (ListItem) has no item"]);
  });
});
