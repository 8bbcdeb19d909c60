import type { Page, Route } from "@playwright/test";
import { expectInDocumentOrder } from "./document-order.ts";
import { expect, test } from "./fixtures.ts";

type Member = { name: string };

const teamSection = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "Our Team" }) });

/** Reaches /about by a client-side navigation, so the page loads the team itself. */
async function navigateToAbout(page: Page) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/services");
  await page.locator("html[data-hydrated=true]").waitFor();
  await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "About" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Engineers of reliable power systems" })).toBeVisible();
}

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

test("about has the spec's sections in order: story, mission, vision, stats, values, team, certifications", async ({ page }) => {
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
  for (const stat of ["15+", "200+", "95%", "25+"]) await expect(page.locator("main dl").getByText(stat, { exact: true })).toBeVisible();
});

test.describe("about, when the browser loads the team itself", () => {
  test("shows the team heading and no members until the team arrives, then every member", async ({ page, request }) => {
    const all = (await (await request.get("/api/team-members")).json()) as Member[];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    await page.route("**/api/team-members", async (route) => {
      asked += 1;
      await held;
      await route.continue();
    });
    await navigateToAbout(page);
    await expect(teamSection(page).getByRole("heading", { name: "Our Team" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Our Values" })).toBeVisible();
    await expect.poll(() => asked).toBe(1);
    await expect(teamSection(page).getByRole("article")).toHaveCount(0);
    release();
    await expect(teamSection(page).getByRole("article")).toHaveCount(all.length);
  });

  for (const [name, fail] of [
    ["a failing", (route: Route) => route.fulfill({ status: 500, body: "boom" })],
    ["an unreachable", (route: Route) => route.abort("connectionrefused")],
  ] as const) {
    test(`still shows the rest of the page, without team members, for ${name} API`, async ({ page, pageGuard }) => {
      pageGuard.allow(/status of 500|ERR_CONNECTION_REFUSED/);
      const answered = page.waitForEvent("requestfinished", (request) => request.url().endsWith("/api/team-members")).catch(() => undefined);
      const failed = page.waitForEvent("requestfailed", (request) => request.url().endsWith("/api/team-members")).catch(() => undefined);
      await page.route("**/api/team-members", fail);
      await navigateToAbout(page);
      await Promise.race([answered, failed]);
      await expect(teamSection(page).getByRole("heading", { name: "Our Team" })).toBeVisible();
      await expect(teamSection(page).getByRole("article")).toHaveCount(0);
      for (const heading of ["Our Mission", "Our Values", "Certifications & Partnerships"]) {
        await expect(page.getByRole("heading", { name: heading })).toBeVisible();
      }
      await expect(page.getByRole("link", { name: "Request Consultation" }).first()).toHaveAttribute("href", "/contact");
    });
  }
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
