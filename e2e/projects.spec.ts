import { expect, test } from "./fixtures.ts";

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
});
