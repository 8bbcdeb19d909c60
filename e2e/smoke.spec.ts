import { expect, test } from "./fixtures.ts";

test("the home page renders on the server and hydrates in the browser", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.locator("html[data-hydrated=true]").waitFor();
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
  await expect(page.locator("#site-menu")).toBeVisible();
});

test("the page is painted before its scripts are fetched, then hydrates", async ({ page }) => {
  await page.goto("/services");
  await page.locator("html[data-hydrated=true]").waitFor();
  const timings = await page.evaluate(() => ({
    firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
    scripts: (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((entry) => entry.name.endsWith(".js"))
      .map((entry) => ({ name: new URL(entry.name).pathname, fetchStart: entry.fetchStart })),
  }));
  const boot = timings.scripts.filter((script) => /\/assets\/boot-[\w-]+\.js$/.test(script.name));
  const others = timings.scripts.filter((script) => !boot.includes(script));
  expect(boot).toHaveLength(1);
  expect(others.length).toBeGreaterThan(1);
  for (const script of others) expect(script.fetchStart, script.name).toBeGreaterThan(timings.firstPaint);
});
