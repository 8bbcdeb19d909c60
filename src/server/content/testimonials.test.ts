import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlogPostSummary, Project, PublicTestimonials } from "#shared/api-types.ts";
import { apiPaths, articleApiPath, articlePath, projectApiPath, projectPath } from "#shared/paths.ts";
import {
  type ClientLogoDocument,
  EMPTY_CLIENT_LOGO,
  EMPTY_TESTIMONIAL,
  type TestimonialDocument,
} from "#shared/content/testimonials.ts";
import { clientLogos, media, projects, testimonials } from "../db/schema.ts";
import { deletePicture } from "../media/media-store.ts";
import { refreshContentVersion, storedContentVersion } from "./data-version.ts";
import { readSiteContent } from "./load-content.ts";
import {
  appendTestimonialRevision,
  publishTestimonialRevision,
  type TestimonialKind,
  withdrawTestimonialItem,
} from "./testimonials.ts";
import { buildTestApp, siteContentDir, type TestApp } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";
import { pageRoutesForTests } from "../../../test/page-paths.ts";

// Testimonials and client logos as a visitor sees them (docs/decisions/061-testimonials-and-client-logos.md):
// the seed's three, a named one on the pages it names, an anonymised one whose person, organisation
// and logo reach no public address, the ones that are not public nowhere, the logos' row, and no
// Review structured data. Rows are written as the back office will: a revision, then publish.

const PERMISSION = {
  permissionBy: "Anita Rao, by email",
  permissionOn: "2026-10-01",
  permissionUses: ["website"],
  permissionReview: "2027-10-01",
};

/** A library picture of the seed, by its reference. */
const picture = (key: string) => `/media/${key}/original.png`;
const LOGO_KEYS = ["0300ae1725bd317b", "05b750505aa3626a", "0b565243af924920"];

type State = "published" | "unpublished" | "trashed" | "draft";

async function add<Kind extends TestimonialKind>(
  t: TestApp,
  kind: Kind,
  document: Kind extends "testimonial" ? Partial<TestimonialDocument> : Partial<ClientLogoDocument>,
  options: { order?: number; state?: State } = {},
): Promise<string> {
  const db = t.database.db;
  const table = kind === "testimonial" ? testimonials : clientLogos;
  const [row] = await db
    .insert(table as typeof testimonials)
    .values({ order: options.order ?? 0 })
    .returning({ id: testimonials.id });
  const id = row!.id;
  const full = { ...(kind === "testimonial" ? EMPTY_TESTIMONIAL : EMPTY_CLIENT_LOGO), ...PERMISSION, ...document };
  await db.transaction(async (tx) => {
    const revisionId = await appendTestimonialRevision(tx, {
      kind,
      itemId: id,
      document: full as never,
      source: "studio",
      author: { id: null, label: "Test" },
    });
    const state = options.state ?? "published";
    if (state === "draft") return;
    expect(await publishTestimonialRevision(tx, { kind, itemId: id, revisionId: revisionId! })).toBe(true);
    if (state === "unpublished") await withdrawTestimonialItem(tx, kind, id);
    if (state === "trashed") await tx.update(table).set({ deletedAt: new Date() }).where(eq(table.id, id));
  });
  await refreshContentVersion(db);
  return id;
}

/** The HTML of one section of a page, from its opening tag with `id` (or aria-labelledby) to the next <section. */
function sectionOf(html: string, marker: string): string {
  const at = html.indexOf(marker);
  if (at < 0) return "";
  const start = html.lastIndexOf("<section", at);
  const end = html.indexOf("<section", at);
  return html.slice(start, end < 0 ? undefined : end);
}

/** React writes apostrophes and ampersands as entities; these test words have none. */
const get = async (t: TestApp, url: string) => {
  const response = await t.app.inject({ method: "GET", url });
  expect(response.statusCode, url).toBe(200);
  return response.body;
};

