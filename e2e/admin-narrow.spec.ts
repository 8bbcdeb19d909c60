import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { storeEnquiry } from "../src/server/db/contact-repository.ts";
import { newsletterSubscribers } from "../src/server/db/schema.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { readSiteDatabase, uniqueEmail } from "./site-data.ts";
import { adminOrigin } from "./staff-sessions.ts";
import { bodyField, createArticle, editorReady, editorUrl, publishable, uniqueTitle } from "./studio-helpers.ts";

// The back office on a phone (375 px): every table's actions are on the screen without scrolling
// sideways (below 640 px a table's rows are cards, src/web/admin/ui/data-table.tsx), the
// navigation is one row, and the editor's toolbar stays in view while the writer types far down.
// docs/back-office.md, "On a phone".

const PHONE = { width: 375, height: 800 };

/** Every control in `region` (links, buttons, fields) lies within the screen's width, and the region does not scroll. */
async function expectActionsInReach(region: Locator, where: string): Promise<void> {
  const found = await region.evaluate((element) => {
    const width = document.documentElement.clientWidth;
    const outside = [...element.querySelectorAll<HTMLElement>("a, button, select, input:not([type=hidden])")]
      .filter((control) => control.getClientRects().length > 0)
      .filter((control) => {
        const box = control.getBoundingClientRect();
        return box.left < 0 || box.right > width + 0.5;
      })
      .map((control) => `${control.tagName.toLowerCase()} "${control.textContent?.trim().slice(0, 40)}"`);
    return {
      controls: element.querySelectorAll("a, button, select").length,
      outside,
      scrolls: element.scrollWidth > element.clientWidth,
    };
  });
  expect(found.controls, `${where}: the table has controls to check`).toBeGreaterThan(0);
  expect(found.outside, `${where}: controls off the screen`).toEqual([]);
  expect(found.scrolls, `${where}: the table scrolls sideways`).toBe(false);
}

async function checkNarrowPage(page: Page, name: string, url: string, region: string): Promise<void> {
  await page.goto(url);
  await expectActionsInReach(page.getByRole("region", { name: region, exact: true }), name);
  // One row of navigation: its height is one entry's.
  const navigation = page.getByRole("navigation", { name: "Back office" }).getByRole("list");
  const entry = await navigation.getByRole("link").first().boundingBox();
  const row = await navigation.boundingBox();
  expect(row!.height, `${name}: the navigation is one row`).toBeLessThan(entry!.height * 1.6);
  // The current entry is in view within it.
  const current = await navigation.locator('[aria-current="page"]').boundingBox();
  expect(current!.x, `${name}: the current entry is shown`).toBeGreaterThanOrEqual(0);
  expect(current!.x + current!.width, `${name}: the current entry is shown`).toBeLessThanOrEqual(PHONE.width);
  await expectNoOverflow(page, `${name} at 375 px`);
  await expectNoAxeViolations(page, `${name} at 375 px`);
  await photograph(page, `admin-narrow-${name}-375`);
}

test.describe("the back office at 375 px", () => {
  test.describe.configure({ timeout: 120_000 });
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("the inbox, the studio's lists, History, the team, subscribers and staff: every row's actions in reach, the menu one row", async ({
    page,
    signIn,
  }) => {
    await readSiteDatabase((db) =>
      storeEnquiry(db, {
        data: {
          firstName: "Narrow",
          lastName: "Screen",
          email: uniqueEmail("narrow"),
          company: "A company with a rather long name, Private Limited",
          service: "grid-integration",
          message: "A connectivity study for a 120 MW solar plant at 220 kV.",
        } as never,
        idempotencyKey: randomUUID(),
        spamReason: null,
        mail: { configured: false, acknowledge: false },
      }),
    );
    await readSiteDatabase((db) =>
      db
        .insert(newsletterSubscribers)
        .values({ email: uniqueEmail("narrow-reader"), status: "confirmed", confirmedAt: new Date() }),
    );
    await signIn(page, "admin");
    await checkNarrowPage(page, "inbox", `${adminOrigin}/admin`, "Enquiries");
    await checkNarrowPage(page, "articles", `${adminOrigin}/admin/articles`, "Articles");
    await checkNarrowPage(page, "projects", `${adminOrigin}/admin/projects`, "Projects");
    await checkNarrowPage(page, "team", `${adminOrigin}/admin/team`, "Team members");
    await checkNarrowPage(page, "staff", `${adminOrigin}/admin/staff`, "Members of staff");
    await checkNarrowPage(page, "subscribers", `${adminOrigin}/admin/subscribers`, "Subscribers");

    // An article of two revisions: History's Restore on the older one, in reach.
    const { title } = uniqueTitle("Earthing grid on a narrow screen");
    const id = await createArticle(page, publishable(title, "A first draft of the body, long enough to read."));
    await bodyField(page).fill("A second draft of the body, long enough to read.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(`${editorUrl(id)}?notice=draft-saved`);
    await page.getByRole("link", { name: "History" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("History");
    await checkNarrowPage(page, "history", page.url(), "Revisions");
  });

  test("the editor's toolbar stays in view while typing at the end of a long body", async ({ page, signIn }) => {
    await signIn(page, "publisher");
    const { title } = uniqueTitle("Cable sizing for a long feeder");
    const paragraphs = Array.from(
      { length: 40 },
      (_, index) => `Paragraph ${index + 1}: the voltage drop along the feeder is checked at full load.`,
    );
    const id = await createArticle(page, publishable(title, paragraphs.join("\n\n")));
    await page.goto(editorUrl(id));
    await editorReady(page);
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    await expect(toolbar).toBeVisible();
    const body = bodyField(page);
    await body.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" Typed at the end.");
    // The body grows with its text, far past the screen: the caret is far below where the
    // toolbar started, and the toolbar is still on the screen.
    expect((await body.boundingBox())!.height).toBeGreaterThan(PHONE.height * 2);
    const box = (await toolbar.boundingBox())!;
    expect(box.y, "the toolbar is in view").toBeGreaterThanOrEqual(0);
    expect(box.y + box.height, "the toolbar is in view").toBeLessThanOrEqual(PHONE.height);
    await photograph(page, "admin-narrow-editor-toolbar-375");
  });
});
