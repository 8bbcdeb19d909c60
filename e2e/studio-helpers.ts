import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from "@playwright/test";
import { baseURL } from "../playwright.config.ts";
import { expect } from "./fixtures.ts";
import { adminOrigin } from "./staff-sessions.ts";

// The content studio in a real browser (docs/back-office.md, "Content studio"): opening the
// editor, filling an article's fields as a person would, and reading what a visitor reads.

/** A word no other test (nor run) uses, to find this test's article. */
export const uniqueWord = () => `Zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** An article's title no other test uses, and the slug the editor makes of it. */
export function uniqueTitle(words: string): { title: string; slug: string } {
  const tag = uniqueWord();
  const title = `${words} ${tag}`;
  return { title, slug: title.toLowerCase().replace(/[^a-z0-9]+/g, "-") };
}

/** The editor's form, once its script has started (toolbar, autosave, copy and presence are on). */
export const editorForm = (page: Page): Locator => page.locator("form[data-studio-editor]");

export async function editorReady(page: Page): Promise<void> {
  await page.locator("form[data-studio-editor][data-studio-ready=true]").waitFor();
}

/**
 * The Body field in the view shown (the tabs of a narrow screen are also named "Body", so by
 * role): the visual editor in Write, the Markdown textarea in the Markdown view.
 */
export const bodyField = (page: Page): Locator => page.getByRole("textbox", { name: "Body", exact: true });

/** The toolbar's toggle between Write and the Markdown view (pressed in Markdown). */
export const markdownToggle = (page: Page): Locator =>
  page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Markdown", exact: true });

/**
 * The Body's Markdown textarea, shown (decision 056: the editor opens in Write; this browser then
 * remembers the view chosen). For tests that type or read the Markdown itself.
 */
export async function markdownBody(page: Page): Promise<Locator> {
  const toggle = markdownToggle(page);
  if ((await toggle.getAttribute("aria-pressed")) !== "true") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  const field = page.locator("textarea[name=body]");
  await expect(field).toBeVisible();
  return field;
}

/** The Body in Write, the visual editor, shown. */
export async function visualBody(page: Page): Promise<Locator> {
  const toggle = markdownToggle(page);
  if ((await toggle.getAttribute("aria-pressed")) === "true") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  const field = page.locator("#article-body-visual");
  await expect(field).toBeVisible();
  return field;
}

/** The article's id in the editor's address, /admin/articles/<id>. */
export function articleIdOf(page: Page): string {
  const match = /\/admin\/articles\/([0-9a-f-]{36})(?:[/?#]|$)/.exec(page.url());
  if (!match) throw new Error(`not an article's editor: ${page.url()}`);
  return match[1]!;
}

export const editorUrl = (id: string) => `${adminOrigin}/admin/articles/${id}`;

export type ArticleFields = {
  title: string;
  excerpt?: string;
  category?: string;
  imageAlt?: string;
  body?: string;
  /** Chooses the first of the site's pictures. */
  cover?: boolean;
  /** A team member by name. */
  author?: string;
};

/** Fills the editor's fields (not the slug, which follows the title). */
export async function fillArticle(page: Page, fields: ArticleFields): Promise<void> {
  const form = editorForm(page);
  await form.getByLabel("Title", { exact: true }).fill(fields.title);
  if (fields.excerpt !== undefined) await form.getByLabel("Excerpt", { exact: true }).fill(fields.excerpt);
  if (fields.category !== undefined) await form.getByLabel("Category", { exact: true }).fill(fields.category);
  if (fields.author !== undefined)
    await form.getByLabel("Author", { exact: true }).selectOption({ label: fields.author });
  if (fields.cover) await form.getByLabel("Cover image", { exact: true }).selectOption({ index: 1 });
  if (fields.imageAlt !== undefined) await form.getByLabel("Alt text", { exact: true }).fill(fields.imageAlt);
  if (fields.body !== undefined) await (await markdownBody(page)).fill(fields.body);
}

/** Everything the publish checklist asks for, so the article can be published. */
export const publishable = (title: string, body = "A short article about grid codes.\n\nIt has two paragraphs.") => ({
  title,
  excerpt: `What ${title} is about, in a sentence.`,
  category: "Grid Integration",
  cover: true,
  imageAlt: "A single-line diagram of a substation.",
  body,
});

/**
 * "New article" from the articles list, filled and saved as a draft: the editor of the new
 * article, open and announced to others (presence), with its id.
 */
export async function createArticle(page: Page, fields: ArticleFields): Promise<string> {
  await page.goto(`${adminOrigin}/admin/articles`);
  await page.getByRole("link", { name: "New article" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New article");
  await editorReady(page);
  await fillArticle(page, fields);
  // The new article's editor says at once that this person has it open (its first presence beat).
  const announced = page.waitForResponse(
    (response) => /\/admin\/api\/articles\/[0-9a-f-]{36}\/presence$/.test(response.url()) && response.ok(),
  );
  await page.getByRole("button", { name: "Save draft" }).click();
  await page.waitForURL(/\/admin\/articles\/[0-9a-f-]{36}\?notice=article-created$/);
  await expect(page.getByRole("status").filter({ hasText: "The article was created as a draft." })).toBeVisible();
  await editorReady(page);
  await announced;
  return articleIdOf(page);
}

/** Text a browser holds in its copy of the article (localStorage), or "" when none is kept. */
export async function keptCopies(page: Page, articleId: string): Promise<string> {
  return page.evaluate(
    (id) =>
      Object.keys(window.localStorage)
        .filter((key) => key.startsWith(`studio:article:${id}:`))
        .map((key) => window.localStorage.getItem(key))
        .join("\n"),
    articleId,
  );
}

/**
 * A visitor: a browser with no session, on the site's public address (127.0.0.1); `options` sets
 * its screen (viewport, deviceScaleFactor) and the like.
 */
export async function visitorContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ ...options, baseURL });
}

/**
 * Waits for a published change to reach the public site (each instance polls the content version
 * every few seconds, decision 038 section 3): the page's status at `path`, as a visitor asks.
 */
export async function expectPublicStatus(context: BrowserContext, path: string, status: number): Promise<void> {
  await expect
    .poll(async () => (await context.request.get(`${baseURL}${path}`, { maxRedirects: 0 })).status(), {
      message: `${path} answers ${status}`,
      timeout: 15_000,
    })
    .toBe(status);
}