describe.each(testDrivers)("testimonials and client logos on %s", (driver) => {
  let t: TestApp;
  let kutch: string;
  beforeAll(async () => {
    t = await buildTestApp(driver);
    const [project] = await t.database.db
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.slug, "kutch-solar-park-grid-connection"));
    kutch = project!.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("seeds the three testimonials, anonymised, allowed on this website; the home page shows their quotes, each under five stars", async () => {
    const files = await readSiteContent(siteContentDir);
    expect(files.testimonials).toHaveLength(3);
    const rows = await t.database.db.select().from(testimonials);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: "published",
        anonymised: true,
        personName: null,
        permissionUses: ["website"],
      });
      expect(row.deletedAt).toBeNull();
      expect(row.permissionReview! > row.permissionOn!).toBe(true);
    }
    const home = await get(t, "/");
    const section = sectionOf(home, 'id="testimonials-heading"');
    expect(section).toContain("What Our Clients Say");
    const quotes = [...section.matchAll(/<blockquote[^>]*>“([^<]*)”<\/blockquote>/g)].map((match) => match[1]);
    expect(quotes).toEqual(
      [...files.testimonials].sort((a, b) => a.order - b.order).map((file) => file.document.quote),
    );
    expect(quotes[0]).toMatch(/^Their connectivity study for our 150 MW solar park/);
    expect(section).toContain("Head of Projects, renewable developer, Kutch");
    // The specification's five stars over each testimonial of the home page: a picture with its words.
    expect(section.match(/aria-label="Rated 5 out of 5 stars"/g)).toHaveLength(quotes.length);
  });

  it("shows a named testimonial on the home page, its project's page and the sections of its service and industry; withdrawn, nowhere, the version moved", async () => {
    const id = await add(t, "testimonial", {
      quote: "Named quote words about the grid study.",
      personName: "Kiran Desai",
      personRole: "Chief Engineer",
      organisation: "Gujarat Test Transco",
      logoUrl: picture(LOGO_KEYS[0]!),
      project: kutch,
      services: ["power-quality"],
      industries: ["utilities"],
    });
    const home = await get(t, "/");
    const said = sectionOf(home, 'id="testimonials-heading"');
    expect(said).toContain("Named quote words about the grid study.");
    expect(said).toContain("Kiran Desai");
    expect(said).toContain("Chief Engineer, Gujarat Test Transco");
    // Its logo, drawn responsively with the organisation as its words.
    expect(said).toMatch(/<img[^>]*srcSet="[^"]*320w[^"]*"[^>]*alt="Gujarat Test Transco"/i);

    expect(await get(t, projectPath("kutch-solar-park-grid-connection"))).toContain("Named quote words");
    expect(await get(t, projectPath("cement-plant-harmonic-filter"))).not.toContain("Named quote words");
    const services = await get(t, "/services");
    expect(sectionOf(services, 'id="group-power-quality"')).toContain("Named quote words");
    expect(sectionOf(services, 'id="group-steady-state-analysis"')).not.toContain("Named quote words");
    const industries = await get(t, "/industries");
    expect(sectionOf(industries, 'id="industry-utilities"')).toContain("Named quote words");
    expect(sectionOf(industries, 'id="industry-commercial"')).not.toContain("Named quote words");

    const before = await storedContentVersion(t.database.db);
    await t.database.db.transaction((tx) => withdrawTestimonialItem(tx, "testimonial", id));
    // The poll's next read sees the version moved by the withdrawal itself.
    expect(await storedContentVersion(t.database.db)).not.toBe(before);
    await refreshContentVersion(t.database.db);
    for (const url of ["/", projectPath("kutch-solar-park-grid-connection"), "/services", "/industries"])
      expect(await get(t, url), url).not.toContain("Named quote words");
  });

  it("keeps an anonymised testimonial's person, organisation and logo off every public address; its quote and description are shown", async () => {
    await add(t, "testimonial", {
      quote: "Anonymised quote words about relay settings.",
      personName: "Zqxsecret Person",
      personRole: "Zqxsecret role",
      organisation: "Zqxsecret Utility Corp",
      anonymised: true,
      description: "Head of protection, a state transmission utility in western India",
      logoUrl: picture("fedcba9876543210"),
      project: kutch,
      services: ["steady-state-analysis"],
      industries: ["utilities"],
    });
    const api = JSON.parse(await get(t, apiPaths.testimonials)) as PublicTestimonials;
    const shown = api.testimonials.find((item) => item.quote.startsWith("Anonymised quote words"));
    expect(shown).toEqual({
      id: expect.any(String),
      quote: "Anonymised quote words about relay settings.",
      person: null,
      description: "Head of protection, a state transmission utility in western India",
      projectSlug: "kutch-solar-park-grid-connection",
      services: ["steady-state-analysis"],
      industries: ["utilities"],
    });

    const leaks = (body: string) =>
      ["zqxsecret", "fedcba9876543210"].filter((word) => body.toLowerCase().includes(word));
    const walk = async (url: string) => {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      const asked = decodeURIComponent(new URL(url, "http://x").search).toLowerCase();
      const body = response.body.toLowerCase().replaceAll(asked.slice(3), "");
      expect(leaks(body), url).toEqual([]);
      for (const [name, value] of Object.entries(response.headers))
        expect(leaks(String(value)), `${url}: header ${name}`).toEqual([]);
      return response.body;
    };
    for (const url of pageRoutesForTests) await walk(url);
    const posts = JSON.parse(await walk(apiPaths.blogPosts)) as BlogPostSummary[];
    const allProjects = JSON.parse(await walk(apiPaths.projects)) as Project[];
    for (const post of posts) {
      await walk(articlePath(post.slug));
      await walk(articleApiPath(post.slug));
    }
    for (const project of allProjects) {
      await walk(projectPath(project.slug));
      await walk(projectApiPath(project.slug));
    }
    for (const url of [
      apiPaths.teamMembers,
      apiPaths.testimonials,
      apiPaths.retention,
      "/rss.xml",
      "/sitemap.xml",
      "/robots.txt",
      "/search?q=zqxsecret",
      "/search?q=Utility%20Corp",
      "/search?q=Person",
      "/search?q=western%20India",
      "/blog?q=zqxsecret",
      "/api/search/articles?q=zqxsecret",
    ])
      await walk(url);

    const home = await walk("/");
    expect(home).toContain("Anonymised quote words about relay settings.");
    expect(home).toContain("Head of protection, a state transmission utility in western India");
    expect(await walk(projectPath("kutch-solar-park-grid-connection"))).toContain("Anonymised quote words");
    expect(sectionOf(await walk("/services"), 'id="group-steady-state-analysis"')).toContain("Anonymised quote words");
  });

  it("shows a withdrawn, trashed or draft testimonial, or one not allowed on this website, nowhere", async () => {
    await add(
      t,
      "testimonial",
      { quote: "Zqxgone withdrawn.", personName: "A", organisation: "B" },
      { state: "unpublished" },
    );
    await add(
      t,
      "testimonial",
      { quote: "Zqxgone trashed.", personName: "A", organisation: "B" },
      { state: "trashed" },
    );
    await add(t, "testimonial", { quote: "Zqxgone draft.", personName: "A", organisation: "B" }, { state: "draft" });
    await add(t, "testimonial", {
      quote: "Zqxgone proposals only.",
      personName: "A",
      organisation: "B",
      permissionUses: ["proposals", "social"],
    });
    await add(
      t,
      "client-logo",
      { organisation: "Zqxgone Logo", logoUrl: picture(LOGO_KEYS[1]!) },
      { state: "unpublished" },
    );
    await add(t, "client-logo", {
      organisation: "Zqxgone Social Logo",
      logoUrl: picture(LOGO_KEYS[1]!),
      permissionUses: ["social"],
    });
    for (const url of [
      ...pageRoutesForTests,
      projectPath("kutch-solar-park-grid-connection"),
      apiPaths.testimonials,
      "/sitemap.xml",
      "/rss.xml",
    ])
      expect((await get(t, url)).toLowerCase(), url).not.toContain("zqxgone");
    // And none is published without a complete permission: the table refuses it.
    await expect(
      add(t, "testimonial", { quote: "No permission.", personName: "A", organisation: "B", permissionBy: "" }),
    ).rejects.toThrow();
  });

  it("draws the published client logos in their order, in grey, named by their organisation, in boxes of fixed size; none, no row", async () => {
    expect(await get(t, "/")).not.toContain("clients-heading");
    expect(await get(t, "/")).not.toContain("Trusted by");
    const ids = [
      await add(t, "client-logo", { organisation: "Beta Power", logoUrl: picture(LOGO_KEYS[1]!) }, { order: 2 }),
      await add(t, "client-logo", { organisation: "Alpha Grid", logoUrl: picture(LOGO_KEYS[0]!) }, { order: 1 }),
      await add(t, "client-logo", { organisation: "Gamma Solar", logoUrl: picture(LOGO_KEYS[2]!) }, { order: 3 }),
    ];
    const row = sectionOf(await get(t, "/"), 'id="clients-heading"');
    expect(row).toContain(">Trusted by</h2>");
    const images = [...row.matchAll(/<img [^>]*>/g)].map((match) => match[0]);
    expect(images.map((image) => /alt="([^"]*)"/.exec(image)?.[1])).toEqual([
      "Alpha Grid",
      "Beta Power",
      "Gamma Solar",
    ]);
    for (const image of images) {
      expect(image).toContain("client-logo");
      expect(image).toMatch(/ width="\d+"/);
      expect(image).toMatch(/ height="\d+"/);
      expect(image).toMatch(/srcSet="[^"]+ 320w/);
      expect(image).toContain('sizes="128px"');
    }
    expect(row.match(/<source type="image\/avif"/g)).toHaveLength(3);
    await t.database.db.transaction(async (tx) => {
      for (const id of ids) await withdrawTestimonialItem(tx, "client-logo", id);
    });
    await refreshContentVersion(t.database.db);
    const home = await get(t, "/");
    expect(home).not.toContain("clients-heading");
    expect(home).not.toContain("Alpha Grid");
    // A picture a logo names cannot be deleted from the library, withdrawn or not.
    const [used] = await t.database.db.select({ id: media.id }).from(media).where(eq(media.key, LOGO_KEYS[0]!));
    const outcome = await deletePicture(t.database.db, used!.id);
    expect(outcome && "inUse" in outcome ? outcome.inUse : []).toEqual(
      expect.arrayContaining([{ kind: "client-logo", id: ids[1], title: "Logo of Alpha Grid", trashed: false }]),
    );
  });

  it("carries no Review or AggregateRating structured data on any page", async () => {
    await add(t, "testimonial", { quote: "Rated words.", personName: "R", organisation: "S", project: kutch });
    const allProjects = JSON.parse(await get(t, apiPaths.projects)) as Project[];
    for (const url of [...pageRoutesForTests, ...allProjects.map((project) => projectPath(project.slug))]) {
      const body = await get(t, url);
      expect(body, url).not.toMatch(/"@type"\s*:\s*"(Review|AggregateRating)"/);
      expect(body, url).not.toMatch(/aggregateRating|reviewRating|schema\.org\/Review/i);
    }
  });
});

