import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { adminOrigin, useSession } from "./staff-sessions.ts";
import {
  articleIdOf,
  bodyField,
  createArticle,
  editorReady,
  editorUrl,
  publishable,
  uniqueTitle,
} from "./studio-helpers.ts";

// The studio's pages for everyone: at a phone's and a desktop's width without axe violations or
// sideways scrolling, with the keyboard alone, and with JavaScript off (every button a plain form
// post). docs/back-office.md, "Content studio".

test.describe("the studio's pages", () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  /**
   * The page's checks at 375 and 1280 px, once `ready` (given the width) says it is drawn. The
   * editor's markup changes with the width (a tab pair below 1024 px), so each width is scanned.
   */
  async function checkPage(page: Page, name: string, url: string, ready?: (width: number) => Promise<void>) {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      await ready?.(width);
      await expectNoAxeViolations(page, `studio ${name} at ${width} px`);
      await expectNoOverflow(page, `studio ${name} at ${width} px`);
      await photograph(page, `studio-${name}-${width}`);
    }
  }

  // A test per page, shared by the two workers.
  test("the list at 375 and 1280 px: no axe violations, no sideways overflow, photographed", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "admin");
    await checkPage(page, "list", `${adminOrigin}/admin/articles`);
  });

  test.describe("an article's pages", () => {
    /** This worker's article with two revisions, made once for the tests below. */
    let id: string;
    test.beforeAll(async ({ browser, workerStaff }) => {
      const context = await browser.newContext();
      try {
        await useSession(context, workerStaff.admin);
        const page = await context.newPage();
        const { title } = uniqueTitle("Protection settings for a 33 kV feeder");
        const body = [
          "Settings are chosen from the fault levels.",
          "",
          "## Fault levels",
          "",
          "| Bus | Three-phase (kA) | Single-phase (kA) |",
          "| --- | --- | --- |",
          "| 33 kV main | 12.5 | 9.8 |",
          "| 11 kV feeder | 8.1 | 6.4 |",
          "",
          "Ask [our team](/contact) for the study.",
        ].join("\n");
        id = await createArticle(page, publishable(title, body));
        // A second revision, so History has two to compare and Compare has lines added and removed.
        await bodyField(page).fill(body.replace("12.5", "13.1").concat("\n\nA line added in revision 2."));
        await page.getByRole("button", { name: "Save draft" }).click();
        await page.waitForURL(`${editorUrl(id)}?notice=draft-saved`);
      } finally {
        await context.close();
      }
    });

    test("the editor at 375 and 1280 px, and its preview tab at 375 px: no axe violations, no sideways overflow, photographed", async ({
      page,
      signIn,
    }) => {
      await signIn(page, "admin");
      await checkPage(page, "editor", editorUrl(id), async (width) => {
        await editorReady(page);
        // The live preview has rendered beside the text (at 375 px it is behind its tab, below).
        if (width === 1280) await expect(page.locator("[data-studio-preview] table")).toBeVisible();
      });
      // At 375 px the preview is behind its tab.
      await page.setViewportSize({ width: 375, height: 900 });
      await page.goto(editorUrl(id));
      await editorReady(page);
      const tabs = page.getByRole("tablist", { name: "Body" });
      await tabs.getByRole("tab", { name: "Preview" }).click();
      await expect(page.locator("[data-studio-preview] table")).toBeVisible();
      await expect(bodyField(page)).toBeHidden();
      await expectNoAxeViolations(page, "studio editor's preview tab at 375 px");
      await expectNoOverflow(page, "studio editor's preview tab at 375 px");
      await photograph(page, "studio-editor-preview-tab-375");
    });

    test("History at 375 and 1280 px: no axe violations, no sideways overflow, photographed", async ({
      page,
      signIn,
    }) => {
      await signIn(page, "admin");
      await checkPage(page, "history", `${adminOrigin}/admin/articles/${id}/history`);
    });

    test("Compare at 375 and 1280 px: no axe violations, no sideways overflow, photographed", async ({
      page,
      signIn,
    }) => {
      await signIn(page, "admin");
      await checkPage(page, "compare", `${adminOrigin}/admin/articles/${id}/compare`, () =>
        expect(page.locator("main")).toContainText("A line added in revision 2."),
      );
    });
  });

  test("Compare of two revisions far apart: the first changes shown, the lines past them counted, at 375 and 1280 px", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "admin");
    // 3,000 lines, a tenth of them changed in the second revision: more changes than one
    // comparison shows (SHOWN_LINES_MAX), and more unchanged runs than its folds carry.
    const line = (index: number, word: string) => `Relay ${String(index).padStart(4, "0")} set to ${word}.`;
    const lines = (changed: boolean) =>
      Array.from({ length: 3000 }, (_, index) => line(index, changed && index % 10 === 5 ? "trip" : "alarm")).join(
        "\n",
      );
    const { title } = uniqueTitle("Relay settings, revised");
    const id = await createArticle(page, publishable(title, "Relay settings follow."));
    // The long bodies set as a paste would (Playwright's fill of 3,000 lines takes Chromium about
    // 15 s of its own text insertion), then saved by the button.
    for (const body of [lines(false), lines(true)]) {
      await bodyField(page).evaluate((field: HTMLTextAreaElement, text) => {
        Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!.call(field, text);
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }, body);
      // The same address after each save: the editor's page loaded again is what says it was saved.
      const saved = page.waitForResponse(
        (response) => response.url() === `${editorUrl(id)}?notice=draft-saved` && response.ok(),
      );
      await page.getByRole("button", { name: "Save draft" }).click();
      await saved;
    }
    await checkPage(page, "compare-far-apart", `${adminOrigin}/admin/articles/${id}/compare`, async () => {
      const main = page.locator("main");
      await expect(main).toContainText("Relay 0005 set to trip.");
      await expect(main).toContainText(/more lines not shown: too many changes to show on one page/);
      await expect(main).toContainText(/unchanged lines, too many to show here/);
      // The last change is past what the page shows.
      await expect(main).not.toContainText("Relay 2995 set to trip.");
    });
  });

  test("the editor with the keyboard alone: Tab through the fields and the toolbar, a toolbar button by key, Save draft by key", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "staff");
    const { title } = uniqueTitle("Keyboard article");
    // Nothing missing, so the publish checklist has no links between Publish date and Save draft.
    const id = await createArticle(page, publishable(title, "Line one."));
    await page.goto(editorUrl(id));
    await editorReady(page);

    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element) return "";
        const labelled = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined;
        return (labelled ?? element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
      });
    await page.getByLabel("Title", { exact: true }).focus();
    const order: string[] = [await focused()];
    for (let step = 0; step < 10; step++) {
      await page.keyboard.press("Tab");
      order.push(await focused());
    }
    expect(order).toEqual([
      "Title",
      "Slug",
      "Excerpt",
      "Category",
      "Author",
      // The picture chooser's button, then the list it stands beside.
      "Choose picture",
      "Cover image",
      "Alt text",
      // The toolbar is one stop (its first button); the arrows move within it.
      "Bold",
      "Body",
      "Publish date",
    ]);

    // Back to the toolbar, to Heading with the arrows, and press it with Enter: the body's line is a heading.
    await page.keyboard.press("Shift+Tab");
    await expect(bodyField(page)).toBeFocused();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("Shift+Tab");
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    await expect(toolbar.getByRole("button", { name: "Bold" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(toolbar.getByRole("button", { name: "Heading" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(bodyField(page)).toHaveValue("## Line one.");
    await expect(bodyField(page)).toBeFocused();
    // The toolbar remembers the button last used: Shift+Tab returns to Heading; Space presses it again.
    await page.keyboard.press("Shift+Tab");
    await expect(toolbar.getByRole("button", { name: "Heading" })).toBeFocused();
    await page.keyboard.press("Space");
    await expect(bodyField(page)).toHaveValue("### Line one.");
    // Each toolbar edit is one typing step: Ctrl+Z in the body takes the last one back.
    await expect(bodyField(page)).toBeFocused();
    await page.keyboard.press("Control+z");
    await expect(bodyField(page)).toHaveValue("## Line one.");
    await page.keyboard.press("Control+Shift+z");
    await expect(bodyField(page)).toHaveValue("### Line one.");
    await page.keyboard.press("Shift+Tab");
    await expect(toolbar.getByRole("button", { name: "Heading" })).toBeFocused();

    // Tab on to Save draft (through the publish date's parts: day, month, year, time) and press it with Enter.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Publish date", { exact: true })).toBeFocused();
    const save = page.getByRole("button", { name: "Save draft" });
    for (let step = 0; step < 8 && !(await save.evaluate((button) => button === document.activeElement)); step++)
      await page.keyboard.press("Tab");
    await expect(save).toBeFocused();
    await page.keyboard.press("Enter");
    await page.waitForURL(`${editorUrl(id)}?notice=draft-saved`);
    await editorReady(page);
    await expect(bodyField(page)).toHaveValue("### Line one.");
  });

  test("with JavaScript off, an article is created and its draft saved through plain form posts", async ({
    browser,
    signIn,
  }) => {
    // A browser that runs no script at all.
    const plain = await browser.newContext({ javaScriptEnabled: false });
    try {
      const writer = await signIn(plain, "staff");
      const noScript = await plain.newPage();
      await noScript.goto(`${adminOrigin}/admin/articles`);
      await noScript.getByRole("link", { name: "New article" }).click();
      await expect(noScript.getByRole("heading", { level: 1 })).toHaveText("New article");
      // Nothing the script would show: no toolbar, no live preview. (Chromium with scripts turned off
      // by the DevTools protocol still parses <noscript> as if they ran, so its note is not checked.)
      await expect(noScript.getByRole("toolbar", { name: "Formatting" })).toBeHidden();
      await expect(noScript.getByRole("region", { name: "Preview of the body" })).toBeHidden();
      const { title, slug } = uniqueTitle("Without a script");
      await noScript.getByLabel("Title", { exact: true }).fill(title);
      await noScript.getByLabel("Excerpt", { exact: true }).fill("Written with plain forms.");
      await bodyField(noScript).fill("The first draft, posted as a form.");
      await noScript.getByRole("button", { name: "Save draft" }).click();
      await noScript.waitForURL(/\/admin\/articles\/[0-9a-f-]{36}\?notice=article-created$/);
      const id = articleIdOf(noScript);
      await expect(noScript.getByRole("status")).toContainText("The article was created as a draft.");
      await expect(noScript.getByRole("heading", { level: 1 })).toHaveText(title);
      // The slug the server made of the title.
      await expect(noScript.getByLabel("Slug", { exact: true })).toHaveValue(slug);

      await bodyField(noScript).fill("The first draft, posted as a form.\n\nA second paragraph, saved again.");
      await noScript.getByRole("button", { name: "Save draft" }).click();
      await noScript.waitForURL(`${editorUrl(id)}?notice=draft-saved`);
      await expect(noScript.getByRole("status")).toContainText("Draft saved.");
      await expect(bodyField(noScript)).toHaveValue(
        "The first draft, posted as a form.\n\nA second paragraph, saved again.",
      );
      await noScript.getByRole("link", { name: "History" }).click();
      const revisions = noScript.getByRole("region", { name: "Revisions" }).locator("tbody tr");
      await expect(revisions).toHaveCount(2);
      await expect(revisions.first()).toContainText(writer.name);

      // The list finds it as a draft.
      await noScript.goto(`${adminOrigin}/admin/articles?q=${encodeURIComponent(title)}`);
      const rows = noScript.getByRole("region", { name: "Articles" }).locator("tbody tr");
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("Draft");
    } finally {
      await plain.close();
    }
  });
});
