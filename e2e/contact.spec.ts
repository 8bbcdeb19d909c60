import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { MIN_FORM_FILL_MS } from "../src/shared/schemas/contact-limits.ts";
import { storedEnquiries, uniqueEmail } from "./site-data.ts";

async function openContact(page: Page) {
  await page.goto("/contact");
  await page.locator("html[data-hydrated=true]").waitFor();
}

const contactForm = (page: Page) => page.locator('form[action="/contact"]');

async function fillValid(page: Page, email: string) {
  const form = contactForm(page);
  await form.getByLabel("First Name").fill("Asha");
  await form.getByLabel("Last Name").fill("Patel");
  await form.getByLabel("Email Address").fill(email);
  await form.getByLabel("Company").fill("Kutch Solar Park");
  await form.getByLabel("Service of Interest").selectOption("grid-integration");
  await form.getByLabel("Project Details").fill("Connectivity study for a 120 MW solar plant at 220 kV.");
}

/**
 * Waits until the form's signed token is old enough for the server to take the post for a
 * person's: MIN_FORM_FILL_MS after the moment of issue that the token carries ("<ms>.<signature>").
 */
async function waitUntilFormTokenIsOldEnough(page: Page) {
  const token = await contactForm(page).locator('input[name="formToken"]').inputValue();
  const issuedAt = Number(/^(\d{13})\./.exec(token)?.[1]);
  expect(issuedAt, `the form's token "${token}" carries the moment it was issued`).toBeGreaterThan(0);
  await expect
    .poll(() => Date.now() - issuedAt, { timeout: MIN_FORM_FILL_MS + 10_000 })
    .toBeGreaterThanOrEqual(MIN_FORM_FILL_MS);
}

async function errorOf(page: Page, label: string) {
  const describedBy = await contactForm(page).getByLabel(label).getAttribute("aria-describedby");
  return page.locator(`[id="${describedBy}"]`);
}

