import type { Page } from "@playwright/test";
import { phonePhoto, plainPicture, SVG_WITH_SCRIPT } from "../test/media-fixtures.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { adminOrigin } from "./staff-sessions.ts";
import { bodyField, createArticle, uniqueTitle, uniqueWord } from "./studio-helpers.ts";

// The media library in a real browser (docs/back-office.md, "Media"): several pictures from the
// Upload button with a message each, dropping pictures on the page, the plain form without
// JavaScript, and a picture pasted into an article's Body: sent, described, then inserted.

const libraryUrl = `${adminOrigin}/admin/media`;

async function openLibrary(page: Page) {
  await page.goto(libraryUrl);
  await page.locator("[data-media-uploader][data-media-uploader-ready=true]").waitFor();
}

/** A file as the browser's file chooser gives one. */
const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });

test.describe("the media library", () => {
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("uploads several pictures at once, each with its message; a refused one says the rule; alt text is written on its page", async ({
    page,
    pageGuard,
    signIn,
  }) => {
    pageGuard.allow(/status of 415 \(Unsupported Media Type\)/);
    await signIn(page, "staff");
    await openLibrary(page);
    const tag = uniqueWord();
    await page
      .getByLabel("Picture", { exact: true })
      .setInputFiles([
        file(
          `site-${tag}.jpg`,
          "image/jpeg",
          await phonePhoto({ width: 1200, height: 900, quality: 80 + (Date.now() % 10) }),
        ),
        file(`logo-${tag}.svg`, "image/svg+xml", SVG_WITH_SCRIPT),
        file(
          `card-${tag}.png`,
          "image/png",
          await plainPicture("png", { colour: `#${Date.now().toString(16).slice(-6)}` }),
        ),
      ]);
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    const progress = page.locator("[data-media-progress] > li");
    await expect(progress).toHaveCount(3);
    await expect(progress.nth(0)).toContainText(`“site-${tag}.jpg” is in the library.`, { timeout: 20_000 });
    await expect(progress.nth(1)).toContainText(
      `“logo-${tag}.svg” is not a JPEG, PNG, WebP or AVIF picture (it is an SVG drawing).`,
    );
    await expect(progress.nth(2)).toContainText(`“card-${tag}.png” is in the library.`);
    await expect(page.getByRole("link", { name: "Show the new pictures in the library" })).toBeVisible();

    await progress.nth(0).getByRole("link", { name: "Write its alt text" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`site-${tag}.jpg`);
    await expect(page.getByText("Needs alt text")).toBeVisible();
    await page.getByLabel("Alt text", { exact: true }).fill("Engineers on a site visit, in hard hats");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toHaveText("The alt text was saved.");
    await expect(page.getByText("Alt text: Engineers on a site visit, in hard hats")).toBeVisible();
    // The picture shown is upright: its 900 × 1200 shape.
    const shown = page.locator("figure img");
    await expect(shown).toHaveAttribute("width", "900");
    await expect(shown).toHaveAttribute("height", "1200");
  });

  // A test per page and width, shared by the two workers: the width changes what axe reads here.
  for (const entry of ["library", "picture"] as const) {
    for (const width of [375, 1280]) {
      test(`the ${entry === "library" ? "library" : "picture's page"} at ${width} px: no axe violations, no sideways overflow, photographed`, async ({
        page,
        signIn,
      }) => {
        await signIn(page, "admin");
        await page.setViewportSize({ width, height: 900 });
        await page.goto(libraryUrl);
        if (entry === "picture") {
          // The newest picture's page (the browser tests share one site: whichever picture that is).
          const first = page.locator("main a[href^='/admin/media/']").first();
          await page.goto(new URL((await first.getAttribute("href"))!, adminOrigin).toString());
        } else {
          await page.locator("[data-media-uploader][data-media-uploader-ready=true]").waitFor();
        }
        await expectNoAxeViolations(page, `media ${entry} at ${width} px`);
        await expectNoOverflow(page, `media ${entry} at ${width} px`);
        await photograph(page, `media-${entry}-${width}`);
      });
    }
  }

  test("takes pictures dropped on the page", async ({ page, signIn }) => {
    await signIn(page, "staff");
    await openLibrary(page);
    const name = `dropped-${uniqueWord()}.png`;
    const bytes = await plainPicture("png", { colour: `#${(Date.now() + 7).toString(16).slice(-6)}` });
    await page.evaluate(
      ({ name, data }) => {
        const transfer = new DataTransfer();
        transfer.items.add(
          new File([Uint8Array.from(atob(data), (char) => char.charCodeAt(0))], name, { type: "image/png" }),
        );
        const zone = document.querySelector("[data-media-drop]")!;
        zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
        zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      },
      { name, data: bytes.toString("base64") },
    );
    await expect(page.locator("[data-media-progress] > li")).toContainText(`“${name}” is in the library.`);
  });

  test("works without JavaScript: the plain form uploads, then the picture's page asks for its alt text", async ({
    browser,
    signIn,
  }) => {
    const plain = await browser.newContext({ javaScriptEnabled: false });
    try {
      await signIn(plain, "staff");
      const noScript = await plain.newPage();
      await noScript.goto(libraryUrl);
      const name = `plain-${uniqueWord()}.webp`;
      await noScript
        .getByLabel("Picture", { exact: true })
        .setInputFiles(
          file(
            name,
            "image/webp",
            await plainPicture("webp", { colour: `#${(Date.now() + 3).toString(16).slice(-6)}` }),
          ),
        );
      await noScript.getByRole("button", { name: "Upload", exact: true }).click();
      await expect(noScript.getByRole("heading", { level: 1 })).toHaveText(name);
      await expect(noScript.getByRole("status")).toHaveText(
        "Uploaded. Write its alt text, or mark it decorative: then it can be chosen for content.",
      );
      await noScript.getByLabel("Decorative").check();
      await noScript.getByRole("button", { name: "Save" }).click();
      await expect(noScript.getByText("Decorative (shown with empty alt text)").first()).toBeVisible();
    } finally {
      await plain.close();
    }
  });

  test("a picture pasted into an article's Body is sent, described, then inserted at the caret", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "staff");
    const { title } = uniqueTitle("Earthing a switchyard");
    await createArticle(page, { title, body: "Before the picture.\nAfter the picture." });
    const body = bodyField(page);
    await body.focus();
    await body.evaluate((field: HTMLTextAreaElement) => field.setSelectionRange(19, 19));
    const bytes = await phonePhoto({ width: 640, height: 480, quality: 70 + (Date.now() % 20) });
    await body.evaluate((field, data) => {
      const transfer = new DataTransfer();
      transfer.items.add(
        new File([Uint8Array.from(atob(data), (char) => char.charCodeAt(0))], "image.jpg", { type: "image/jpeg" }),
      );
      field.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, bytes.toString("base64"));
    const dialog = page.getByRole("dialog", { name: "Describe the picture" });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    // Nothing is in the text until it is described.
    await expect(body).toHaveValue("Before the picture.\nAfter the picture.");
    await dialog.getByRole("button", { name: "Insert" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(
      "Write the alt text, or tick Decorative if the picture adds nothing a reader needs.",
    );
    await dialog.getByLabel("Alt text").fill("An earthing grid [before burial]");
    await dialog.getByRole("button", { name: "Insert" }).click();
    await expect(dialog).toBeHidden();
    await expect(body).toHaveValue(
      /^Before the picture\.\n\n!\[An earthing grid \\\[before burial\\\]\]\(\/media\/[0-9a-f]{16}\/original\.jpg\)\n\nAfter the picture\.$/,
    );
    await expect(page.locator("[data-studio-picture-status]")).toHaveText("Inserted “image.jpg”.");
    await expect(body).toBeFocused();
  });
});
