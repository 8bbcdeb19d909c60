import { expect, test } from "./fixtures.ts";

test.describe("home", () => {
  test("has the spec's sections in order, with 3 team members, 2 projects and 3 articles", async ({ page }) => {
    await page.goto("/");
    await page.locator("html[data-hydrated=true]").waitFor();
    await expect(page.getByRole("link", { name: "Request Consultation" }).first()).toHaveAttribute("href", "/contact");
    await expect(page.getByRole("link", { name: "View Our Services" })).toHaveAttribute("href", "/services");
    const headings = await page.locator("main h2").allTextContents();
    const order = [
      "Core Services",
      "Fifteen years",
      "Meet Our Leadership",
      "Featured Projects",
      "What Our Clients Say",
      "Industry Insights",
    ];
    const positions = order.map((text) => headings.findIndex((heading) => heading.startsWith(text)));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    const services = page.locator("section", { has: page.getByRole("heading", { name: "Core Services" }) });
    for (const name of [
      "Grid Integration",
      "Renewable Energy Solutions",
      "System Design",
      "Reliability Analysis",
      "Regulatory Compliance",
      "Performance Optimization",
    ]) {
      await expect(services.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", "/services");
    }
    const about = page.locator("section", { has: page.getByRole("heading", { name: /^Fifteen years/ }) });
    for (const stat of ["15+", "200+", "95%", "25+"])
      await expect(about.getByText(stat, { exact: true })).toBeVisible();

    await expect(
      page.locator("section", { has: page.getByRole("heading", { name: "Meet Our Leadership" }) }).getByRole("article"),
    ).toHaveCount(3);
    const projects = page.locator("section", { has: page.getByRole("heading", { name: "Featured Projects" }) });
    await expect(projects.getByRole("article")).toHaveCount(2);
    await expect(projects.getByRole("link", { name: "View All Projects" })).toHaveAttribute("href", "/projects");
    await expect(projects.getByRole("link", { name: "View Project" }).first()).toHaveAttribute(
      "href",
      /^\/projects\/[a-z0-9-]+$/,
    );
    const testimonials = page.locator("section", { has: page.getByRole("heading", { name: "What Our Clients Say" }) });
    // The seed's three (content/testimonials), each with its five stars.
    for (const quote of [
      /^“Their connectivity study/,
      /^“The arc-flash study/,
      /^“We called them after repeated VFD trips/,
    ]) {
      const figure = testimonials.locator("figure", { hasText: quote });
      await expect(figure).toBeVisible();
      await expect(figure.getByRole("img", { name: "Rated 5 out of 5 stars" })).toBeVisible();
    }
    const insights = page.locator("section", { has: page.getByRole("heading", { name: "Industry Insights" }) });
    await expect(insights.getByRole("article")).toHaveCount(3);
    await expect(insights.getByRole("link", { name: "View All Articles" })).toHaveAttribute("href", "/blog");
    await expect(insights.getByRole("link", { name: "Read More" }).first()).toHaveAttribute(
      "href",
      /^\/blog\/[a-z0-9-]+$/,
    );
  });

  for (const width of [375, 1280]) {
    test(`keeps each featured project's category badge as wide as its text at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      const projects = page.locator("section", { has: page.getByRole("heading", { name: "Featured Projects" }) });
      for (const card of await projects.getByRole("article").all()) {
        const badge = (await card.locator("[data-badge]").boundingBox())!;
        const cardBox = (await card.boundingBox())!;
        expect(badge.width).toBeLessThan(cardBox.width / 2);
      }
    });
  }
});