describe("the testimonial files", () => {
  it("refuse an unknown service, industry or use, a missing permission, and a named one without its organisation", async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const dir = await mkdtemp(path.join(tmpdir(), "testimonial-files-"));
    await mkdir(path.join(dir, "testimonials"));
    const permission =
      "permissionBy: Someone\npermissionOn: 2026-01-01\npermissionUses: [website]\npermissionReview: 2027-01-01\n";
    await writeFile(path.join(dir, "testimonials", "a.yaml"), `quote: Q\npersonName: P\n${permission}`);
    await writeFile(
      path.join(dir, "testimonials", "b.yaml"),
      `quote: Q\nanonymised: true\ndescription: D\nservices: [no-such-service]\nindustries: [space]\n${permission.replace("[website]", "[billboards]")}`,
    );
    await writeFile(path.join(dir, "testimonials", "c.yaml"), "quote: Q\nanonymised: true\ndescription: D\n");
    await writeFile(
      path.join(dir, "testimonials", "d.yaml"),
      `quote: Q\nanonymised: true\ndescription: D\n${permission.replace("2026-01-01", "2026-02-30")}`,
    );
    const content = await readSiteContent(dir);
    await rm(dir, { recursive: true, force: true });
    expect(content.testimonials).toEqual([]);
    const fields = content.problems.map((problem) => `${problem.file} ${problem.field}`);
    expect(fields).toEqual(
      expect.arrayContaining([
        "testimonials/a.yaml organisation",
        "testimonials/b.yaml services",
        "testimonials/b.yaml industries",
        "testimonials/b.yaml permissionUses",
        "testimonials/c.yaml permissionBy",
        "testimonials/c.yaml permissionReview",
        "testimonials/d.yaml permissionOn",
      ]),
    );
  });
});
