import { expect, test } from "./fixtures.ts";

test("services lists 29 studies and calls to action", async ({ page }) => {
  await page.goto("/services");
  await expect(page.getByRole("heading", { level: 1, name: "Power System Studies" })).toBeVisible();
  // Each study is a list item with its name as a heading (the steps of "How we work" are an ordered
  // list; a section's testimonials, under their own heading, are figures).
  await expect(page.locator("main ul > li h3")).toHaveCount(29);
  await expect(page.getByRole("link", { name: "Schedule Consultation" })).toHaveAttribute("href", "/contact");
  await expect(page.getByRole("link", { name: "View Our Work" })).toHaveAttribute("href", "/projects");
});
