import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

/** The logo: the header's first link to the home page. */
const logoLink = (page: Page) => page.getByRole("banner").locator('a[href="/"]').first();

const navItems = [
  ["Home", "/"],
  ["About", "/about"],
  ["Services", "/services"],
  ["Industries", "/industries"],
  ["Projects", "/projects"],
  ["Insights", "/blog"],
] as const;

test.describe("navigation on a wide screen", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  for (const [label, path] of navItems) {
    test(`marks only ${label} as the current page on ${path}`, async ({ page }) => {
      await page.goto(path);
      const nav = page.getByRole("navigation", { name: "Main", exact: true });
      await expect(nav.getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
      await expect(nav.locator("[aria-current=page]")).toHaveCount(1);
    });
  }

  test("marks Home only on an exact match and the others by path prefix", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 404/);
    await page.goto("/blog/some-article-that-is-not-there");
    const nav = page.getByRole("navigation", { name: "Main", exact: true });
    await expect(nav.getByRole("link", { name: "Insights" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Home" })).not.toHaveAttribute("aria-current", "page");
  });

  test("navigates between pages in the browser, moving the current mark and the title", async ({ page }) => {
    await page.goto("/");
    await page.locator("html[data-hydrated=true]").waitFor();
    const nav = page.getByRole("navigation", { name: "Main", exact: true });
    await nav.getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page).toHaveTitle(/^About Us/);
    await expect(nav.getByRole("link", { name: "About" })).toHaveAttribute("aria-current", "page");
    await page.getByRole("link", { name: "Contact Us" }).first().click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole("heading", { level: 1, name: "Get In Touch" })).toBeVisible();
  });

  test("can be used with the keyboard alone, starting with a skip link to the content", async ({ page }) => {
    await page.goto("/about");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
    await page.goto("/about");
    await page.locator("html[data-hydrated=true]").waitFor();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press("Tab");
    await expect(
      page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "Home" }),
    ).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/services$/);
  });

  test("shows the floating consultation button's tooltip after 700 ms of hover, and names it for screen readers", async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto("/about");
    await page.locator("html[data-hydrated=true]").waitFor();
    // From here the page's clock moves only when the test moves it.
    await page.clock.pauseAt(Date.now() + 60_000);
    const button = page.getByRole("link", { name: "Request Consultation" }).last();
    await expect(button).toHaveAttribute("href", "/contact");
    const box = await button.boundingBox();
    expect(box!.x + box!.width).toBeGreaterThan(1280 - 80);
    await button.hover();
    await page.clock.runFor(650);
    await expect(page.getByRole("tooltip")).toHaveCount(0);
    await page.clock.runFor(100);
    await expect(page.getByRole("tooltip")).toHaveText("Request Consultation");
    await expect(button).toHaveAttribute("aria-describedby", /.+/);
    await page.mouse.move(10, 400);
    await expect(page.getByRole("tooltip")).toHaveCount(0);
    // Within the 300 ms skip delay a tooltip opens again at once.
    await page.clock.runFor(100);
    await button.hover();
    await expect(page.getByRole("tooltip")).toHaveText("Request Consultation");
  });

  test("has the footer's four columns, placeholders that are not links, and the 2024 copyright", async ({ page }) => {
    await page.goto("/");
    const footer = page.locator("footer");
    for (const name of ["Services", "Company", "Resources"])
      await expect(footer.getByRole("navigation", { name })).toBeVisible();
    for (const label of [
      "Grid Integration",
      "Renewable Energy",
      "System Design",
      "Reliability Analysis",
      "Regulatory Compliance",
    ]) {
      await expect(
        footer.getByRole("navigation", { name: "Services" }).getByRole("link", { name: label }),
      ).toHaveAttribute("href", "/services");
    }
    const company = footer.getByRole("navigation", { name: "Company" });
    for (const [label, href] of [
      ["About Us", "/about"],
      ["Projects", "/projects"],
      ["Insights", "/blog"],
      ["Contact", "/contact"],
    ]) {
      await expect(company.getByRole("link", { name: label })).toHaveAttribute("href", href!);
    }
    for (const [label, href] of [
      ["Privacy Policy", "/privacy"],
      ["Terms of Service", "/terms"],
      ["Cookie Policy", "/cookies"],
    ]) {
      await expect(footer.getByRole("link", { name: label })).toHaveAttribute("href", href!);
    }
    for (const placeholder of [
      "Careers",
      "Whitepapers",
      "Case Studies",
      "Technical Resources",
      "Industry News",
      "Regulatory Updates",
    ]) {
      await expect(footer.getByText(placeholder, { exact: false }).first()).toBeVisible();
      await expect(footer.getByRole("link", { name: placeholder })).toHaveCount(0);
    }
    await expect(footer).toContainText("© 2024");
    expect(await footer.locator('a[href="#"], a:not([href])').count()).toBe(0);
  });
});

test.describe("the menu on a small screen", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("opens and closes with its button, closes when a link is chosen, and closes with Escape", async ({ page }) => {
    await page.goto("/");
    await page.locator("html[data-hydrated=true]").waitFor();
    const button = page.getByRole("button", { name: "Open menu" });
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toHaveAttribute("aria-controls", "site-menu");
    await expect(page.locator("#site-menu")).toBeHidden();
    await button.click();
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    const menu = page.locator("#site-menu");
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Industries" }).click();
    await expect(page).toHaveURL(/\/industries$/);
    await expect(menu).toBeHidden();
    // A new page: its menu button works once the header's island has hydrated (a click before that
    // lands on a button with no handler yet, as it once did on a loaded run).
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
  });

  test("closes when the logo link is chosen", async ({ page }) => {
    await page.goto("/about");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.locator("#site-menu");
    await expect(menu).toBeVisible();
    await logoLink(page).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
  });

  test("closes when the logo link to the page already shown is chosen", async ({ page }) => {
    await page.goto("/");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.locator("#site-menu")).toBeVisible();
    await logoLink(page).click();
    await expect(page.locator("#site-menu")).toBeHidden();
  });
});

test.describe("the menu on a tablet's width", () => {
  test.use({ viewport: { width: 768, height: 900 } });

  test("closes when the header's Contact Us link is chosen", async ({ page }) => {
    await page.goto("/");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.locator("#site-menu");
    await expect(menu).toBeVisible();
    // The header's own button comes before the menu's link of the same name.
    await page.getByRole("banner").getByRole("link", { name: "Contact Us" }).first().click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(menu).toBeHidden();
  });
});

test.describe("the menu on a small screen without JavaScript", () => {
  test.use({ viewport: { width: 375, height: 800 }, javaScriptEnabled: false });

  test("shows the menu's links in place of the button that could not open it, above the page", async ({ page }) => {
    await page.goto("/services");
    await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
    const menu = page.getByRole("navigation", { name: "Main (mobile)" });
    await expect(menu).toBeVisible();
    // The header scrolls with the page, so it covers none of the content below it.
    const menuBottom = (await menu.boundingBox())!.y + (await menu.boundingBox())!.height;
    expect((await page.getByRole("heading", { level: 1 }).boundingBox())!.y).toBeGreaterThanOrEqual(menuBottom);
    await menu.getByRole("link", { name: "Industries" }).click();
    await expect(page).toHaveURL(/\/industries$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});
