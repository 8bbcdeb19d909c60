import { expect, test } from "./fixtures.ts";

test.describe("articles", () => {
  test("an article shows its facts, byline, contents, body, related articles and the way back", async ({ page }) => {
    await page.goto("/blog/ieee-519-harmonics-at-a-vfd-heavy-plant");
    await page.locator("html[data-hydrated=true]").waitFor();
    await expect(page.locator("header time")).toHaveText("June 18, 2025");
    await expect(page.getByText(/^\d+ min read$/)).toBeVisible();
    await expect(page.locator("article [data-badge]").first()).toHaveText("Power Quality");
    const byline = page.getByRole("link", { name: "Neha Shah" });
    await expect(byline).toHaveAttribute("href", "/about#team-neha-shah");
    const contents = page.getByRole("navigation", { name: "In this article" });
    const firstEntry = contents.getByRole("link").first();
    const target = (await firstEntry.getAttribute("href"))!;
    await expect(page.locator(`.article-body ${target}`)).toHaveCount(1);
    await expect(page.locator(".article-body table")).toHaveCount(1);
    await expect(page.getByRole("heading", { name: "Related Articles" })).toBeVisible();
    await page.getByRole("link", { name: "Back to Insights" }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });

  test("the byline leads to the author on the About page", async ({ page }) => {
    await page.goto("/blog/arc-flash-studies-ieee-1584-2018");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.getByRole("link", { name: "Anil Patel" }).click();
    await expect(page).toHaveURL(/\/about#team-anil-patel$/);
    // Scrolled to the entry, as a full page load would be, not left at the top of the About page.
    await expect(page.locator("#team-anil-patel")).toBeInViewport();
  });

  test("Read More on the blog opens the article; an unknown article answers 404", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 404/);
    await page.goto("/blog");
    await page.locator("html[data-hydrated=true]").waitFor();
    const first = page.getByTestId("article-grid").getByRole("article").first();
    const title = (await first.getByRole("heading").textContent())!;
    await first.getByRole("link", { name: "Read More" }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const missing = await page.goto("/blog/no-such-article");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
  });
});

test.describe("articles without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an article arrives with its facts and body in its first HTML", async ({ page, request }) => {
    const slug = "ieee-519-harmonics-at-a-vfd-heavy-plant";
    const article = (await (await request.get(`/api/blog-posts/${slug}`)).json()) as {
      title: string;
      excerpt: string;
      category: string;
      readingMinutes: number;
      authorName: string;
      headings: { text: string; level: number }[];
    };
    await page.goto(`/blog/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(article.title);
    await expect(page.locator("main article > header")).toContainText(article.excerpt);
    await expect(page.locator("header time")).toHaveText("June 18, 2025");
    await expect(page.locator("article [data-badge]").first()).toHaveText(article.category);
    await expect(page.getByText(`${article.readingMinutes} min read`, { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: article.authorName })).toHaveAttribute("href", "/about#team-neha-shah");
    const sections = article.headings.filter((heading) => heading.level === 2).map((heading) => heading.text);
    await expect(page.locator(".article-body h2")).toHaveText(sections);
    await expect(page.locator(".article-body table")).toHaveCount(1);
  });
});
