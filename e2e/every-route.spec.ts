import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures.ts";
import { siteRoutes } from "./routes.ts";

// Every route: accessible (axe, WCAG 2.2 AA rules), complete in its first HTML, and
// photographed at three widths for a person to look at (test-results/screenshots).

for (const route of siteRoutes) {
  test.describe(`${route.path}`, () => {
    test("has no axe violations, at a phone's, a tablet's and a desktop's width", async ({ page, pageGuard }) => {
      // Three full axe scans of a whole page.
      test.setTimeout(60_000);
      pageGuard.allow(/status of 404/);
      for (const width of [375, 768, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(route.path);
        await page.locator("html[data-hydrated=true]").waitFor();
        const results = await new AxeBuilder({ page })
          .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
          .analyze();
        expect(
          results.violations.map(
            (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
          ),
          `at ${width} px`,
        ).toEqual([]);
      }
    });

    test("is photographed at 375, 768 and 1280 px", async ({ page, pageGuard }) => {
      test.setTimeout(60_000);
      pageGuard.allow(/status of 404/);
      for (const width of [375, 768, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(route.path);
        await page.locator("html[data-hydrated=true]").waitFor();
        const name = route.path === "/" ? "home" : route.path.slice(1).replaceAll("/", "_");
        await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
        // Nothing is wider than the screen.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(0);
      }
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const route of siteRoutes) {
    test(`${route.path} arrives with its heading and content in the first HTML`, async ({ page, pageGuard }) => {
      pageGuard.allow(/status of 404/);
      const response = await page.goto(route.path);
      expect(response?.status()).toBe("status" in route ? route.status : 200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(route.heading);
      await expect(page.locator("footer")).toContainText("© 2024");
    });
  }

  test("the home page shows its team, projects and articles from the database", async ({ page }) => {
    await page.goto("/");
    await expect(
      page.locator("section", { has: page.getByRole("heading", { name: "Meet Our Leadership" }) }).getByRole("article"),
    ).toHaveCount(3);
    await expect(
      page.locator("section", { has: page.getByRole("heading", { name: "Featured Projects" }) }).getByRole("article"),
    ).toHaveCount(2);
    await expect(
      page.locator("section", { has: page.getByRole("heading", { name: "Industry Insights" }) }).getByRole("article"),
    ).toHaveCount(3);
  });

  test("the blog's search and category filter work as a plain form and links", async ({ page }) => {
    await page.goto("/blog");
    await page.getByRole("searchbox", { name: "Search articles" }).fill("harmonic");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/blog\?q=harmonic/);
    await expect(page.getByRole("heading", { level: 2, name: /^Found \d+ article\(s\)$/ })).toBeVisible();
    await page.getByRole("link", { name: "Power Quality", exact: true }).click();
    await expect(page).toHaveURL(/category=Power\+Quality/);
    const titles = await page.getByTestId("article-grid").getByRole("heading").allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    await page.getByRole("link", { name: "Clear Filters" }).click();
    await expect(page.getByRole("heading", { level: 2, name: /^Latest Articles \(\d+\)$/ })).toBeVisible();
  });

  test("the newsletter form subscribes with a plain form post", async ({ page }) => {
    await page.goto("/blog");
    await page.getByRole("textbox", { name: "Email address" }).fill(`nojs.${Date.now()}@example.com`);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/blog\?subscribed=1#newsletter$/);
    await expect(page.getByText("Thank you for subscribing.")).toBeVisible();
  });
});