test.describe("the contact page", () => {
  test("has the spec's fields, labels, types, optional markers and hidden inputs", async ({ page }) => {
    await openContact(page);
    await expect(page.getByRole("heading", { level: 1, name: "Get In Touch" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Send Us a Message" })).toBeVisible();
    await expect(page.getByLabel("Email Address")).toHaveAttribute("type", "email");
    // WCAG 2.2 1.3.5: checkers read a field's purpose from its type and autocomplete together.
    for (const [label, autocomplete] of [
      ["First Name", "given-name"],
      ["Last Name", "family-name"],
      ["Company", "organization"],
    ] as const) {
      await expect(contactForm(page).getByLabel(label)).toHaveAttribute("type", "text");
      await expect(contactForm(page).getByLabel(label)).toHaveAttribute("autocomplete", autocomplete);
    }
    await expect(page.getByLabel("Project Details")).toHaveAttribute("rows", "4");
    await expect(page.getByText("Company (optional)")).toBeVisible();
    await expect(page.getByText("Service of Interest (optional)")).toBeVisible();
    const options = await page
      .getByLabel("Service of Interest")
      .locator("option")
      .evaluateAll((nodes) => nodes.map((node) => [(node as HTMLOptionElement).value, node.textContent]));
    expect(options).toEqual([
      ["", "Select a service"],
      ["grid-integration", "Grid Integration"],
      ["renewable-energy", "Renewable Energy Solutions"],
      ["system-design", "System Design"],
      ["reliability-analysis", "Reliability Analysis"],
      ["regulatory-compliance", "Regulatory Compliance"],
      ["performance-optimization", "Performance Optimization"],
    ]);
    await expect(page.locator('input[type=hidden][name="form-name"]')).toHaveValue("contact");
    await expect(page.locator('input[name="bot-field"]')).toBeHidden();
    await expect(page.locator("form[method=post]")).toHaveCount(1);
  });

  test("validates on submit, ties each error to its field, focuses the first and announces them; re-validates on change", async ({
    page,
  }) => {
    await openContact(page);
    await page.getByLabel("Email Address").fill("not-an-address");
    await page.getByRole("button", { name: "Send Message" }).click();
    const firstName = page.getByLabel("First Name");
    await expect(firstName).toBeFocused();
    await expect(firstName).toHaveAttribute("aria-invalid", "true");
    const describedBy = await firstName.getAttribute("aria-describedby");
    await expect(page.locator(`[id="${describedBy}"]`)).toHaveText("First name is required");
    await expect(page.getByLabel("Email Address")).toHaveAttribute("aria-invalid", "true");
    await expect(await errorOf(page, "Email Address")).toHaveText("Enter a valid email address");
    await expect(page.getByRole("alert").filter({ hasText: "Please correct 4 fields" })).toBeAttached();
    await firstName.fill("Asha");
    await expect(firstName).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.locator(`[id="${describedBy}"]`)).toHaveCount(0);
  });

  test("shows 'Sending...' while sending, then the success toast and the 'Message Sent!' card", async ({ page }) => {
    await openContact(page);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/contact", async (route) => {
      await held;
      await route.continue();
    });
    await fillValid(page, uniqueEmail("sending"));
    await page.getByRole("button", { name: "Send Message" }).click();
    const sending = page.getByRole("button", { name: "Sending..." });
    await expect(sending).toBeDisabled();
    release();
    await expect(page.getByRole("status").filter({ hasText: "Message Sent Successfully" })).toContainText(
      "Thank you for contacting us. We'll get back to you within 24 hours.",
    );
    await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
    await page.getByRole("button", { name: "Send Another Message" }).click();
    await expect(page.getByLabel("First Name")).toHaveValue("");
    await expect(page.getByLabel("Project Details")).toHaveValue("");
  });

  test("moves focus to the 'Message Sent!' heading after sending, and to First Name after 'Send Another Message'", async ({
    page,
  }) => {
    await openContact(page);
    await fillValid(page, uniqueEmail("focus"));
    await page.getByRole("button", { name: "Send Message" }).focus();
    await page.keyboard.press("Enter");
    const heading = page.getByRole("heading", { name: "Message Sent!" });
    await expect(heading).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Send Another Message" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(contactForm(page).getByLabel("First Name")).toBeFocused();
    await expect(contactForm(page).getByLabel("First Name")).toHaveValue("");
  });

  test("shows the destructive toast 'Error Sending Message' with STATUS: message on a non-OK answer", async ({
    page,
    pageGuard,
  }) => {
    pageGuard.allow(/status of 500/);
    await openContact(page);
    await page.route("**/api/contact", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: "Internal Server Error", message: "Boom" }),
      }),
    );
    await fillValid(page, uniqueEmail("error"));
    await page.getByRole("button", { name: "Send Message" }).click();
    const toast = page.getByRole("alert").filter({ hasText: "Error Sending Message" });
    await expect(toast).toContainText("500: Boom");
    // A server failure may pass: the enquiry stays in the browser's outbox to be sent again.
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("enquiry-outbox") ?? "[]").length)).toBe(1);
    await expect(page.getByLabel("First Name")).toHaveValue("Asha");
    await expect(page.getByRole("heading", { name: "Message Sent!" })).toHaveCount(0);
  });

  test("shows the rate limit's message in the error toast", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 429/);
    await openContact(page);
    await page.route("**/api/contact", (route) =>
      route.fulfill({
        status: 429,
        headers: { "retry-after": "42" },
        contentType: "application/json",
        body: JSON.stringify({ error: "Too Many Requests", message: "Please wait 42 seconds and try again." }),
      }),
    );
    await fillValid(page, uniqueEmail("limited"));
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Error Sending Message" })).toContainText(
      "429: Please wait 42 seconds and try again.",
    );
    // The visitor was told to wait and send it again: the outbox does not send it behind their back.
    expect(await page.evaluate(() => localStorage.getItem("enquiry-outbox"))).toBeNull();
  });

  test("stores an enquiry sent with the keyboard alone", async ({ page }) => {
    const email = uniqueEmail("keyboard");
    await openContact(page);
    await page.getByLabel("First Name").focus();
    await page.keyboard.type("Ravi");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Shah");
    await page.keyboard.press("Tab");
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    await page.keyboard.type("Dahej Chemicals");
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Arc flash study for our 6.6 kV switchboards.");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Send Message" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
    const rows = (await storedEnquiries()).filter((row) => row.email === email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ firstName: "Ravi", lastName: "Shah" });
  });

  test("keeps an enquiry whose request failed in the browser and delivers it once on the next load", async ({
    page,
    pageGuard,
  }) => {
    pageGuard.allow(/ERR_INTERNET_DISCONNECTED/);
    const email = uniqueEmail("offline");
    await openContact(page);
    await page.route("**/api/contact", (route) => route.abort("internetdisconnected"), { times: 1 });
    await fillValid(page, email);
    // A person takes more than 3 seconds; the server marks faster posts as spam.
    await waitUntilFormTokenIsOldEnough(page);
    await page.getByRole("button", { name: "Send Message" }).click();
    // SPEC section 7: a network failure is shown as a success.
    await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("enquiry-outbox") ?? "[]").length)).toBe(1);
    expect((await storedEnquiries()).filter((row) => row.email === email)).toHaveLength(0);

    const resent = page.waitForResponse(
      (response) => response.url().endsWith("/api/contact") && response.request().method() === "POST",
    );
    await page.reload();
    expect((await resent).status()).toBe(201);
    await expect.poll(() => page.evaluate(() => localStorage.getItem("enquiry-outbox"))).toBeNull();
    await page.reload();
    await page.locator("html[data-hydrated=true]").waitFor();
    const rows = (await storedEnquiries()).filter((row) => row.email === email);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.spam).toBe(false);
  });
});

