import type { Locator, Page } from "@playwright/test";
import { baseURL } from "../playwright.config.ts";
import { plainPicture } from "../test/media-fixtures.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { adminOrigin } from "./staff-sessions.ts";
import {
  bodyField,
  editorForm,
  editorReady,
  expectPublicStatus,
  fillArticle,
  uniqueTitle,
  uniqueWord,
  visitorContext,
} from "./studio-helpers.ts";

// The picture chooser in a real browser (docs/decisions/057-one-picture-chooser.md): "Choose
// picture" beside an article's cover, a project's image and a member's photo, and the Body's
// Picture button, each opening one dialog with the media library and an upload; an upload is
// described once and chosen at once, the field showing its thumbnail and name without a reload,
// and the alt text reaches the public page. At a desktop's width and on a phone (touch, the
// file chooser), with axe and no sideways scrolling on the open chooser.

/** A picture no other run has uploaded: a colour and a width of its own. */
async function newPicture(): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const colour = `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, "0")}`;
  const width = 700 + Math.floor(Math.random() * 200);
  return {
    name: `picture-${uniqueWord()}.png`,
    mimeType: "image/png",
    buffer: await plainPicture("png", { colour, width, height: 500 }),
  };
}

/** The open picture chooser. */
const chooser = (page: Page): Locator => page.locator("dialog[data-picture-chooser][open]");
/** The alt text's question, open. */
const altDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Describe the picture" });

