import type { Locator, Page } from "@playwright/test";
import { baseURL } from "../playwright.config.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { adminOrigin } from "./staff-sessions.ts";
import { uniqueWord, visitorContext } from "./studio-helpers.ts";

// The team in the studio in a real browser (docs/back-office.md, "The team"): a member added and
// moved to the top with the keyboard alone is first on the home page (issue 23's test), on the
// About page and in the articles' Author select; dragging a row saves the new order; the pages at
// a phone's and a desktop's width, without axe violations or sideways scrolling. The tests share
// the browser tests' one site, so each puts the team back as it found it (its member to the trash).

const teamUrl = `${adminOrigin}/admin/team`;

/** The team list's table, by its region. */
const teamTable = (page: Page): Locator => page.getByRole("region", { name: "Team members" });

/** A member's row of the team list, by their name. */
const rowOf = (page: Page, name: string): Locator =>
  teamTable(page)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name }) });

/** The names of the team list, first to last. */
const listedNames = async (page: Page): Promise<string[]> => teamTable(page).getByRole("rowheader").allInnerTexts();

/** "Add a member" from the team list, filled and added: the member's id. */
async function addMember(
  page: Page,
  fields: { name: string; title: string; expertise: string },
  shown: boolean,
): Promise<string> {
  await page.goto(teamUrl);
  await page.getByRole("link", { name: "Add a member" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New team member");
  const form = page.getByRole("form", { name: "New team member" });
  await form.getByLabel("Name", { exact: true }).fill(fields.name);
  await form.getByLabel("Title", { exact: true }).fill(fields.title);
  await form.getByLabel("Expertise", { exact: true }).fill(fields.expertise);
  await form.getByLabel("Photo", { exact: true }).selectOption({ index: 1 });
  await form.getByLabel("Email", { exact: true }).fill(`${uniqueWord().toLowerCase()}@example.com`);
  await form.getByLabel("LinkedIn", { exact: true }).fill("https://www.linkedin.com/in/example-engineer");
  await form.getByRole("radio", { name: shown ? /^Shown/ : /^Hidden/ }).check();
  await form.getByRole("button", { name: "Add member" }).click();
  await page.waitForURL(/\/admin\/team\/[0-9a-f-]{36}\?notice=team-member-created-(shown|hidden)$/);
  return /\/admin\/team\/([0-9a-f-]{36})/.exec(page.url())![1]!;
}

/** Moves a member to the trash from their page: off the site, and out of the others' way. */
async function trash(page: Page, id: string): Promise<void> {
  await page.goto(`${teamUrl}/${id}`);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Move to trash" }).click();
  await page.waitForURL(`${teamUrl}?notice=team-member-trashed`);
}

/** The team cards of a public page's team section, first to last. */
const cardNames = (page: Page, heading: string): Promise<string[]> =>
  page
    .locator("section", { has: page.getByRole("heading", { name: heading }) })
    .getByRole("article")
    .getByRole("heading")
    .allInnerTexts();

test.describe("the team in the studio", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("an admin adds a member and moves them to the top with the keyboard: the home page shows them first, the About page too, and articles can name them", async ({
    page,
    browser,
    signIn,
  }) => {
    await signIn(page, "admin");
    const name = `Ishaan ${uniqueWord()}`;
    const id = await addMember(
      page,
      { name, title: "Lead Engineer, Grid Studies", expertise: "Load flow and short-circuit studies" },
      true,
    );
    await expect(
      page.getByRole("status").filter({ hasText: "The member was added and is on the site now." }),
    ).toBeVisible();

    // Last in the team; to the top with Enter on "Move up", the focus back on it after each move.
    await page.goto(teamUrl);
    const names = await listedNames(page);
    expect(names.at(-1)).toBe(name);
    const moveUp = rowOf(page, name).getByRole("button", { name: `Move up ${name}` });
    await moveUp.focus();
    for (let place = names.length; place > 1; place -= 1) {
      await page.keyboard.press("Enter");
      await page.waitForURL(new RegExp(`notice=team-moved&focus=up-${id}$`));
      await expect(
        page.getByRole("status").filter({ hasText: "Moved. The site shows the new order now." }),
      ).toBeVisible();
      await expect(rowOf(page, name).locator("[data-team-position]")).toHaveText(String(place - 1));
      // At the top "Move up" is disabled, so the focus is on "Move down" of the same member.
      await expect(
        rowOf(page, name).getByRole("button", { name: place - 1 === 1 ? `Move down ${name}` : `Move up ${name}` }),
      ).toBeFocused();
    }
    expect((await listedNames(page))[0]).toBe(name);
    await expect(rowOf(page, name).getByRole("button", { name: `Move up ${name}` })).toBeDisabled();

    // A visitor's home page and About page show them first.
    const visitor = await visitorContext(browser);
    try {
      const home = await visitor.newPage();
      await expect
        .poll(
          async () => {
            await home.goto(`${baseURL}/`);
            return (await cardNames(home, "Meet Our Leadership"))[0];
          },
          { timeout: 15_000 },
        )
        .toBe(name);
      expect(await cardNames(home, "Meet Our Leadership")).toHaveLength(3);
      await home.goto(`${baseURL}/about`);
      expect((await cardNames(home, "Our Team"))[0]).toBe(name);
    } finally {
      await visitor.close();
    }

    // An article's author is chosen from the team: they are among the choices.
    await page.goto(`${adminOrigin}/admin/articles/new`);
    await expect(page.getByLabel("Author", { exact: true }).locator("option", { hasText: name })).toHaveCount(1);

    await trash(page, id);
    expect(await listedNames(page)).not.toContain(name);
  });

  test("dragging a row by its handle saves the new order", async ({ page, signIn }) => {
    // Tall enough for the whole team: the mouse drags within the window.
    await page.setViewportSize({ width: 1280, height: 1600 });
    await signIn(page, "admin");
    const name = `Dhruv ${uniqueWord()}`;
    // Hidden: the public pages do not change while it moves about.
    const id = await addMember(
      page,
      { name, title: "Engineer, Protection", expertise: "Relay settings and coordination" },
      false,
    );
    await page.goto(teamUrl);
    await page.locator("tbody[data-team-order-ready=true]").waitFor();
    const before = await listedNames(page);
    expect(before.at(-1)).toBe(name);
    await expect(page.getByText("or drag a row by its")).toBeVisible();

    // Its handle, dragged with the mouse to the upper half of the second row.
    const handle = rowOf(page, name).locator("[data-drag-handle]");
    const target = rowOf(page, before[1]!);
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, to.y + to.height / 4, { steps: 12 });
    // While dragged, the row is already where it would go.
    expect((await listedNames(page))[1]).toBe(name);
    await page.mouse.up();
    await page.waitForURL(`${teamUrl}?notice=team-reordered`);
    await expect(page.getByRole("status").filter({ hasText: "The new order is saved." })).toBeVisible();
    expect(await listedNames(page)).toEqual([before[0], name, ...before.slice(1, -1)]);
    await expect(rowOf(page, name).locator("[data-team-position]")).toHaveText("2");

    await trash(page, id);
    expect(await listedNames(page)).toEqual(before.slice(0, -1));
  });

  test("the list, a member's page and a new member's page at 375 and 1280 px: no axe violations, no sideways overflow, photographed", async ({
    page,
    pageGuard,
    signIn,
  }) => {
    test.setTimeout(180_000);
    // The refused form at the end is a 422 page.
    pageGuard.allow(/status of 422/);
    await signIn(page, "admin");
    const name = `Farah ${uniqueWord()}`;
    const id = await addMember(
      page,
      {
        name,
        title: "Senior Engineer, Power Quality and Harmonic Studies",
        expertise: "Harmonic measurement, filter design and flicker studies",
      },
      false,
    );
    const pages = [
      { name: "list", url: teamUrl },
      { name: "member", url: `${teamUrl}/${id}` },
      { name: "new", url: `${teamUrl}/new` },
    ];
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const entry of pages) {
        await page.goto(entry.url);
        if (entry.name === "list") await page.locator("tbody[data-team-order-ready=true]").waitFor();
        await expectNoAxeViolations(page, `team ${entry.name} at ${width} px`);
        await expectNoOverflow(page, `team ${entry.name} at ${width} px`);
        await photograph(page, `team-${entry.name}-${width}`);
      }
    }
    // A refused form shows its problems at their fields, still clean.
    await page.goto(`${teamUrl}/${id}`);
    await page.getByLabel("Name", { exact: true }).fill("");
    await page.getByLabel("Email", { exact: true }).fill("x@y");
    // The browser's own checks aside, to see the server's answer.
    await page.locator("form[data-team-member-form]").evaluate((form) => form.setAttribute("novalidate", ""));
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(page, "team member refused at 1280 px");
    await trash(page, id);
  });
});
