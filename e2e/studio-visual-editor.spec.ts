import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { randomInt } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { blogPosts } from "../src/server/db/schema.ts";
import { phonePhoto } from "../test/media-fixtures.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { readSiteDatabase } from "./site-data.ts";
import {
  bodyField,
  createArticle,
  editorReady,
  editorUrl,
  expectPublicStatus,
  markdownBody,
  publishable,
  uniqueTitle,
  visitorContext,
  visualBody,
} from "./studio-helpers.ts";

// The studio's visual editor (docs/decisions/056-a-visual-editor-that-stores-markdown.md) in a
// real browser at 1280 px: Word's clipboard pasted into Write keeps its structure and reaches the
// public page as plain GFM; a heading made in Write is `## ` in the Markdown view; and the seeded
// articles opened and saved unchanged make no new revision.

/** A photo's size no other upload of the run has: its bytes are new to the library. */
const uniqueSize = () => ({ width: 600 + randomInt(600), height: 400 + randomInt(600) });

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, "../test/fixtures/clipboard", name), "utf8");

/**
 * A real paste at the end of the text, on a line of its own: a ClipboardEvent carrying the HTML
 * and its plain text, as Word, Google Docs and browsers send both.
 */
async function pasteAtEnd(page: Page, body: Locator, html: string, text: string): Promise<void> {
  await body.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  await body.evaluate(
    (element, [html, text]) => {
      const transfer = new DataTransfer();
      transfer.setData("text/html", html!);
      transfer.setData("text/plain", text!);
      element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    },
    [html, text],
  );
}