/** "New article" from the list, its script started. */
async function newArticle(page: Page): Promise<void> {
  await page.goto(`${adminOrigin}/admin/articles`);
  await page.getByRole("link", { name: "New article" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New article");
  await editorReady(page);
}

/** Saves a new article as a draft, then publishes it: its public path. */
async function saveAndPublish(page: Page, slug: string): Promise<string> {
  await page.getByRole("button", { name: "Save draft" }).click();
  await page.waitForURL(/\/admin\/articles\/[0-9a-f-]{36}\?notice=article-created$/);
  await editorReady(page);
  await expect(page.locator("[data-studio-checklist]")).toContainText("Nothing is missing.");
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.waitForURL(/\/admin\/articles\/[0-9a-f-]{36}\?notice=article-published$/);
  await expect(page.locator("[data-studio-public-state]")).toContainText(`On the site at /blog/${slug}`);
  return `/blog/${slug}`;
}

/** The chooser's list has loaded (its status says how many, or that none were found). */
async function listed(page: Page): Promise<void> {
  await expect(chooser(page).getByRole("status").first()).toHaveText(
    /^\d[\d,]* pictures?|^No picture's name|^The library has no pictures/,
  );
}

test.describe("the picture chooser", () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("at 1280 px: a cover uploaded by the button is described once, shown at once by its thumbnail and name, and published with that alt text", async ({
    page,
    browser,
    signIn,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, "admin");
    await newArticle(page);
    const { title, slug } = uniqueTitle("Choosing a cover");
    await fillArticle(page, {
      title,
      excerpt: "A cover uploaded from the editor.",
      category: "Grid Integration",
      body: "A short article.\n\nIt has two paragraphs.",
    });
    const form = editorForm(page);
    const cover = form.getByLabel("Cover image", { exact: true });
    await expect(form.getByLabel("Alt text", { exact: true })).toHaveValue("");

    await form.getByRole("button", { name: "Choose picture" }).click();
    await expect(chooser(page)).toBeVisible();
    await expect(page.getByRole("dialog", { name: "Choose the cover image" })).toBeVisible();
    // Centred on the screen.
    const box = (await chooser(page).boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - 640)).toBeLessThanOrEqual(2);
    expect(Math.abs(box.y + box.height / 2 - 400)).toBeLessThanOrEqual(2);

    const picture = await newPicture();
    const alt = `A transformer yard at dawn, ${uniqueWord()}`;
    // Counts the alt text's questions as they open.
    await page.evaluate(() => {
      const counted = window as unknown as { altAsked: number };
      counted.altAsked = 0;
      new MutationObserver((changes) => {
        for (const change of changes)
          for (const node of change.addedNodes)
            if (node instanceof HTMLDialogElement && node.textContent?.includes("Describe the picture"))
              counted.altAsked += 1;
      }).observe(document.body, { childList: true });
    });
    await chooser(page).getByLabel("Upload a new picture").setInputFiles(picture);
    await expect(altDialog(page)).toBeVisible({ timeout: 20_000 });
    // The alt dialog is centred too.
    const altBox = (await altDialog(page).boundingBox())!;
    expect(Math.abs(altBox.x + altBox.width / 2 - 640)).toBeLessThanOrEqual(2);
    await altDialog(page).getByLabel("Alt text", { exact: true }).fill(alt);
    await altDialog(page).getByRole("button", { name: "Save and choose" }).click();
    await expect(altDialog(page)).toHaveCount(0);
    await expect(chooser(page)).toHaveCount(0);
    // Asked once: the cover's alt text is not asked for again (below, it is filled in).
    expect(await page.evaluate(() => (window as unknown as { altAsked: number }).altAsked)).toBe(1);

    // The field shows the picture by its thumbnail and name, at once; the cover's alt text is filled in.
    await expect(cover).toHaveValue(/^\/media\/[0-9a-f]{16}\/original\.png$/);
    const reference = await cover.inputValue();
    const key = /^\/media\/([0-9a-f]{16})\//.exec(reference)![1]!;
    await expect(form.locator("[data-picture-name]")).toHaveText(alt);
    await expect(form.locator("img[data-picture-preview]")).toHaveAttribute("src", `/media/${key}/320.webp`);
    await expect(form.locator("img[data-picture-preview]")).toBeVisible();
    await expect(form.getByLabel("Alt text", { exact: true })).toHaveValue(alt);
    // Focus came back to the button.
    await expect(form.getByRole("button", { name: "Choose picture" })).toBeFocused();
    await photograph(page, "picture-chooser-cover-chosen-1280");

    const path = await saveAndPublish(page, slug);
    // Saved as chosen: the option added on the fly was sent.
    await expect(cover).toHaveValue(reference);
    await expect(form.locator("[data-picture-name]")).toHaveText(alt);

    const visitor = await visitorContext(browser, { viewport: { width: 1280, height: 800 } });
    try {
      await expectPublicStatus(visitor, path, 200);
      const article = await visitor.newPage();
      await article.goto(`${baseURL}${path}`);
      const shown = article.getByRole("img", { name: alt, exact: true });
      await expect(shown).toBeVisible();
      await expect(shown).toHaveAttribute("src", new RegExp(`^/media/${key}/`));
    } finally {
      await visitor.close();
    }
  });

  test("at 375 px on a touch phone: the Picture button opens the file chooser, the picture goes into the body and as the cover, and the published body shows it with its alt text", async ({
    browser,
    pageGuard,
    signIn,
  }) => {
    const context = await browser.newContext({
      baseURL,
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    pageGuard.watch(page);
    try {
      await signIn(context, "admin");
      await newArticle(page);
      const { title, slug } = uniqueTitle("Pictures from a phone");
      await fillArticle(page, {
        title,
        excerpt: "Written on a phone.",
        category: "Grid Integration",
        body: "First paragraph.",
      });
      // The caret at the end of the text, as a writer leaves it.
      await bodyField(page).tap();
      await bodyField(page).press("End");

      await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Picture" }).tap();
      await expect(page.getByRole("dialog", { name: "Choose a picture for the text" })).toBeVisible();
      const fileChooser = page.waitForEvent("filechooser");
      // A tap on the file field (Playwright opens a file chooser on a click, which a tap also is).
      await chooser(page).getByLabel("Upload a new picture").click();
      const picture = await newPicture();
      await (await fileChooser).setFiles(picture);
      const alt = `A relay panel with its doors open, ${uniqueWord()}`;
      await expect(altDialog(page)).toBeVisible({ timeout: 20_000 });
      await altDialog(page).getByLabel("Alt text", { exact: true }).fill(alt);
      await altDialog(page).getByRole("button", { name: "Save and choose" }).tap();
      await expect(chooser(page)).toHaveCount(0);
      await expect(bodyField(page)).toHaveValue(
        new RegExp(`^First paragraph\\.\\n\\n!\\[${alt}\\]\\(/media/[0-9a-f]{16}/original\\.png\\)\\n$`),
      );
      const key = /\/media\/([0-9a-f]{16})\//.exec(await bodyField(page).inputValue())![1]!;

      // The same picture as the cover, found in the library by its alt text.
      const form = editorForm(page);
      await form.getByRole("button", { name: "Choose picture" }).tap();
      await listed(page);
      await chooser(page).getByLabel("Search the library").fill(alt.split(", ")[1]!);
      const card = chooser(page).getByRole("button", { name: new RegExp(alt) });
      await expect(card).toHaveCount(1);
      await expect(chooser(page).getByRole("listitem")).toHaveCount(1);
      await photograph(page, "picture-chooser-search-375");
      await card.tap();
      await expect(chooser(page)).toHaveCount(0);
      await expect(form.getByLabel("Cover image", { exact: true })).toHaveValue(`/media/${key}/original.png`);
      await expect(form.locator("[data-picture-name]")).toHaveText(alt);
      await expect(form.getByLabel("Alt text", { exact: true })).toHaveValue(alt);
      await expectNoOverflow(page, "the editor at 375 px after choosing");

      const path = await saveAndPublish(page, slug);
      const visitor = await visitorContext(browser, { viewport: { width: 375, height: 740 } });
      try {
        await expectPublicStatus(visitor, path, 200);
        const article = await visitor.newPage();
        await article.goto(`${baseURL}${path}`);
        const inBody = article.locator(".article-body").getByRole("img", { name: alt, exact: true });
        await expect(inBody).toHaveAttribute("src", new RegExp(`^/media/${key}/`));
        await inBody.scrollIntoViewIfNeeded();
        await expect(inBody).toBeVisible();
      } finally {
        await visitor.close();
      }
    } finally {
      await context.close();
    }
  });

  for (const width of [375, 1280]) {
    test(`the open chooser at ${width} px: no axe violations, no sideways scrolling, keyboard alone, photographed`, async ({
      page,
      signIn,
    }) => {
      await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
      await signIn(page, "staff");
      await newArticle(page);
      const button = editorForm(page).getByRole("button", { name: "Choose picture" });
      await button.focus();
      await page.keyboard.press("Enter");
      await expect(chooser(page)).toBeVisible();
      await listed(page);
      // Focus starts in the search; going backwards past the dialog's first control never reaches the page behind.
      await expect(chooser(page).getByLabel("Search the library")).toBeFocused();
      for (let step = 0; step < 4; step += 1) {
        await page.keyboard.press("Shift+Tab");
        const behind = await page.evaluate(
          () => document.querySelector("form[data-studio-editor]")?.contains(document.activeElement) ?? false,
        );
        expect(behind, `focus behind the dialog after ${step + 1} Shift+Tab`).toBe(false);
      }
      await expectNoAxeViolations(page, `the picture chooser at ${width} px`);
      await expectNoOverflow(page, `the picture chooser at ${width} px`);
      await photograph(page, `picture-chooser-${width}`);
      // Escape closes it, and focus returns to the button.
      await page.keyboard.press("Escape");
      await expect(chooser(page)).toHaveCount(0);
      await expect(button).toBeFocused();
      // A picture chosen with the keyboard alone.
      await page.keyboard.press("Enter");
      await listed(page);
      await page.keyboard.press("Tab");
      const first = chooser(page).locator("button[data-picture-choice]").first();
      await expect(first).toBeFocused();
      const name = (await first.locator("span").first().textContent())!;
      await page.keyboard.press("Enter");
      await expect(chooser(page)).toHaveCount(0);
      await expect(editorForm(page).locator("[data-picture-name]")).toHaveText(name);
    });
  }

  test("a project's Image and a team member's Photo are chosen by the button, shown by thumbnail and name", async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, "admin");

    // A project: chosen from the library, saved, shown the same after the reload.
    await page.goto(`${adminOrigin}/admin/projects`);
    await page.getByRole("link", { name: "New project" }).click();
    await editorReady(page);
    const projectForm = page.locator("form[data-studio-editor=project]");
    await projectForm.getByLabel("Title", { exact: true }).fill(uniqueTitle("Picture chooser project").title);
    await projectForm.getByLabel("Description", { exact: true }).fill("A project whose image came from the chooser.");
    await projectForm.getByLabel("Category", { exact: true }).selectOption({ index: 1 });
    await projectForm.getByLabel("Year", { exact: true }).fill("2026");
    await projectForm.getByRole("button", { name: "Choose picture" }).click();
    await expect(page.getByRole("dialog", { name: "Choose the image" })).toBeVisible();
    await listed(page);
    const first = chooser(page).locator("button[data-picture-choice]").first();
    const name = (await first.locator("span").first().textContent())!;
    await first.click();
    await expect(chooser(page)).toHaveCount(0);
    const image = projectForm.getByLabel("Image", { exact: true });
    await expect(image).not.toHaveValue("");
    const chosen = await image.inputValue();
    await expect(projectForm.locator("[data-picture-name]")).toHaveText(name);
    await expect(projectForm.locator("img[data-picture-preview]")).toHaveAttribute(
      "src",
      /^\/media\/[0-9a-f]{16}\/\d+\.webp$/,
    );
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/admin\/projects\/[0-9a-f-]{36}\?notice=project-created$/);
    await expect(projectForm.getByLabel("Image", { exact: true })).toHaveValue(chosen);
    await expect(projectForm.locator("[data-picture-name]")).toHaveText(name);

    // A team member's photo, on the new member's page (its own script, outside the studio's editor).
    await page.goto(`${adminOrigin}/admin/team`);
    await page.getByRole("link", { name: "Add a member" }).click();
    const memberForm = page.getByRole("form", { name: "New team member" });
    await memberForm.getByRole("button", { name: "Choose picture" }).click();
    await expect(page.getByRole("dialog", { name: "Choose the member's photo" })).toBeVisible();
    await listed(page);
    await chooser(page).getByLabel("Search the library").fill("portrait");
    const portrait = chooser(page).locator("button[data-picture-choice]").first();
    await expect(portrait).toContainText(/portrait/i);
    const portraitName = (await portrait.locator("span").first().textContent())!;
    await portrait.click();
    await expect(chooser(page)).toHaveCount(0);
    await expect(memberForm.getByLabel("Photo", { exact: true })).not.toHaveValue("");
    await expect(memberForm.locator("[data-picture-name]")).toHaveText(portraitName);
    await expect(memberForm.locator("img[data-picture-preview]")).toBeVisible();
    await expect(memberForm.locator("img[data-picture-preview]")).toHaveAttribute("src", /^\/media\/[0-9a-f]{16}\//);
  });
});
