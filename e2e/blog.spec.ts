import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { storedSubscribers } from "./site-data.ts";

const grid = (page: Page) => page.getByTestId("article-grid");

async function openBlog(page: Page, path = "/blog") {
  await page.goto(path);
  await page.locator("html[data-hydrated=true]").waitFor();
}

test.describe("the blog", () => {
  test("searches title, excerpt or body ignoring case, filters by category, combines both, and keeps them in the URL", async ({
    page,
  }) => {
    await openBlog(page);
    const total = await grid(page).getByRole("article").count();
    await expect(page.getByRole("heading", { level: 2, name: `Latest Articles (${total})` })).toBeVisible();

    await page.getByRole("searchbox", { name: "Search articles" }).fill("HARMONIC");
    await expect(page).toHaveURL(/\/blog\?q=HARMONIC$/);
    await expect(grid(page).getByRole("article")).toHaveCount(2);
    const found = await grid(page).getByRole("article").count();
    expect(found).toBeGreaterThan(0);
    expect(found).toBeLessThan(total);
    await expect(page.getByRole("heading", { level: 2, name: `Found ${found} article(s)` })).toBeVisible();
    // The title's match at once; an article whose body alone says it once the site search answers
    // (docs/decisions/054-site-search.md): the battery article mentions harmonics in its body only.
    await expect(grid(page).getByRole("heading", { name: /IEEE 519/ })).toBeVisible();
    await expect(grid(page).getByRole("heading", { name: /Sizing a Battery/ })).toBeVisible();

    await page.getByRole("searchbox", { name: "Search articles" }).fill("");
    const filters = page.getByRole("list", { name: "Filter by category" });
    await expect(filters.getByRole("link").first()).toHaveText("All");
    await filters.getByRole("link", { name: "Renewable Energy" }).click();
    await expect(page).toHaveURL(/category=Renewable\+Energy/);
    await expect(filters.getByRole("link", { name: "Renewable Energy" })).toHaveAttribute("aria-current", "true");
    const renewable = grid(page).getByRole("article");
    for (const card of await renewable.all()) await expect(card.locator("[data-badge]")).toHaveText("Renewable Energy");

    await page.getByRole("searchbox", { name: "Search articles" }).fill("battery");
    await expect(page).toHaveURL(/q=battery&category=Renewable\+Energy/);
    await expect(page.getByRole("heading", { level: 2, name: "Found 1 article(s)" })).toBeVisible();

    await page.reload();
    await expect(page.getByRole("searchbox", { name: "Search articles" })).toHaveValue("battery");
    await expect(page.getByRole("heading", { level: 2, name: "Found 1 article(s)" })).toBeVisible();

    await page.getByRole("link", { name: "Clear Filters" }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole("heading", { level: 2, name: `Latest Articles (${total})` })).toBeVisible();
    await expect(page.getByRole("link", { name: "Clear Filters" })).toHaveCount(0);
  });

  test("says so when nothing matches", async ({ page }) => {
    await openBlog(page, "/blog?q=zzzz-no-such-thing");
    await expect(page.getByRole("heading", { name: "No Articles Found" })).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filter criteria.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Found 0 article(s)" })).toBeVisible();
  });

  for (const [width, columns] of [
    [375, 1],
    [800, 2],
    [1280, 3],
  ] as const) {
    test(`lays the articles out in ${columns} column(s) at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await openBlog(page);
      const template = await grid(page).evaluate((node) => getComputedStyle(node).gridTemplateColumns);
      expect(template.split(" ")).toHaveLength(columns);
    });
  }

  test("has the 'Stay Updated' box and the four 'Featured Topics'", async ({ page }) => {
    await openBlog(page);
    await expect(page.getByRole("heading", { name: "Stay Updated" })).toBeVisible();
    const topics = page.locator("section", { has: page.getByRole("heading", { name: "Featured Topics" }) });
    for (const topic of ["Smart Grid", "Renewables", "Regulations", "Power Quality"]) {
      await expect(topics.getByRole("link", { name: new RegExp(`^${topic}`) })).toBeVisible();
    }
  });

  test("subscribes to the newsletter once, and says what is wrong with a bad address", async ({ page }) => {
    await openBlog(page);
    const email = page.getByRole("textbox", { name: "Email address" });
    await email.fill("not-an-address");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Enter a valid email address" })).toBeVisible();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    const address = `reader.${Date.now()}@example.com`;
    await email.fill(address);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Check your inbox to confirm your subscription." }),
    ).toBeVisible();
    // The box answers first and stores the address after its answer (decision 044): soon, not
    // before; on a busy embedded database it waits its turn for the one connection.
    await expect
      .poll(async () => (await storedSubscribers()).filter((row) => row.email === address).length, {
        timeout: 20_000,
      })
      .toBe(1);
  });
});

test.describe("the blog's search form without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sends the search with its button, keeps the category, and the server answers the filtered list", async ({
    page,
  }) => {
    await page.goto("/blog?category=Renewable+Energy");
    await expect(page.getByRole("heading", { level: 2, name: /^Found \d+ article\(s\)$/ })).toBeVisible();
    await page.getByRole("searchbox", { name: "Search articles" }).fill("battery");
    await page.getByRole("main").getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/blog\?q=battery&category=Renewable\+Energy$/);
    await expect(page.getByRole("heading", { level: 2, name: "Found 1 article(s)" })).toBeVisible();
    await expect(grid(page).getByRole("article")).toHaveCount(1);
    await expect(grid(page).getByRole("article")).toContainText(/battery/i);
    await expect(page.getByRole("searchbox", { name: "Search articles" })).toHaveValue("battery");
  });
});

test("the search button sends the form before the page's scripts have run (here: never)", async ({
  page,
  pageGuard,
}) => {
  pageGuard.allow(/Failed to load resource/);
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto("/blog");
  await page.getByRole("searchbox", { name: "Search articles" }).fill("harmonic");
  await page.getByRole("main").getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\/blog\?q=harmonic$/);
  await expect(page.getByRole("heading", { level: 2, name: /^Found [1-9]\d* article\(s\)$/ })).toBeVisible();
  // Matched by title, or by body through the site search, on the server.
  await expect(grid(page).getByRole("heading", { name: /IEEE 519/ })).toBeVisible();
  await expect(grid(page).getByRole("heading", { name: /Sizing a Battery/ })).toBeVisible();
});