test("sends an enquiry written while offline as soon as the browser is back online", async ({
  page,
  context,
  pageGuard,
}) => {
  pageGuard.allow(/ERR_INTERNET_DISCONNECTED|Failed to fetch/);
  const email = uniqueEmail("online-event");
  await openContact(page);
  await fillValid(page, email);
  await waitUntilFormTokenIsOldEnough(page);
  await context.setOffline(true);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem("enquiry-outbox") ?? "[]").length)).toBe(1);
  const delivered = page.waitForResponse(
    (response) => response.url().endsWith("/api/contact") && response.status() === 201,
  );
  await context.setOffline(false);
  await delivered;
  await expect.poll(() => page.evaluate(() => localStorage.getItem("enquiry-outbox"))).toBeNull();
  expect((await storedEnquiries()).filter((row) => row.email === email)).toHaveLength(1);
});

test("the side cards give the address, phone and email, the business hours, the emergency note and the certifications", async ({
  page,
}) => {
  await page.goto("/contact");
  const details = page.getByRole("complementary", { name: "Contact details" });
  const info = details.getByRole("region", { name: "Contact Information" });
  await expect(info.locator("address")).toContainText("Ahmedabad, Gujarat");
  await expect(info.locator("address")).toContainText("India");
  await expect(info.getByRole("link", { name: "+91 79 4000 0000" })).toHaveAttribute("href", "tel:+917940000000");
  await expect(info.getByRole("link", { name: "consult@sabarmatigrid.example" })).toHaveAttribute(
    "href",
    "mailto:consult@sabarmatigrid.example",
  );

  const hours = details.getByRole("region", { name: "Business Hours" });
  const rows = await hours
    .locator("dl > div")
    .evaluateAll((nodes) =>
      nodes.map((node) => [node.querySelector("dt")?.textContent, node.querySelector("dd")?.textContent]),
    );
  expect(rows).toEqual([
    ["Monday-Friday", "8:00 AM - 6:00 PM"],
    ["Saturday", "9:00 AM - 2:00 PM"],
    ["Sunday", "Closed"],
  ]);
  await expect(hours).toContainText("24/7 emergency support is available for critical infrastructure projects.");

  const certifications = details.getByRole("region", { name: "Certifications & Partnerships" }).getByRole("listitem");
  await expect(certifications).toHaveText(["IEEE Member", "PE Licensed", "NECA Partner", "ISO Certified"]);
});

test("says once which fields are required: '*' on screen, in words for screen readers", async ({ page }) => {
  await page.goto("/contact");
  const hint = page.getByText("Fields marked * are required.").locator("..");
  await expect(hint).toBeVisible();
  expect(await hint.ariaSnapshot()).toBe("- paragraph: All fields are required unless marked optional.");
  await expect(page.getByText("Company (optional)")).toBeVisible();
  for (const label of ["First Name", "Last Name", "Email Address", "Project Details"]) {
    await expect(contactForm(page).getByLabel(label)).toHaveAttribute("required", "");
  }
});

