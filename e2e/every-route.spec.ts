import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph, widths } from "./page-checks.ts";
import { siteRoutes } from "./routes.ts";

// Every route: accessible (axe), fitting the screen and photographed at three widths for a person
// to look at (test-results/screenshots), and complete in its first HTML.

/**
 * Axe scans each route once, at the desktop's width, where every column and the whole navigation
 * show; and the home page at the phone's width too, for the header's menu button. The header and
 * footer are the same on every route, and the width changes the layout (checked at every width
 * below), not the markup axe reads.
 */
const axeWidths = (path: string): readonly number[] => (path === "/" ? [375, 1280] : [1280]);

for (const route of siteRoutes) {
  test(`${route.path} has no axe violations and fits the screen at 375, 768 and 1280 px`, async ({
    page,
    pageGuard,
  }) => {
    test.setTimeout(60_000);
    pageGuard.allow(/status of 404/);
    const name = route.path === "/" ? "home" : route.path.slice(1).replaceAll("/", "_");
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(route.path);
      await page.locator("html[data-hydrated=true]").waitFor();
      if (axeWidths(route.path).includes(width)) await expectNoAxeViolations(page, `${route.path} at ${width} px`);
      await expectNoOverflow(page, `${route.path} at ${width} px`);
      await photograph(page, `${name}-${width}`);
    }
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
    await page.getByRole("main").getByRole("button", { name: "Search" }).click();
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
    await expect(page.getByText("Check your inbox to confirm your subscription.")).toBeVisible();
  });
});
