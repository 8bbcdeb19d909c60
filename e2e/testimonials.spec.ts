import { eq, inArray } from "drizzle-orm";
import { EMPTY_CLIENT_LOGO, EMPTY_TESTIMONIAL } from "../src/shared/content/testimonials.ts";
import { clientLogos, projects, testimonials } from "../src/server/db/schema.ts";
import type { Database } from "../src/server/db/client.ts";
import { bumpContentVersion } from "../src/server/content/data-version.ts";
import {
  appendTestimonialRevision,
  publishTestimonialRevision,
  type TestimonialKind,
} from "../src/server/content/testimonials.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { readSiteDatabase } from "./site-data.ts";

// What a visitor sees of testimonials and client logos (docs/decisions/061-testimonials-and-client-logos.md):
// a named testimonial linked to a project, an anonymised one whose person and organisation never
// reach the page, and three logos in their order, in grey, in boxes that do not move. The rows are
// written as the back office will write them (a revision, then publish), into the running site's
// database, and taken away again after; the page shows them once the server's content poll has
// seen the version the publication moved.

const PROJECT = "kutch-solar-park-grid-connection";
const NAMED_QUOTE = "Their protection review found the one setting that would have tripped the whole pooling station.";
const ANONYMISED_QUOTE = "Clear answers to every question the utility's engineers asked, in days rather than weeks.";
const SECRET = "Zqxbrowser Secretperson";
const SECRET_ORGANISATION = "Zqxbrowser Hidden Transco";
const PERMISSION = {
  permissionBy: "Browser test",
  permissionOn: "2026-10-01",
  permissionUses: ["website"],
  permissionReview: "2027-10-01",
};
// Pictures of the seed's library, as logos.
const LOGOS = [
  { organisation: "Alpha Grid Corporation", key: "0300ae1725bd317b", order: 1 },
  { organisation: "Beta Power Limited", key: "05b750505aa3626a", order: 2 },
  { organisation: "Gamma Solar Parks", key: "0b565243af924920", order: 3 },
];

const added: { testimonial: string[]; "client-logo": string[] } = { testimonial: [], "client-logo": [] };

async function publish(db: Database, kind: TestimonialKind, document: object, order: number): Promise<void> {
  await db.transaction(async (tx) => {
    const table = kind === "testimonial" ? testimonials : clientLogos;
    const [row] = await tx
      .insert(table as typeof testimonials)
      .values({ order })
      .returning({ id: testimonials.id });
    const base = kind === "testimonial" ? EMPTY_TESTIMONIAL : EMPTY_CLIENT_LOGO;
    const revisionId = await appendTestimonialRevision(tx, {
      kind,
      itemId: row!.id,
      document: { ...base, ...PERMISSION, ...document } as never,
      source: "studio",
      author: { id: null, label: "Browser test" },
    });
    await publishTestimonialRevision(tx, { kind, itemId: row!.id, revisionId: revisionId! });
    added[kind].push(row!.id);
  });
}

/**
 * Waits until the server's content poll (every 2 s) has seen the change: its home page, kept per
 * content version, says `seen`. (Not its API: an answer first asked for before the poll is kept
 * under the old version until the poll moves it.)
 */
async function serverShows(request: import("@playwright/test").APIRequestContext, seen: (body: string) => boolean) {
  await expect
    .poll(async () => seen(await (await request.get("/")).text()), {
      message: "the server has seen the new content version",
      intervals: [250],
      timeout: 10_000,
    })
    .toBe(true);
}

/** With SCREENSHOTS=1 (as page-checks.ts's photograph), a screenshot of one part of the page. */
async function photographPart(part: import("@playwright/test").Locator, name: string): Promise<void> {
  if (["1", "true"].includes(process.env.SCREENSHOTS ?? ""))
    await part.screenshot({ path: `test-results/screenshots/${name}.png` });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  await readSiteDatabase(async (db) => {
    const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.slug, PROJECT));
    await publish(
      db as Database,
      "testimonial",
      {
        quote: NAMED_QUOTE,
        personName: "Kiran Desai",
        personRole: "Chief Engineer",
        organisation: "Gujarat Test Transco",
        logoUrl: `/media/${LOGOS[0]!.key}/original.png`,
        project: project!.id,
        services: ["short-circuit-and-protection"],
        industries: ["utilities"],
      },
      0,
    );
    await publish(
      db as Database,
      "testimonial",
      {
        quote: ANONYMISED_QUOTE,
        personName: SECRET,
        organisation: SECRET_ORGANISATION,
        anonymised: true,
        description: "Head of protection, a state transmission utility in western India",
        project: project!.id,
      },
      10,
    );
    for (const logo of [...LOGOS].reverse())
      await publish(
        db as Database,
        "client-logo",
        { organisation: logo.organisation, logoUrl: `/media/${logo.key}/original.png` },
        logo.order,
      );
  });
  await serverShows(request, (body) => body.includes(NAMED_QUOTE) && body.includes("Gamma Solar Parks"));
});

