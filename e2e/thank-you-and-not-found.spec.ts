import { baseURL } from "../playwright.config.ts";
import { expect, test } from "./fixtures.ts";

test("the thank-you page counts down from 10 and goes home after 10 seconds", async ({ page }) => {
  await page.clock.install();
  await page.goto("/thank-you");
  await page.locator("html[data-hydrated=true]").waitFor();
  await page.clock.pauseAt(Date.now() + 1000);
  await expect(page.getByRole("heading", { level: 1, name: "Thank You!" })).toBeVisible();
  await expect(page.getByText(/within 24 hours/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Return Home" })).toHaveAttribute("href", "/");
  await expect(page.getByRole("link", { name: "Send Another Message" })).toHaveAttribute("href", "/contact");
  const countdown = page.getByTestId("countdown");
  const start = Number(await countdown.textContent());
  expect(start).toBeGreaterThanOrEqual(9);
  await page.clock.runFor(3000);
  await expect(countdown).toHaveText(String(start - 3));
  await expect(page).toHaveURL(/\/thank-you$/);
  await page.clock.runFor(10_000);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Thank You!");
});

test.describe("the thank-you page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  // Needs the head to carry the route's redirectWithoutJavaScript (a noscript meta refresh).
  test("says it will redirect in 10 seconds and is on / about 10 seconds after landing", async ({ page }) => {
    await page.goto("/thank-you");
    const landed = Date.now();
    await expect(page.getByRole("heading", { level: 1, name: "Thank You!" })).toBeVisible();
    await expect(page.getByText("You will be redirected to the home page in 10 seconds.")).toBeVisible();
    await page.waitForURL((url) => url.pathname === "/", { timeout: 15_000 });
    const elapsed = Date.now() - landed;
    expect(elapsed).toBeGreaterThan(9_000);
    expect(elapsed).toBeLessThan(13_000);
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Thank You!");
  });
});

test("an unknown path answers 404 with the 'Page Not Found' page and a developer hint", async ({ page, pageGuard }) => {
  pageGuard.allow(/status of 404/);
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
  await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
});

// One route table decides for the server and the browser: an address is the same page on both.
test("an article address in capitals is sent to its lower-case address and shows the article", async ({ page }) => {
  const response = await page.goto("/blog/IEEE-519-harmonics-at-a-vfd-heavy-plant");
  expect(response?.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe("/blog/ieee-519-harmonics-at-a-vfd-heavy-plant");
  await page.locator("html[data-hydrated=true]").waitFor();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^IEEE 519 at a Drive-Heavy Plant/);
});

for (const address of ["/blog/a_b", "/blog/no-such-article", "//anything"]) {
  test(`${address} is the 404 page on the server and stays it once hydrated`, async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 404/);
    // In full: a bare "//anything" would be read as the host "anything".
    const response = await page.goto(`${baseURL}${address}`);
    expect(response?.status()).toBe(404);
    await page.locator("html[data-hydrated=true]").waitFor();
    await expect(page).toHaveTitle(/^Page Not Found/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
    await expect(page.getByText("Loading article...")).toHaveCount(0);
    // Nothing is fetched to make up for it: the browser agrees with the server's answer.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
  });
}

test.describe("notifications", () => {
  test("show one toast at a time, close after 5 seconds or a swipe of 50 px, and F8 focuses their region", async ({
    page,
    pageGuard,
  }) => {
    pageGuard.allow(/status of 500/);
    await page.clock.install();
    await page.goto("/contact");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.clock.pauseAt(Date.now() + 1000);
    let call = 0;
    await page.route("**/api/contact", (route) => {
      call += 1;
      return route.fulfill({ status: 500, contentType: "text/plain", body: `failure ${call}` });
    });
    const form = page.locator('form[action="/contact"]');
    await form.getByLabel("First Name").fill("Asha");
    await form.getByLabel("Last Name").fill("Patel");
    await form.getByLabel("Email Address").fill("asha@example.com");
    await form.getByLabel("Project Details").fill("Study.");
    // The paused clock also holds animation frames (which click()'s checks wait for) and the
    // zero-delay timers the query library batches its updates with: advance it a little.
    const send = {
      click: async () => {
        await page.locator('form[action="/contact"] button[type=submit]').dispatchEvent("click");
        for (let i = 0; i < 5; i += 1) await page.clock.runFor(20);
      },
    };
    const toasts = page.getByTestId("toast-viewport").locator("li");

    await send.click();
    await expect(toasts).toHaveCount(1);
    await expect(toasts).toContainText("500: failure 1");
    await send.click();
    await expect(toasts).toHaveCount(1);
    await expect(toasts).toContainText("500: failure 2");

    await page.keyboard.press("F8");
    await expect(page.getByTestId("toast-viewport")).toBeFocused();

    // The toast's 5 s start when it is shown, somewhere in the 100 ms the clock ran after the
    // click (when the answer arrived, on a busy machine late in it): open at 4.7 s, gone by 5.1 s.
    await page.clock.runFor(4700);
    await expect(toasts).toHaveCount(1);
    await page.clock.runFor(400);
    await expect(toasts).toHaveCount(0);

    await send.click();
    await expect(toasts).toHaveCount(1);
    const box = (await toasts.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 50, y, { steps: 3 });
    await page.mouse.up();
    await expect(toasts).toHaveCount(1);
    await page.mouse.move(box.x + 20, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 80, y, { steps: 3 });
    await page.mouse.up();
    await expect(toasts).toHaveCount(0);
  });

  test("sit at the bottom right, at most 420 px wide, on wide screens", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 500/);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/contact");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.route("**/api/contact", (route) => route.fulfill({ status: 500, body: "" }));
    const form = page.locator('form[action="/contact"]');
    await form.getByLabel("First Name").fill("Asha");
    await form.getByLabel("Last Name").fill("Patel");
    await form.getByLabel("Email Address").fill("asha@example.com");
    await form.getByLabel("Project Details").fill("Study.");
    await page.getByRole("button", { name: "Send Message" }).click();
    const toast = page.getByRole("alert").filter({ hasText: "Error Sending Message" });
    await expect(toast).toContainText("500: Internal Server Error");
    const viewport = (await page.getByTestId("toast-viewport").boundingBox())!;
    expect(viewport.width).toBeLessThanOrEqual(420);
    expect(viewport.x + viewport.width).toBeCloseTo(1280, 0);
  });
});
