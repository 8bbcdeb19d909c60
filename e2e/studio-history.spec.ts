import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { adminOrigin } from "./staff-sessions.ts";
import {
  bodyField,
  createArticle,
  editorReady,
  editorUrl,
  publishable,
  uniqueTitle,
  uniqueWord,
} from "./studio-helpers.ts";

// Issue 33, items 5 and 6 (docs/decisions/058-history-says-what-changed.md), in a real browser:
// Share preview shows its link where the button was, with Copy; a reload shows the same link and
// makes no other; History folds a run of autosaves into one entry that says what changed; Compare
// restores an older revision, and the editor then offers Publish.

/** "Saved at 14:32", what autosave says once the server has the text. */
const SAVED_AT = /^Saved at \d\d:\d\d$/;

const shareSection = (page: Page) => page.locator("section[data-studio-share]");
const shareLinksListed = (page: Page) => page.getByRole("list", { name: "Share links" }).getByRole("listitem");

test.describe("share preview and history", () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("Share preview shows the link in place with Copy, a reload makes no second link; History folds the autosaves; Compare restores, and the editor offers Publish", async ({
    page,
    context,
    newStaff,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: adminOrigin });
    await newStaff(page, { name: "Meera Shah", role: "admin" });
    const { title } = uniqueTitle("Capacitor banks at night");
    const id = await createArticle(page, publishable(title, "The first paragraph."));
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.waitForURL(/\?notice=article-published$/);
    await editorReady(page);

    // Share preview: the link appears where the button is, without leaving the page.
    const section = shareSection(page);
    await section.getByRole("button", { name: "Share preview" }).click();
    const link = page.getByRole("textbox", { name: "Share link: copy it now" });
    await expect(link).toHaveValue(/^http:\/\/[^/]+\/preview\/[A-Za-z0-9_-]{43}$/);
    await expect(page).toHaveURL(new RegExp(`/admin/articles/${id}\\?shared=[0-9a-f-]{36}#share-link$`));
    await expect(link).toBeInViewport();
    const address = await link.inputValue();
    await expect(shareLinksListed(page)).toHaveCount(1);
    // Copy puts it on the clipboard and says so.
    await section.getByRole("button", { name: "Copy" }).click();
    await expect(section.locator("[data-studio-copy-status]")).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
    await photograph(page, "studio-share-link-1280");

    // A reload shows the same link again, and makes none.
    await page.reload();
    await editorReady(page);
    await expect(page.getByRole("textbox", { name: "Share link: copy it now" })).toHaveValue(address);
    await expect(shareLinksListed(page)).toHaveCount(1);

    // Three autosaves, each its own revision (a share link made at a revision keeps it, decision 048).
    for (let round = 1; round <= 3; round += 1) {
      const autosaved = page.waitForResponse(
        (response) => response.url().endsWith(`/admin/api/articles/${id}/autosave`) && response.ok(),
      );
      await bodyField(page).fill(`The first paragraph.\n\nAdded in round ${round}: ${uniqueWord()}.`);
      await autosaved;
      await expect(page.locator("[data-studio-save-status]")).toHaveText(SAVED_AT);
      await shareSection(page).getByRole("button", { name: "Share preview" }).click();
      await expect(shareLinksListed(page)).toHaveCount(1 + round);
    }

    // History: the three autosaves are one entry, saying what changed.
    await page.goto(`${adminOrigin}/admin/articles/${id}/history`);
    const rows = page.getByRole("region", { name: "Revisions" }).getByRole("row");
    const newest = rows.nth(1);
    await expect(newest).toContainText(/Autosaved 3 times, \d\d:\d\d(–\d\d:\d\d)? IST/);
    await expect(newest).toContainText(/Body: \d+ words? added/);
    await expect(rows.filter({ hasText: /Autosaved \d+ times/ })).toHaveCount(1);
    await newest.getByText("Show the 3 autosaves").click();
    await expect(newest.getByRole("link", { name: /compare with the one before/ })).toHaveCount(3);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page, `history at ${width}px`);
      await expectNoOverflow(page, `history at ${width}px`);
      await photograph(page, `studio-history-${width}`);
    }

    // The newest autosave compared with the one before it, and that one restored.
    await newest
      .getByRole("link", { name: /compare with the one before/ })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Compare revisions of ${title}`);
    await page.getByRole("button", { name: /^Restore this version/ }).click();
    await page.waitForURL(new RegExp(`/admin/articles/${id}\\?notice=revision-restored$`));
    await editorReady(page);
    const offer = page.locator("[data-studio-restore-offer]");
    await expect(offer).toContainText(
      /^Restored revision \d+ as the draft\. The live page still shows revision \d+: press Publish to make this version live\./,
    );
    await photograph(page, "studio-restore-offer-1280");
    await offer.getByRole("button", { name: "Publish" }).click();
    await page.waitForURL(new RegExp(`/admin/articles/${id}\\?notice=article-published$`));
    await expect(page.locator("[data-studio-restore-offer]")).toHaveCount(0);
  });

  test("without JavaScript, Share preview answers with the editor at #share-link showing the link; a reload shows it again", async ({
    browser,
    newStaff,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await newStaff(page, { name: "Ravi Desai", role: "staff" });
      const { title } = uniqueTitle("Earthing without a script");
      // Made with a script (createArticle waits for it); the share is then sent without one.
      const withScript = await browser.newContext();
      const writer = await withScript.newPage();
      await newStaff(writer, { name: "Asha Patel", role: "staff" });
      const id = await createArticle(writer, { title, body: "A draft." });
      await withScript.close();

      await page.goto(editorUrl(id));
      await page.getByRole("button", { name: "Share preview" }).click();
      await page.waitForURL(new RegExp(`/admin/articles/${id}\\?shared=[0-9a-f-]{36}#share-link$`));
      const link = page.getByRole("textbox", { name: "Share link: copy it now" });
      await expect(link).toHaveValue(/\/preview\/[A-Za-z0-9_-]{43}$/);
      const address = await link.inputValue();
      await expect(link).toBeInViewport();
      await page.reload();
      await expect(page.getByRole("textbox", { name: "Share link: copy it now" })).toHaveValue(address);
      await expect(shareLinksListed(page)).toHaveCount(1);
      await page.setViewportSize({ width: 375, height: 800 });
      await photograph(page, "studio-share-link-no-script-375");
    } finally {
      await context.close();
    }
  });
});
