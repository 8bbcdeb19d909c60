import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

type Project = {
  slug: string;
  category: string;
  title: string;
  year: string;
  capacity: string | null;
  timeline: string | null;
};

const projectCards = (page: Page) => page.locator("main article");

test.describe("projects", () => {
  test("lists every project with the badge rule, filters by category, and links each to its page", async ({
    page,
    request,
  }) => {
    const all = (await (await request.get("/api/projects")).json()) as {
      slug: string;
      category: string;
      title: string;
    }[];
    await page.goto("/projects");
    await page.locator("html[data-hydrated=true]").waitFor();
    const cards = page.locator("main article");
    await expect(cards).toHaveCount(all.length);
    for (const project of all) {
      const card = cards.filter({ has: page.getByRole("heading", { name: project.title, exact: true }) });
      await expect(card.locator("[data-badge]")).toHaveAttribute(
        "data-badge",
        project.category === "Renewable Energy" ? "green" : "blue",
      );
      await expect(card.getByRole("link", { name: "View Project" })).toHaveAttribute(
        "href",
        `/projects/${project.slug}`,
      );
    }
    await page
      .getByRole("list", { name: "Filter projects by category" })
      .getByRole("link", { name: "Renewable Energy" })
      .click();
    await expect(cards).toHaveCount(all.filter((project) => project.category === "Renewable Energy").length);
  });

  test("each project has a page with its facts, related work and a call to action; an unknown one is 404", async ({
    page,
    pageGuard,
  }) => {
    pageGuard.allow(/status of 404/);
    await page.goto("/projects/kutch-solar-park-grid-connection");
    await expect(
      page.getByRole("heading", { level: 1, name: "300 MW Solar Park Grid Connection, Kutch" }),
    ).toBeVisible();
    for (const fact of ["Year", "Capacity", "Timeline"])
      await expect(page.locator("main dt", { hasText: fact }).first()).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Projects");
    await expect(page.getByRole("heading", { name: "Related Projects" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Discuss Your Project" }).first()).toHaveAttribute("href", "/contact");
    const missing = await page.goto("/projects/no-such-project");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
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

test.describe("projects without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("/projects arrives with every project from the database in its first HTML", async ({ page, request }) => {
    const all = (await (await request.get("/api/projects")).json()) as Project[];
    await page.goto("/projects");
    await expect(projectCards(page)).toHaveCount(all.length);
    await expect(projectCards(page).getByRole("heading")).toHaveText(all.map((project) => project.title));
    for (const project of all) {
      await expect(
        projectCards(page)
          .getByRole("link", { name: "View Project" })
          .and(page.locator(`[href="/projects/${project.slug}"]`)),
      ).toHaveCount(1);
    }
  });

  test("a project page arrives with its facts in its first HTML", async ({ page, request }) => {
    const slug = "kutch-solar-park-grid-connection";
    const { project } = (await (await request.get(`/api/projects/${slug}`)).json()) as {
      project: Project & { description: string };
    };
    await page.goto(`/projects/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(project.title);
    await expect(page.locator("main")).toContainText(project.description);
    await expect(page.locator("main article > header [data-badge]")).toHaveText(project.category);
    const facts = page.locator("main article dl").first();
    const shown = await facts
      .locator("dt")
      .evaluateAll((nodes) => nodes.map((node) => [node.textContent, node.nextElementSibling?.textContent]));
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
