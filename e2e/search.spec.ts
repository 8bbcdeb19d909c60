import { expect, test } from "./fixtures.ts";
import { baseURL } from "../playwright.config.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { createArticle, publishable, uniqueTitle, uniqueWord } from "./studio-helpers.ts";

// The site search (docs/decisions/054-site-search.md): the header's box on every page, the
// results page with the words found marked, the same without JavaScript, accessible and fitting
// at a phone's and a desktop's width. "server racks" is only in one seeded article's body.

const ARTICLE = "Sizing a Battery for Peak Shaving: A Method for Commercial HT Consumers";
const RESULTS = "/search?q=server+racks";

test("the header's box searches from the home page, and the result marks the phrase in its excerpt", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  await page.locator("html[data-hydrated=true]").waitFor();
  const header = page.getByRole("search", { name: "Site" });
  await header.getByRole("searchbox", { name: "Search the site" }).fill("server racks");
  await header.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(RESULTS);
  await expect(page.getByRole("heading", { name: "1 result for “server racks”" })).toBeVisible();
  const results = page.getByTestId("search-results");
  await expect(results.getByRole("link", { name: ARTICLE })).toHaveAttribute(
    "href",
    "/blog/bess-sizing-for-commercial-peak-shaving",
  );
  await expect(results.locator("mark")).toHaveText(["server racks"]);
  await photograph(page, "search-results-1280");
});

for (const width of [375, 1280]) {
  test(`the results page has no axe violations and fits the screen at ${width} px`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(RESULTS);
    await page.locator("html[data-hydrated=true]").waitFor();
    await expectNoAxeViolations(page, `${RESULTS} at ${width} px`);
    await expectNoOverflow(page, `${RESULTS} at ${width} px`);
    await page.goto("/search?q=qwzrtplk");
    await expect(page.getByRole("heading", { name: "No results for “qwzrtplk”" })).toBeVisible();
    await expectNoAxeViolations(page, `no results at ${width} px`);
    await photograph(page, `search-none-${width}`);
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a phone reaches the search from the header and searches with the plain form", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Search" }).click();
    await expect(page).toHaveURL("/search");
    await expect(page.getByRole("heading", { name: "What are you looking for?" })).toBeVisible();
    await page.locator("#search-query").fill("server racks");
    await page.locator("#search-query").press("Enter");
    await expect(page).toHaveURL(RESULTS);
    await expect(page.getByTestId("search-results").getByRole("link", { name: ARTICLE })).toBeVisible();
    await expect(page.getByTestId("search-results").locator("mark")).toHaveText(["server racks"]);
    await photograph(page, "search-results-375");
  });

  test("an overlong search is refused on the page with a 400", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 400/);
    const response = await page.goto(`/search?q=${"a".repeat(201)}`);
    expect(response?.status()).toBe(400);
    await expect(page.getByRole("heading", { name: "Search for at most 200 characters" })).toBeVisible();
  });
});

test("'IEEE-519' finds the articles that write 'IEEE 519', marked in their excerpts", async ({ page }) => {
  await page.goto("/search?q=IEEE-519");
  const results = page.getByTestId("search-results");
  await expect(results.getByRole("link", { name: /IEEE 519 at a Drive-Heavy Plant/ })).toBeVisible();
  await expect(results.locator("mark").first()).toHaveText("IEEE 519");
});

test("a draft's unique word finds nothing", async ({ page, signIn, pageGuard }) => {
  test.setTimeout(90_000);
  // The back office is on localhost (passkeys refuse a bare IP), the public site on 127.0.0.1.
  pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  const word = uniqueWord().toLowerCase();
  await signIn(page, "admin");
  await createArticle(page, {
    ...publishable(uniqueTitle("A draft search must not find").title),
    body: `Only this draft says ${word}.`,
  });
  const visitor = await page.context().browser()!.newPage({ baseURL });
  await visitor.goto(`/search?q=${word}`);
  await expect(visitor.getByRole("heading", { name: `No results for “${word}”` })).toBeVisible();
  await expect(visitor.getByTestId("search-results")).toHaveCount(0);
  await visitor.close();
});
