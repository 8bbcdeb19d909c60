import { expect, test } from "./fixtures.ts";
import { photograph } from "./page-checks.ts";
import { adminOrigin } from "./staff-sessions.ts";
import {
  articleIdOf,
  bodyField,
  createArticle,
  editorReady,
  editorUrl,
  expectPublicStatus,
  fillArticle,
  markdownBody,
  publishable,
  uniqueTitle,
  uniqueWord,
  visitorContext,
} from "./studio-helpers.ts";

// The content studio's way to the public site in a real browser: an article written with the
// toolbar and its shortcuts, previewed, published and read by a visitor; its address changed; and
// publishing kept to those allowed (docs/back-office.md, "Content studio").

test.describe("publishing from the studio", () => {
  test.describe.configure({ timeout: 90_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("an admin writes an article with a heading, a table and a link, previews it, publishes it, and a visitor reads it on /blog, its page and the feed", async ({
    page,
    browser,
    pageGuard,
    signIn,
  }) => {
    await signIn(page, "admin");
    const { title, slug } = uniqueTitle("Harmonic limits at the point of connection");
    await page.goto(`${adminOrigin}/admin/articles`);
    await page.getByRole("link", { name: "New article" }).click();
    await editorReady(page);
    // Every field but the body, which is written below.
    await fillArticle(page, { ...publishable(title), body: undefined });
    // The slug follows the title.
    await expect(page.getByLabel("Slug", { exact: true })).toHaveValue(slug);

    // The body as a person writes it: typed, with a toolbar button, a shortcut and the table tool.
    // In the Markdown view (the editor opens in Write, decision 056).
    const text = await markdownBody(page);
    await text.click();
    await page.keyboard.type("Why the utility asks for a harmonic study.");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Measured distortion");
    await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Heading" }).click();
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Read the limits, then ");
    await page.keyboard.type("ask us");
    for (let step = 0; step < "ask us".length; step++) await page.keyboard.press("Shift+ArrowLeft");
    // Ctrl+K makes the selected words a link, and selects the address to write.
    await page.keyboard.press("Control+k");
    await page.keyboard.type("/contact");
    await page.keyboard.press("End");
    await page.keyboard.type(" for a study.");
    await page.keyboard.press("Enter");
    await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Table" }).click();
    // The table tool selects its first header, to be written over.
    await page.keyboard.type("Bus");
    await expect(text).toHaveValue(
      [
        "Why the utility asks for a harmonic study.",
        "",
        "## Measured distortion",
        "",
        "Read the limits, then [ask us](/contact) for a study.",
        "",
        "| Bus | Column 2 |",
        "| --- | --- |",
        "| Cell | Cell |",
      ].join("\n"),
    );

    // The live preview renders it as the article page will.
    const preview = page.getByRole("region", { name: "Preview of the body" });
    await expect(preview.getByRole("heading", { name: "Measured distortion", level: 2 })).toBeVisible();
    await expect(preview.getByRole("table")).toBeVisible();
    await expect(preview.getByRole("columnheader", { name: "Bus" })).toBeVisible();
    await expect(preview.getByRole("link", { name: "ask us" })).toHaveAttribute("href", "/contact");

    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\?notice=article-created$/);
    await editorReady(page);
    const id = articleIdOf(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.locator("[data-studio-checklist]")).toContainText("Nothing is missing.");
    // The card LinkedIn and WhatsApp will show, drawn for staff from the saved draft (decision 053).
    await expect(page.locator("[data-studio-link-preview] img").first()).toHaveJSProperty("naturalWidth", 1200);

    // Not public yet: a visitor finds nothing at its address.
    const visitor = await visitorContext(browser);
    try {
      expect((await visitor.request.get(`/blog/${slug}`)).status()).toBe(404);

      // A last line, and straight to "Preview": the editor saves it first, then opens the saved draft
      // in a new tab, at a link of its own, marked as a draft.
      const closing = `Measured on ${uniqueWord()}.`;
      await bodyField(page).focus();
      await page.keyboard.press("Control+End");
      await page.keyboard.type(`\n\n${closing}`);
      const [previewTab] = await Promise.all([
        page.context().waitForEvent("page"),
        page.getByRole("button", { name: "Preview", exact: true }).click(),
      ]);
      pageGuard.watch(previewTab);
      await previewTab.waitForURL(/\/preview\/[A-Za-z0-9_-]{20,}$/);
      await expect(page.locator("[data-studio-save-status]")).toHaveText(/^Saved at \d\d:\d\d$/);
      await expect(previewTab.getByText("Draft, not public").first()).toBeVisible();
      await expect(previewTab.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(previewTab.getByRole("table")).toBeVisible();
      await expect(previewTab.getByText(closing)).toBeVisible();
      await previewTab.close();

      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.waitForURL(`${editorUrl(id)}?notice=article-published`);
      await expect(
        page.getByRole("status").filter({ hasText: "Published: the article is on the site." }),
      ).toBeVisible();
      await expect(page.locator("[data-studio-public-state]")).toContainText(`On the site at /blog/${slug}`);

      // A visitor, with no session, on the public address.
      await expectPublicStatus(visitor, `/blog/${slug}`, 200);
      const reader = await visitor.newPage();
      pageGuard.watch(reader);
      await reader.goto(`/blog/${slug}`);
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
      // Its link preview: the card, a JPEG anyone may fetch now the article is public.
      const card = await reader.locator('meta[property="og:image"]').getAttribute("content");
      const cardAnswer = await visitor.request.get(new URL(card!).pathname);
      expect(cardAnswer.status()).toBe(200);
      expect(cardAnswer.headers()["content-type"]).toBe("image/jpeg");
      const article = reader.getByRole("article", { name: title, exact: true });
      await expect(article.getByRole("heading", { name: "Measured distortion", level: 2 })).toBeVisible();
      await expect(article.getByRole("table")).toContainText("Bus");
      await expect(article.getByRole("link", { name: "ask us" })).toHaveAttribute("href", "/contact");
      await expect(article).toContainText(closing);
      await expect(reader.getByText("Draft, not public")).toHaveCount(0);

      await reader.goto("/blog");
      await expect(reader.getByRole("link", { name: new RegExp(title) }).first()).toHaveAttribute(
        "href",
        `/blog/${slug}`,
      );
      const feed = await visitor.request.get("/rss.xml");
      expect(feed.status()).toBe(200);
      const xml = await feed.text();
      expect(xml).toContain(`<title>${title}</title>`);
      expect(xml).toContain(`/blog/${slug}</link>`);
    } finally {
      await visitor.close();
    }
  });

  test("a published article's slug is changed and published again: its old address answers 301 to the new one", async ({
    page,
    browser,
    signIn,
  }) => {
    await signIn(page, "admin");
    const { title, slug } = uniqueTitle("Relay coordination in solar parks");
    const id = await createArticle(page, publishable(title));
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.waitForURL(`${editorUrl(id)}?notice=article-published`);
    await editorReady(page);

    const visitor = await visitorContext(browser);
    try {
      await expectPublicStatus(visitor, `/blog/${slug}`, 200);
      // Once public, the slug no longer follows the title; it is changed by hand.
      await page.getByLabel("Title", { exact: true }).fill(`${title} revised`);
      await expect(page.getByLabel("Slug", { exact: true })).toHaveValue(slug);
      const moved = `${slug}-revised`;
      await page.getByLabel("Slug", { exact: true }).fill(moved);
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.waitForURL(`${editorUrl(id)}?notice=article-published`);
      await expect(page.locator("[data-studio-public-state]")).toContainText(`On the site at /blog/${moved}`);

      await expectPublicStatus(visitor, `/blog/${moved}`, 200);
      const old = await visitor.request.get(`/blog/${slug}`, { maxRedirects: 0 });
      expect(old.status()).toBe(301);
      expect(new URL(old.headers().location!, "http://site.invalid").pathname).toBe(`/blog/${moved}`);
      const reader = await visitor.newPage();
      await reader.goto(`/blog/${slug}`);
      await expect(reader).toHaveURL(new RegExp(`/blog/${moved}$`));
      await expect(reader.getByRole("heading", { level: 1 })).toHaveText(`${title} revised`);
    } finally {
      await visitor.close();
    }
  });

  test("staff without Can publish save a draft but cannot publish it, until an admin allows them on the Staff page", async ({
    page,
    browser,
    pageGuard,
    newStaff,
    signIn,
  }) => {
    pageGuard.allow(/status of 403 \(Forbidden\)/);
    // A person of this test's own: an admin allows them to publish.
    const writer = await newStaff(page, { name: "Ravi Desai", role: "staff" });
    const { title, slug } = uniqueTitle("Earthing design for a 66 kV yard");
    const id = await createArticle(page, publishable(title));
    await expect(page.locator("[data-studio-checklist]")).toContainText("Nothing is missing.");
    await expect(page.getByRole("button", { name: "Save draft" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Publish", exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Schedule" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Unpublish" })).toHaveCount(0);
    await expect(page.getByText("Publishing needs an admin, or someone an admin has allowed to publish")).toBeVisible();

    // A publish posted anyway, from the editor's own page with its own form's fields.
    const crafted = await page.evaluate(async (url) => {
      const data = new URLSearchParams();
      const form = document.querySelector<HTMLFormElement>("form[data-studio-editor]")!;
      for (const [key, value] of new FormData(form)) if (typeof value === "string") data.append(key, value);
      data.set("when", "now");
      const response = await fetch(url, { method: "POST", body: data });
      return { status: response.status, text: await response.text() };
    }, `/admin/articles/${id}/publish`);
    expect(crafted.status).toBe(403);
    expect(crafted.text).toContain("Publishing needs an admin, or a member of staff an admin has allowed to publish.");

    const visitor = await visitorContext(browser);
    const admin = await browser.newContext();
    try {
      expect((await visitor.request.get(`/blog/${slug}`)).status()).toBe(404);
      expect(await (await visitor.request.get("/api/blog-posts")).text()).not.toContain(slug);
      expect(await (await visitor.request.get("/rss.xml")).text()).not.toContain(slug);

      const adminPage = await admin.newPage();
      pageGuard.watch(adminPage);
      await signIn(adminPage, "admin");
      await adminPage.goto(`${adminOrigin}/admin/staff`);
      const row = adminPage.getByRole("row").filter({ hasText: writer.email });
      await expect(row.locator("[data-can-publish]")).toHaveText("No");
      await row.getByRole("button", { name: `Allow publishing for ${writer.name}` }).click();
      await expect(adminPage.getByRole("status")).toContainText("Done. It applies from their next request.");
      await expect(row.locator("[data-can-publish]")).toHaveText("Yes");

      await page.reload();
      await editorReady(page);
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.waitForURL(`${editorUrl(id)}?notice=article-published`);
      await expect(
        page.getByRole("status").filter({ hasText: "Published: the article is on the site." }),
      ).toBeVisible();
      await expectPublicStatus(visitor, `/blog/${slug}`, 200);
    } finally {
      await admin.close();
      await visitor.close();
    }
  });

  for (const width of [375, 1280]) {
    test(`a refused Publish at ${width} px lands on the problems at the top, focus on the first, and a reload sends nothing again`, async ({
      page,
      signIn,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await signIn(page, "admin");
      const { title } = uniqueTitle("Earthing grid design for a 220 kV yard");
      // No excerpt and no alt text: two of the checklist's blockers, far down on a phone.
      const id = await createArticle(page, { title, category: "Protection & Safety", cover: true, body: "First." });
      const body = `First.\n\nTyped just before pressing Publish ${uniqueWord()}.`;
      await bodyField(page).fill(body);
      await page.getByRole("button", { name: "Publish", exact: true }).click();

      // Back at the editor's address (not …/publish), the draft saved, the problems at the top.
      await page.waitForURL(`${editorUrl(id)}?refused=now`);
      const problems = page.locator("[data-studio-problems]");
      await expect(problems).toContainText(
        "Not published. Your text is saved as a draft; put these right, then publish again:",
      );
      await expect(problems).toBeInViewport();
      const first = problems.getByRole("link").first();
      await expect(first).toBeFocused();
      await expect(bodyField(page)).toHaveValue(body);
      await photograph(page, `studio-publish-refused-${width}`);
      // The first problem leads to its field.
      const target = (await first.getAttribute("href"))!;
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(new RegExp(`${target}$`));
      await expect(page.locator(target)).toBeInViewport();

      // A reload is a plain GET: no form sent again, no conflict with oneself, nothing to restore.
      await page.goto(`${editorUrl(id)}?refused=now`);
      await editorReady(page);
      await expect(page.locator("[data-studio-problems]")).toBeVisible();
      await expect(page.getByText("Changed by")).toHaveCount(0);
      await expect(page.locator("[data-studio-copy-offer]")).toBeHidden();
      await expect(bodyField(page)).toHaveValue(body);
    });
  }
});
