import type { Page } from "@playwright/test";
import { expectInDocumentOrder } from "./document-order.ts";
import { expect, test } from "./fixtures.ts";

type Member = { name: string };

const teamSection = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "Our Team" }) });

test("about has the story, mission, vision, values, the whole team and the certifications", async ({ page }) => {
  await page.goto("/about");
  for (const heading of ["Our Mission", "Our Vision", "Our Values", "Our Team", "Certifications & Partnerships"]) {
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
  }
  for (const value of ["Excellence", "Collaboration", "Innovation"])
    await expect(page.getByRole("heading", { name: value, exact: true })).toBeVisible();
  for (const name of ["IEEE Member", "PE Licensed", "NECA Partner", "ISO Certified"])
    await expect(page.getByText(name, { exact: true })).toBeVisible();
  const team = page.locator("section", { has: page.getByRole("heading", { name: "Our Team" }) }).getByRole("article");
  expect(await team.count()).toBeGreaterThanOrEqual(6);
  await expect(team.first().getByRole("link", { name: /^Email / })).toHaveAttribute("href", /^mailto:/);
});

test("about has the spec's sections in order: story, mission, vision, stats, values, team, certifications", async ({
  page,
}) => {
  await page.goto("/about");
  await expectInDocumentOrder({
    story: page.getByText("Our story", { exact: true }),
    mission: page.getByRole("heading", { name: "Our Mission" }),
    vision: page.getByRole("heading", { name: "Our Vision" }),
    stats: page.locator("main dl").filter({ hasText: "Years of Experience" }),
    values: page.getByRole("heading", { name: "Our Values" }),
    team: page.getByRole("heading", { name: "Our Team" }),
    certifications: page.getByRole("heading", { name: "Certifications & Partnerships" }),
  });
  for (const stat of ["15+", "200+", "95%", "25+"])
    await expect(page.locator("main dl").getByText(stat, { exact: true })).toBeVisible();
});

test.describe("about without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("arrives with the whole team from the database in its first HTML", async ({ page, request }) => {
    const all = (await (await request.get("/api/team-members")).json()) as Member[];
    expect(all.length).toBeGreaterThanOrEqual(6);
    await page.goto("/about");
    const cards = teamSection(page).getByRole("article");
    await expect(cards).toHaveCount(all.length);
    await expect(cards.getByRole("heading")).toHaveText(all.map((member) => member.name));
  });
});