test.afterAll(async ({ request }) => {
  await readSiteDatabase(async (db) => {
    if (added.testimonial.length) await db.delete(testimonials).where(inArray(testimonials.id, added.testimonial));
    if (added["client-logo"].length) await db.delete(clientLogos).where(inArray(clientLogos.id, added["client-logo"]));
    await bumpContentVersion(db as Database);
  });
  await serverShows(request, (body) => !body.includes(NAMED_QUOTE) && !body.includes("Gamma Solar Parks"));
});

for (const width of [375, 1280]) {
  test(`the home page shows the testimonials and the client logos, in grey and in order, at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    const said = page.locator("section", { has: page.getByRole("heading", { name: "What Our Clients Say" }) });
    // The seed's three, as they were before they were content, and this file's two, once each.
    // (Other files' tests may publish their own meanwhile: the browser tests share one site.)
    for (const quote of [
      /^“The arc-flash study was thorough and practical/,
      /^“We called them after repeated VFD trips/,
      /^“Their connectivity study for our 150 MW solar park/,
    ])
      await expect(said.getByText(quote)).toHaveCount(1);
    for (const quote of [NAMED_QUOTE, ANONYMISED_QUOTE])
      await expect(said.locator("figure", { hasText: quote })).toHaveCount(1);
    await expect(said.getByText(/^“Their connectivity study for our 150 MW solar park/)).toBeVisible();
    const named = said.locator("figure", { hasText: NAMED_QUOTE });
    await expect(named.getByText("Kiran Desai", { exact: true })).toBeVisible();
    await expect(named.getByText("Chief Engineer, Gujarat Test Transco")).toBeVisible();
    await expect(named.getByRole("img", { name: "Gujarat Test Transco" })).toBeVisible();
    const anonymised = said.locator("figure", { hasText: ANONYMISED_QUOTE });
    await expect(
      anonymised.getByText("Head of protection, a state transmission utility in western India"),
    ).toBeVisible();
    // No logo (no <img>); only the home page's five stars, a picture of words.
    await expect(anonymised.locator("img")).toHaveCount(0);
    await expect(anonymised.getByRole("img")).toHaveAccessibleName("Rated 5 out of 5 stars");
    const html = await page.content();
    expect(html).not.toContain("Zqxbrowser");

    const row = page.locator("section", { has: page.getByRole("heading", { name: "Trusted by" }) });
    // This file's three, in their order (another file's, published meanwhile, may stand beside them).
    const ours = LOGOS.map((logo) => logo.organisation);
    for (const organisation of ours)
      await expect(row.getByRole("img", { name: organisation, exact: true })).toHaveCount(1);
    expect(
      (await row.getByRole("img").evaluateAll((images) => images.map((image) => image.getAttribute("alt")))).filter(
        (alt) => alt !== null && ours.includes(alt),
      ),
    ).toEqual(ours);
    for (const logo of ours.map((organisation) => row.getByRole("img", { name: organisation, exact: true }))) {
      await logo.scrollIntoViewIfNeeded();
      const reserved = await logo.boundingBox();
      // Its box is reserved before the picture arrives, and stays so.
      expect(reserved).toMatchObject({ width: 128, height: 48 });
      await expect
        .poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
        .toBe(true);
      expect(await logo.boundingBox()).toEqual(reserved);
      expect(await logo.evaluate((image) => getComputedStyle(image).filter)).toBe("grayscale(1)");
      // The browser took a width of the library's ladder, not the original.
      expect(await logo.evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(
        /\/media\/[0-9a-f]{16}\/\d+\.(avif|webp|jpg)$/,
      );
    }
    await expectNoOverflow(page, `home at ${width}`);
    await expectNoAxeViolations(page, `home at ${width}`);
    await photographPart(said, `testimonials-home-${width}`);
    await photographPart(row, `client-logos-home-${width}`);
  });

  test(`a project's page shows the testimonials linked to it at ${width} px; another project's none`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/projects/${PROJECT}`);
    const said = page.locator("div", { has: page.getByRole("heading", { name: "What our clients say" }) }).last();
    await expect(said.locator("figure")).toHaveCount(2);
    await expect(said.getByText(NAMED_QUOTE, { exact: false })).toBeVisible();
    await expect(said.getByText("Head of protection, a state transmission utility in western India")).toBeVisible();
    expect(await page.content()).not.toContain("Zqxbrowser");
    await expectNoOverflow(page, `project at ${width}`);
    await expectNoAxeViolations(page, `project at ${width}`);
    await photograph(page, `testimonials-project-${width}`);

    await page.goto("/projects/cement-plant-harmonic-filter");
    await expect(page.getByRole("heading", { name: "What our clients say" })).toHaveCount(0);
  });
}

test("the services page shows a testimonial in the section of the service it names", async ({ page }) => {
  await page.goto("/services");
  const section = page.locator("section[aria-labelledby='group-short-circuit-and-protection']");
  await expect(section.getByText(NAMED_QUOTE, { exact: false })).toBeVisible();
  await expect(
    page.locator("section[aria-labelledby='group-power-quality']").getByText(NAMED_QUOTE, { exact: false }),
  ).toHaveCount(0);
});
