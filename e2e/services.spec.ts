import { expect, test } from "./fixtures.ts";

test("services lists 29 studies and calls to action", async ({ page }) => {
  await page.goto("/services");
  await expect(page.getByRole("heading", { level: 1, name: "Power System Studies" })).toBeVisible();
  await expect(page.locator("main h3").filter({ hasNot: page.locator("span") })).toHaveCount(29);
  await expect(page.getByRole("link", { name: "Schedule Consultation" })).toHaveAttribute("href", "/contact");
  await expect(page.getByRole("link", { name: "View Our Work" })).toHaveAttribute("href", "/projects");
});
