import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { adminOrigin, useSession } from "./staff-sessions.ts";
import { editorReady, expectPublicStatus, uniqueTitle, visitorContext } from "./studio-helpers.ts";

// Projects in the studio in a real browser (docs/back-office.md, "Projects"): an admin adds a
// project, publishes it, and a visitor finds it on /projects and its page with the badge its
// category gives; its slug is changed and the old address answers 301 (issue 23's test). Then the
// projects' pages at a phone's and a desktop's width, without axe violations or sideways scrolling.

const projectUrl = (id: string) => `${adminOrigin}/admin/projects/${id}`;

function projectIdOf(page: Page): string {
  const match = /\/admin\/projects\/([0-9a-f-]{36})(?:[/?#]|$)/.exec(page.url());
  if (!match) throw new Error(`not a project's editor: ${page.url()}`);
  return match[1]!;
}

/** "New project" from the list, every field filled as a person would, saved as a draft: its id. */
async function createProject(page: Page, title: string, category = "Renewable Energy"): Promise<string> {
  await page.goto(`${adminOrigin}/admin/projects`);
  await page.getByRole("link", { name: "New project" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New project");
  await editorReady(page);
  const form = page.locator("form[data-studio-editor=project]");
  await form.getByLabel("Title", { exact: true }).fill(title);
  await form
    .getByLabel("Description", { exact: true })
    .fill("Grid connection studies for a 50 MW solar park: load flow, short circuit and reactive power capability.");
  await form.getByLabel("Category", { exact: true }).selectOption({ label: category });
  await form.getByLabel("Year", { exact: true }).fill("2026");
  await form.getByLabel("Capacity", { exact: true }).fill("50 MW");
  await form.getByLabel("Timeline", { exact: true }).fill("5 months");
  await form.getByLabel("Image", { exact: true }).selectOption({ index: 1 });
  // The chosen picture is shown.
  await expect(form.locator("img[data-studio-cover]")).toBeVisible();
  await page.getByRole("button", { name: "Save draft" }).click();
  await page.waitForURL(/\/admin\/projects\/[0-9a-f-]{36}\?notice=project-created$/);
  await expect(page.getByRole("status").filter({ hasText: "The project was created as a draft." })).toBeVisible();
  await editorReady(page);
  return projectIdOf(page);
}

test.describe("projects in the studio", () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("an admin adds a project and publishes it; a visitor finds it with its green badge; its slug changed, the old address answers 301", async ({
    page,
    browser,
    signIn,
  }) => {
    await signIn(page, "admin");
    const { title, slug } = uniqueTitle("Solar park grid connection");
    const id = await createProject(page, title);
    // The slug followed the title; the checklist has nothing missing.
    await expect(page.getByLabel("Slug", { exact: true })).toHaveValue(slug);
    await expect(page.locator("[data-studio-blockers]")).toHaveText(/Nothing is missing\./);

    // Autosave: a change is saved without pressing anything.
    await page.getByLabel("Timeline", { exact: true }).fill("6 months");
    await expect(page.locator("[data-studio-save-status]")).toHaveText(/^Saved at \d\d:\d\d$/, { timeout: 15_000 });

    const visitor = await visitorContext(browser);
    try {
      expect((await visitor.request.get(`/projects/${slug}`)).status()).toBe(404);
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.waitForURL(`${projectUrl(id)}?notice=project-published`);
      await expect(page.locator("[data-studio-public-state]")).toContainText(`On the site at /projects/${slug}`);
      await editorReady(page);

      await expectPublicStatus(visitor, `/projects/${slug}`, 200);
      const reader = await visitor.newPage();
      await reader.goto(`/projects/${slug}`);
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(reader.locator("main [data-badge]").first()).toHaveAttribute("data-badge", "green");
      await expect(reader.locator("main")).toContainText("6 months");
      await reader.goto("/projects");
      const card = reader.locator("main article").filter({ has: reader.getByRole("heading", { name: title }) });
      await expect(card.locator("[data-badge]")).toHaveAttribute("data-badge", "green");

      // Once public, the slug no longer follows the title; it is changed by hand and published.
      await page.getByLabel("Title", { exact: true }).fill(`${title} revised`);
      await expect(page.getByLabel("Slug", { exact: true })).toHaveValue(slug);
      const moved = `${slug}-revised`;
      await page.getByLabel("Slug", { exact: true }).fill(moved);
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.waitForURL(`${projectUrl(id)}?notice=project-published`);
      await expect(page.locator("[data-studio-public-state]")).toContainText(`On the site at /projects/${moved}`);

      await expectPublicStatus(visitor, `/projects/${moved}`, 200);
      const old = await visitor.request.get(`/projects/${slug}`, { maxRedirects: 0 });
      expect(old.status()).toBe(301);
      expect(new URL(old.headers().location!, "http://site.invalid").pathname).toBe(`/projects/${moved}`);
      await reader.goto(`/projects/${slug}`);
      await expect(reader).toHaveURL(new RegExp(`/projects/${moved}$`));
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(`${title} revised`);
    } finally {
      await visitor.close();
    }
  });

  /** The page's checks at 375 and 1280 px. */
  async function checkPage(page: Page, name: string, url: string, ready: () => Promise<void> = async () => {}) {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      await ready();
      await expectNoAxeViolations(page, `projects ${name} at ${width} px`);
      await expectNoOverflow(page, `projects ${name} at ${width} px`);
      await photograph(page, `studio-projects-${name}-${width}`);
    }
  }

  // A test per page, shared by the two workers.
  test("the list at 375 and 1280 px: no axe violations, no sideways overflow, photographed", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "admin");
    await checkPage(page, "list", `${adminOrigin}/admin/projects`);
  });

  test.describe("a project's pages", () => {
    /** This worker's project with two revisions, made once for the tests below. */
    let id: string;
    test.beforeAll(async ({ browser, workerStaff }) => {
      const context = await browser.newContext();
      try {
        await useSession(context, workerStaff.admin);
        const page = await context.newPage();
        const { title } = uniqueTitle("Harmonic filter for a cement plant");
        id = await createProject(page, title, "Industrial");
        // A second revision, so History has two to compare.
        await page.getByLabel("Capacity", { exact: true }).fill("6 MVAr detuned filter");
        await page.getByRole("button", { name: "Save draft" }).click();
        await page.waitForURL(`${projectUrl(id)}?notice=draft-saved`);
      } finally {
        await context.close();
      }
    });

    test("the editor at 375 and 1280 px: no axe violations, no sideways overflow, photographed", async ({
      page,
      signIn,
    }) => {
      await signIn(page, "admin");
      await checkPage(page, "editor", projectUrl(id), () => editorReady(page));
    });

    test("History at 375 and 1280 px: no axe violations, no sideways overflow, photographed", async ({
      page,
      signIn,
    }) => {
      await signIn(page, "admin");
      await checkPage(page, "history", `${projectUrl(id)}/history`);
    });

    test("Compare at 375 and 1280 px: no axe violations, no sideways overflow, photographed", async ({
      page,
      signIn,
    }) => {
      await signIn(page, "admin");
      await checkPage(page, "compare", `${projectUrl(id)}/compare`, () =>
        expect(page.locator("main")).toContainText("6 MVAr detuned filter"),
      );
    });
  });
});