test("promises a reply within 24 hours, unqualified, in its intro", async ({ page }) => {
  await page.goto("/contact");
  const intro = page.locator("section", { has: page.getByRole("heading", { level: 1, name: "Get In Touch" }) });
  await expect(intro).toContainText("replies within 24 hours,");
  await expect(page.locator("main")).not.toContainText("working days");
});

test("fetches a form token at send time when the next one failed to load, so the enquiry is not taken for spam", async ({
  page,
  pageGuard,
}) => {
  pageGuard.allow(/ERR_INTERNET_DISCONNECTED/);
  await openContact(page);
  const firstToken = await page.locator('input[name="formToken"]').inputValue();
  expect(firstToken).toMatch(/^\d{13}\./);
  await fillValid(page, uniqueEmail("token-first"));
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();

  // "Send Another Message" fetches the next token; here that fails, and the spent one is all there is.
  await page.route("**/api/form-token", (route) => route.abort("internetdisconnected"), { times: 1 });
  const failed = page.waitForEvent("requestfailed", (request) => request.url().endsWith("/api/form-token"));
  await page.getByRole("button", { name: "Send Another Message" }).click();
  await failed;
  await expect(page.locator('input[name="formToken"]')).toHaveValue(firstToken);
  const email = uniqueEmail("token-retry");
  await fillValid(page, email);
  const posted = page.waitForRequest(
    (request) => request.url().endsWith("/api/contact") && request.method() === "POST",
  );
  await page.getByRole("button", { name: "Send Message" }).click();
  const sentToken = (await posted).postDataJSON().formToken as string;
  expect(sentToken).toMatch(/^\d{13}\./);
  expect(sentToken).not.toBe(firstToken);
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
  const rows = (await storedEnquiries()).filter((row) => row.email === email);
  expect(rows).toHaveLength(1);
  expect(rows[0]?.spam).toBe(false);
});

test("the office section gives the address and directions that open in a new tab, loading nothing from elsewhere", async ({
  page,
}) => {
  await page.goto("/contact");
  const office = page.locator("section", { has: page.getByRole("heading", { name: "Visit Our Office" }) });
  await expect(office.locator("address")).toContainText("Ahmedabad, Gujarat");
  const links = office.getByRole("link", { name: /^Get directions/ });
  await expect(links).toHaveCount(2);
  for (const link of await links.all()) {
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /noopener/);
  }
  await expect(page.getByText("map integration is not implemented")).toHaveCount(0);
});

test.describe("the contact page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("posts a valid enquiry as a plain form and lands on the thank-you page", async ({ page }) => {
    const email = uniqueEmail("nojs");
    await page.goto("/contact");
    await fillValid(page, email);
    // A person takes more than 3 seconds; the server marks faster posts as spam.
    await waitUntilFormTokenIsOldEnough(page);
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    await expect(page.getByRole("heading", { level: 1, name: "Thank You!" })).toBeVisible();
    const rows = (await storedEnquiries()).filter((row) => row.email === email);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.spam).toBe(false);
  });

  test("shows the errors next to their fields and keeps the visitor's values", async ({ page, pageGuard }) => {
    pageGuard.allow(/status of 400 \(Bad Request\)/);
    await page.goto("/contact");
    await page.getByLabel("First Name").fill("Asha");
    await page.getByLabel("Email Address").fill("asha-at-example");
    await page.getByLabel("Project Details").fill("Harmonic study please.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByLabel("First Name")).toHaveValue("Asha");
    await expect(page.getByLabel("Email Address")).toHaveValue("asha-at-example");
    await expect(page.getByLabel("Project Details")).toHaveValue("Harmonic study please.");
    await expect(page.getByLabel("Last Name")).toHaveAttribute("aria-invalid", "true");
    await expect(await errorOf(page, "Last Name")).toHaveText("Last name is required");
    await expect(await errorOf(page, "Email Address")).toHaveText("Enter a valid email address");
  });
});
