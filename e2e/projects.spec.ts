import type { Page, Route } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

type Project = { slug: string; category: string; title: string; year: string; capacity: string | null; timeline: string | null };

const projectCards = (page: Page) => page.locator("main article");

/** Reaches /projects by a client-side navigation, so the page loads the projects itself. */
async function navigateToProjects(page: Page) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/services");
  await page.locator("html[data-hydrated=true]").waitFor();
  await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Projects" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
}

test.describe("projects", () => {
  test("lists every project with the badge rule, filters by category, and links each to its page", async ({ page, request }) => {
    const all = (await (await request.get("/api/projects")).json()) as { slug: string; category: string; title: string }[];
    await page.goto("/projects");
    await page.locator("html[data-hydrated=true]").waitFor();
    const cards = page.locator("main article");
    await expect(cards).toHaveCount(all.length);
    for (const project of all) {
      const card = cards.filter({ has: page.getByRole("heading", { name: project.title, exact: true }) });
      await expect(card.locator("[data-badge]")).toHaveAttribute("data-badge", project.category === "Renewable Energy" ? "green" : "blue");
      await expect(card.getByRole("link", { name: "View Project" })).toHaveAttribute("href", `/projects/${project.slug}`);
    }
    await page.getByRole("list", { name: "Filter projects by category" }).getByRole("link", { name: "Renewable Energy" }).click();
    await expect(cards).toHaveCount(all.filter((project) => project.category === "Renewable Energy").length);
  });

  test("each project has a page with its facts, related work and a call to action; an unknown one is 404", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 404/);
    await page.goto("/projects/kutch-solar-park-grid-connection");
    await expect(page.getByRole("heading", { level: 1, name: "300 MW Solar Park Grid Connection, Kutch" })).toBeVisible();
    for (const fact of ["Year", "Capacity", "Timeline"]) await expect(page.locator("main dt", { hasText: fact }).first()).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Projects");
    await expect(page.getByRole("heading", { name: "Related Projects" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Discuss Your Project" }).first()).toHaveAttribute("href", "/contact");
    const missing = await page.goto("/projects/no-such-project");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
  });

  test("opened in the browser, an unknown project shows the 404 page, and one that fails to load offers to try again", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of (404|500)/);
    await page.goto("/projects");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.evaluate(() => history.pushState(null, "", "/projects/no-such-project"));
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
    await page.route("**/api/projects/failing-project", (route) =>
      route.fulfill({ status: 500, json: { error: "Internal Server Error", message: "Something went wrong on our side." } }),
    );
    await page.evaluate(() => history.pushState(null, "", "/projects/failing-project"));
    await expect(page.getByRole("heading", { level: 1, name: "Unable to Load Project" })).toBeVisible();
  });

  for (const width of [375, 1280]) {
    test(`keeps each card's category badge as wide as its text at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/projects");
      const cards = await projectCards(page).all();
      expect(cards.length).toBeGreaterThan(0);
      for (const card of cards) {
        const badge = (await card.locator("[data-badge]").boundingBox())!;
        const cardBox = (await card.boundingBox())!;
        expect(badge.width).toBeLessThan(cardBox.width / 2);
      }
    });
  }
});

test.describe("projects, when the browser loads them itself", () => {
  test("shows no projects until they arrive, then every one", async ({ page, request }) => {
    const all = (await (await request.get("/api/projects")).json()) as Project[];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    await page.route("**/api/projects", async (route) => {
      asked += 1;
      await held;
      await route.continue();
    });
    await navigateToProjects(page);
    await expect.poll(() => asked).toBe(1);
    await expect(projectCards(page)).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Planning a project like these?" })).toBeVisible();
    release();
    await expect(projectCards(page)).toHaveCount(all.length);
    await expect(page.getByRole("heading", { level: 2, name: `All Projects (${all.length})` })).toBeVisible();
  });

  for (const [name, fail] of [
    ["a failing", (route: Route) => route.fulfill({ status: 500, body: "boom" })],
    ["an unreachable", (route: Route) => route.abort("connectionrefused")],
  ] as const) {
    test(`still shows the page and its call to action, without projects, for ${name} API`, async ({ page, pageGuard }) => {
      pageGuard.allow(/status of 500|ERR_CONNECTION_REFUSED/);
      const answered = page.waitForEvent("requestfinished", (request) => request.url().endsWith("/api/projects")).catch(() => undefined);
      const failed = page.waitForEvent("requestfailed", (request) => request.url().endsWith("/api/projects")).catch(() => undefined);
      await page.route("**/api/projects", fail);
      await navigateToProjects(page);
      await Promise.race([answered, failed]);
      await expect(projectCards(page)).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Planning a project like these?" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Discuss Your Project" })).toHaveAttribute("href", "/contact");
    });
  }
});

test.describe("projects without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("/projects arrives with every project from the database in its first HTML", async ({ page, request }) => {
    const all = (await (await request.get("/api/projects")).json()) as Project[];
    await page.goto("/projects");
    await expect(projectCards(page)).toHaveCount(all.length);
    await expect(projectCards(page).getByRole("heading")).toHaveText(all.map((project) => project.title));
    for (const project of all) {
      await expect(projectCards(page).getByRole("link", { name: "View Project" }).and(page.locator(`[href="/projects/${project.slug}"]`))).toHaveCount(1);
    }
  });

  test("a project page arrives with its facts in its first HTML", async ({ page, request }) => {
    const slug = "kutch-solar-park-grid-connection";
    const { project } = (await (await request.get(`/api/projects/${slug}`)).json()) as { project: Project & { description: string } };
    await page.goto(`/projects/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(project.title);
    await expect(page.locator("main")).toContainText(project.description);
    await expect(page.locator("main article > header [data-badge]")).toHaveText(project.category);
    const facts = page.locator("main article dl").first();
    const shown = await facts.locator("dt").evaluateAll((nodes) => nodes.map((node) => [node.textContent, node.nextElementSibling?.textContent]));
    expect(shown).toEqual(
      (
        [
          ["Year", project.year],
          ["Capacity", project.capacity],
          ["Timeline", project.timeline],
        ] as const
      ).filter(([, value]) => value),
    );
    expect(shown).toHaveLength(3);
  });
});
