import { expect, test } from "./fixtures.ts";

test("about has the story, mission, vision, values, the whole team and the certifications", async ({ page }) => {
  await page.goto("/about");
  for (const heading of ["Our Mission", "Our Vision", "Our Values", "Our Team", "Certifications & Partnerships"]) {
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
  }
  for (const value of ["Excellence", "Collaboration", "Innovation"]) await expect(page.getByRole("heading", { name: value, exact: true })).toBeVisible();
  for (const name of ["IEEE Member", "PE Licensed", "NECA Partner", "ISO Certified"]) await expect(page.getByText(name, { exact: true })).toBeVisible();
  const team = page.locator("section", { has: page.getByRole("heading", { name: "Our Team" }) }).getByRole("article");
  expect(await team.count()).toBeGreaterThanOrEqual(6);
  await expect(team.first().getByRole("link", { name: /^Email / })).toHaveAttribute("href", /^mailto:/);
});