test.describe("the visual editor", () => {
  test.describe.configure({ timeout: 90_000 });
  test.use({ viewport: { width: 1280, height: 900 } });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("Word's clipboard pasted into Write keeps the heading, bold, nested list, link and table; the picture is inserted with the Picture button; published, a visitor reads them", async ({
    page,
    browser,
    signIn,
  }) => {
    await signIn(page, "admin");
    const { title, slug } = uniqueTitle("Harmonic study pasted from Word");
    const id = await createArticle(page, publishable(title, "Opening paragraph."));
    const body = await visualBody(page);
    await pasteAtEnd(page, body, fixture("word.html"), "Harmonic study at the Rajkot plant");
    // Shown as it will read.
    await expect(body.getByRole("heading", { level: 2, name: "Harmonic study at the Rajkot plant" })).toBeVisible();
    await expect(body.locator("strong", { hasText: "8.4%" })).toBeVisible();
    await expect(body.locator("ul ul li")).toHaveCount(2);
    await expect(body.locator("table th")).toHaveCount(4);
    // Word's picture is a file on the writer's computer the browser cannot read: left out, said so.
    await expect(page.locator("[data-studio-picture-status]")).toHaveText(
      "One picture was left out: the browser cannot copy it from there. Insert it with the Picture button.",
    );

    // The Picture button: the picture chooser's Upload, a file from this computer sent to the
    // library, described once, inserted at the caret.
    await page.keyboard.press("Control+End");
    await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Picture" }).click();
    const pictureChooser = page.locator("dialog[data-picture-chooser][open]");
    await expect(pictureChooser).toBeVisible();
    const [chooser] = await Promise.all([
      page.waitForEvent("filechooser"),
      pictureChooser.getByLabel("Upload a new picture").click(),
    ]);
    await chooser.setFiles({
      name: "single-line.jpg",
      mimeType: "image/jpeg",
      // Bytes no other test sends: a picture already in the library is chosen without its question.
      buffer: await phonePhoto(uniqueSize()),
    });
    const dialog = page.getByRole("dialog", { name: "Describe the picture" });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    await dialog.getByLabel("Alt text", { exact: true }).fill("Single-line diagram of the plant");
    await dialog.getByRole("button", { name: "Save and choose" }).click();
    await expect(dialog).toBeHidden();
    await expect(pictureChooser).toHaveCount(0);
    await expect(body.getByRole("img", { name: "Single-line diagram of the plant" })).toBeVisible();

    // What is stored is plain GFM, in the house style.
    const markdown = await (await markdownBody(page)).inputValue();
    expect(markdown).toContain("Opening paragraph.\n\n## Harmonic study at the Rajkot plant\n\n");
    expect(markdown).toContain(
      "The plant's voltage distortion was **8.4%** at the point of common coupling, against a limit of 5%. See the [IEEE 519 summary](https://example.org/ieee-519) for the limits.",
    );
    expect(markdown).toContain(
      "- Measure for a week\n  - At the incomer\n  - At each motor control centre\n- Model the resonance",
    );
    expect(markdown).toContain(
      "| **Harmonic** | **Measured** | **Limit** | **Remedy** |\n|---|---|---|---|\n| 5th | 6.1% | 4.0% | Detuned filter |",
    );
    expect(markdown).toMatch(/!\[Single-line diagram of the plant\]\(\/media\/[0-9a-f]{16}\/original\.jpg\)/);
    expect(markdown).not.toMatch(/<[a-z]|mso-|style=|file:/i);

    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.waitForURL(`${editorUrl(id)}?notice=article-published`);

    const visitor = await visitorContext(browser);
    try {
      await expectPublicStatus(visitor, `/blog/${slug}`, 200);
      const reader = await visitor.newPage();
      await reader.goto(`/blog/${slug}`);
      const article = reader.locator("article");
      await expect(
        article.getByRole("heading", { level: 2, name: "Harmonic study at the Rajkot plant" }),
      ).toBeVisible();
      await expect(article.locator("strong", { hasText: "8.4%" })).toBeVisible();
      await expect(article.locator("ul > li > ul > li")).toHaveText(["At the incomer", "At each motor control centre"]);
      await expect(article.getByRole("link", { name: "IEEE 519 summary" })).toHaveAttribute(
        "href",
        "https://example.org/ieee-519",
      );
      await expect(article.locator("table thead th")).toHaveText(["Harmonic", "Measured", "Limit", "Remedy"]);
      await expect(article.locator("table tbody td").first()).toHaveText("5th");
      await expect(article.getByRole("img", { name: "Single-line diagram of the plant" })).toBeVisible();
    } finally {
      await visitor.close();
    }
  });

  test("a heading made in Write with the toolbar is `## ` in the Markdown view; switching views keeps the text both ways; Markdown pasted into Write is parsed", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "staff");
    const { title } = uniqueTitle("Views of one text");
    await createArticle(page, { title, body: "First line." });
    const body = await visualBody(page);
    await body.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Relay settings");
    await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Heading" }).click();
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Some ");
    await page.keyboard.press("Control+b");
    await page.keyboard.type("bold");
    await page.keyboard.press("Control+b");
    await page.keyboard.type(" words.");
    await expect(body.locator("p").last()).toHaveText("Some bold words.");
    await expect(body.locator("p").last().locator("strong")).toHaveText("bold");
    // Ctrl+K asks the address of a link for the selected words.
    await page.keyboard.press("ArrowLeft");
    for (let step = 0; step < "words".length; step++) await page.keyboard.press("Shift+ArrowLeft");
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe("words");
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = `${dialog.type()}: ${dialog.message()}`;
      void dialog.accept("/contact");
    });
    await page.keyboard.press("Control+k");
    expect(asked).toMatch(/^prompt: Link address/);
    await expect(body.getByRole("link", { name: "words" })).toHaveAttribute("href", "/contact");

    const text = await markdownBody(page);
    await photograph(page, "studio-markdown-view-1280");
    await expect(text).toHaveValue("First line.\n\n## Relay settings\n\nSome **bold** [words](/contact).");
    // Written in the Markdown view, shown in Write.
    await text.press("Control+End");
    await text.pressSequentially("\n\n- one\n- two");
    const back = await visualBody(page);
    await expect(back.getByRole("heading", { level: 2 })).toHaveText("Relay settings");
    await expect(back.locator("ul > li")).toHaveText(["one", "two"]);
    // And back again, unchanged by the trip.
    await expect(await markdownBody(page)).toHaveValue(
      "First line.\n\n## Relay settings\n\nSome **bold** [words](/contact).\n\n- one\n- two",
    );
    // Plain text that reads as Markdown, pasted into Write, goes in parsed.
    const write = await visualBody(page);
    await write.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await write.evaluate((element) => {
      const transfer = new DataTransfer();
      transfer.setData("text/plain", "### Pasted heading\n\n| Bus | kV |\n|---|---|\n| B1 | 220 |");
      element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    });
    await expect(write.getByRole("heading", { level: 3, name: "Pasted heading" })).toBeVisible();
    await expect(write.locator("table th")).toHaveText(["Bus", "kV"]);
    await expect(page.locator("textarea[name=body]")).toHaveValue(
      /### Pasted heading\n\n\| Bus \| kV \|\n\|---\|---\|\n\| B1 \| 220 \|$/,
    );
  });

  test("the seeded articles opened in Write and saved unchanged keep their text byte for byte: no new revision", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "admin");
    const seeded = readdirSync(path.join(import.meta.dirname, "../content/articles"))
      .filter((name) => name.endsWith(".md"))
      .slice(0, 3)
      .map((name) => {
        const source = readFileSync(path.join(import.meta.dirname, "../content/articles", name), "utf8");
        return { slug: name.replace(/\.md$/, ""), title: JSON.parse(/^title: (.*)$/m.exec(source)![1]!) as string };
      });
    for (const { slug, title } of seeded) {
      // By the article's id: the list's first page holds the articles changed last, which other
      // tests' may have pushed the seeded ones off.
      const [row] = await readSiteDatabase((db) =>
        db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)),
      );
      const editor = editorUrl(row!.id);
      await page.goto(editor);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
      await editorReady(page);
      const field = page.locator("textarea[name=body]");
      const before = await field.inputValue();
      // In Write, the caret moved through the text and the page scrolled: still nothing changed.
      const body = await visualBody(page);
      await body.click();
      await page.keyboard.press("Control+End");
      await page.keyboard.press("Control+Home");
      await expect(field).toHaveValue(before);

      await page.goto(`${editor}/history`);
      const revisions = page.getByRole("region", { name: "Revisions" }).locator("tbody tr");
      const count = await revisions.count();
      expect(count).toBeGreaterThan(0);
      await page.goto(editor);
      await editorReady(page);
      await page.getByRole("button", { name: "Save draft" }).click();
      await page.waitForURL(/\?notice=/);
      await editorReady(page);
      await expect(page.locator("textarea[name=body]")).toHaveValue(before);
      await page.goto(`${editor}/history`);
      await expect(revisions).toHaveCount(count);
    }
  });
  test("Write at 375 and 1280 px: the Body is a textbox named Body in proportional type, no axe violations, no overflow; by keyboard alone the toolbar is one stop before it", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "staff");
    const { title } = uniqueTitle("Write, looked at");
    const paragraphs = Array.from(
      { length: 12 },
      (_, index) => `Paragraph ${index + 1} on the relay settings of feeder ${index + 1}, and why its margin held.`,
    );
    const id = await createArticle(page, {
      title,
      body: `## Findings\n\n${paragraphs.join("\n\n")}\n\n| Feeder | Pickup (A) |\n|---|---|\n| F1 | 400 |\n\n- one\n  - nested`,
    });
    await visualBody(page);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(editorUrl(id));
      await editorReady(page);
      const body = bodyField(page);
      await expect(body).toHaveAttribute("aria-multiline", "true");
      await expect(body).toHaveAttribute("contenteditable", "true");
      expect(await body.evaluate((element) => getComputedStyle(element).fontFamily)).not.toMatch(/mono/i);
      await expect(body.getByRole("heading", { level: 2, name: "Findings" })).toBeVisible();
      await expect(body.locator("table th")).toHaveCount(2);
      await expectNoAxeViolations(page, `the editor in Write at ${width} px`);
      await expectNoOverflow(page, `the editor in Write at ${width} px`);
      await photograph(page, `studio-visual-editor-${width}`);
    }
    // Keyboard alone: Alt text, then the toolbar (one stop), then the Body.
    await page.getByLabel("Alt text", { exact: true }).focus();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Bold" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(bodyField(page)).toBeFocused();
    // In a table, its tools are shown and reached with the arrows.
    await bodyField(page).locator("td").first().click();
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    await expect(toolbar.getByRole("button", { name: "Add row" })).toBeVisible();
    await toolbar.getByRole("button", { name: "Add row" }).click();
    await expect(bodyField(page).locator("tr")).toHaveCount(3);
    await expect(page.locator("textarea[name=body]")).toHaveValue(/\| F1 \| 400 \|\n\| {2}\| {2}\|/);
  });

  test("at 1280 px the preview stays beside the text and shows the part being written; Save draft brings the writer back where they were", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "staff");
    const { title } = uniqueTitle("A long article, followed");
    const sections = Array.from(
      { length: 20 },
      (_, index) =>
        `## Section ${index + 1}\n\nThe grading margins held for every feeder studied in section ${index + 1}, at minimum and maximum generation.`,
    );
    const id = await createArticle(page, { title, body: sections.join("\n\n") });
    await page.goto(editorUrl(id));
    await editorReady(page);
    const body = await visualBody(page);
    // The text box grows with the text: no scrolling inside it.
    expect(await body.evaluate((element) => element.scrollHeight - element.clientHeight)).toBeLessThanOrEqual(1);
    const preview = page.getByRole("region", { name: "Preview of the body" });
    await expect(preview.getByRole("heading", { name: "Section 20" })).toBeAttached();
    // The caret at the end: the preview shows the last section, and stays in view beside it.
    await body.getByRole("heading", { name: "Section 19" }).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" More.");
    await expect(preview.getByRole("heading", { name: "Section 20" })).toBeInViewport();
    await expect(preview).toBeInViewport();

    const before = await page.evaluate(() => window.scrollY);
    expect(before).toBeGreaterThan(400);
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(`${editorUrl(id)}?notice=draft-saved`);
    await editorReady(page);
    const after = await page.evaluate(() => window.scrollY);
    expect(Math.abs(after - (await page.evaluate(() => window.scrollY)))).toBeLessThan(2);
    expect(after).toBeGreaterThan(400);
    await expect(page.locator("[data-studio-save-status]")).toHaveText("Draft saved.");
  });

  test("a picture file pasted into Write is sent to the library, described, and shown with its alt text", async ({
    page,
    signIn,
  }) => {
    await signIn(page, "staff");
    const { title } = uniqueTitle("A pasted photo");
    await createArticle(page, { title, body: "Before the picture." });
    const body = await visualBody(page);
    await body.click();
    await page.keyboard.press("Control+End");
    // A picture no other test sends (the library keeps one copy of the same bytes).
    const bytes = await phonePhoto(uniqueSize());
    await body.evaluate((element, data) => {
      const transfer = new DataTransfer();
      transfer.items.add(
        new File([Uint8Array.from(atob(data), (char) => char.charCodeAt(0))], "image.jpg", { type: "image/jpeg" }),
      );
      element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, bytes.toString("base64"));
    const dialog = page.getByRole("dialog", { name: "Describe the picture" });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    await expect(page.locator("textarea[name=body]")).toHaveValue("Before the picture.");
    await dialog.getByLabel("Alt text").fill("A relay panel, doors open");
    await dialog.getByRole("button", { name: "Insert" }).click();
    await expect(dialog).toBeHidden();
    await expect(body.getByRole("img", { name: "A relay panel, doors open" })).toBeVisible();
    await expect(page.locator("textarea[name=body]")).toHaveValue(
      /^Before the picture\.!\[A relay panel, doors open\]\(\/media\/[0-9a-f]{16}\/original\.jpg\)$/,
    );
  });
  test("a web page's clipboard pasted into Write: its data: picture is sent to the library and described, another site's is left out with a word", async ({
    page,
    pageGuard,
    signIn,
  }) => {
    // The fixture's own library picture (/media/ab12…) is not in this test's library.
    pageGuard.allow(/404 \(Not Found\) \(http:\/\/localhost:\d+\/media\/ab12cd34ef56ab78\/original\.png\)/);
    await signIn(page, "staff");
    const { title } = uniqueTitle("Pasted from a web page");
    await createArticle(page, { title, body: "Opening." });
    const body = await visualBody(page);
    await pasteAtEnd(page, body, fixture("web-page.html"), "Choosing a detuned reactor");
    await expect(body.getByRole("heading", { level: 2, name: "Choosing a detuned reactor" })).toBeVisible();
    await expect(body.locator("ol > li > ul > li")).toHaveCount(2);
    const dialog = page.getByRole("dialog", { name: "Describe the picture" });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    await dialog.getByLabel("Decorative").check();
    await dialog.getByRole("button", { name: "Insert" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator("textarea[name=body]")).toHaveValue(/!\[\]\(\/media\/[0-9a-f]{16}\/original\.png\)/);
    // The other site's picture is not fetched nor shown (and the message says so, after the upload's).
    await expect(page.locator("textarea[name=body]")).not.toHaveValue(/cdn\.example\.org/);
  });
});
