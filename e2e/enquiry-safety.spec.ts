import { randomUUID } from "node:crypto";
import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { storedEnquiries, uniqueEmail } from "./site-data.ts";

// The contact form against the server's defences: single-use form tokens, answers to a repeated
// idempotency key, and inputs the server refuses.

const contactForm = (page: Page) => page.locator('form[action="/contact"]');

async function fill(page: Page, email: string, details: string) {
  const form = contactForm(page);
  await form.getByLabel("First Name").fill("Asha");
  await form.getByLabel("Last Name").fill("Patel");
  await form.getByLabel("Email Address").fill(email);
  await form.getByLabel("Project Details").fill(details);
}

const isEnquiryPost = (request: Request) => request.url().endsWith("/api/contact") && request.method() === "POST";

test("'Send Another Message' sends the next enquiry with a token of its own, and neither is taken for spam", async ({
  page,
}) => {
  const first = uniqueEmail("first-of-two");
  const second = uniqueEmail("second-of-two");
  await page.goto("/contact");
  await page.locator("html[data-hydrated=true]").waitFor();
  // The page's token was issued when the server rendered it: a person takes 3 s at least.
  const issuedAt = Number((await page.locator('input[name="formToken"]').inputValue()).split(".")[0]);
  await fill(page, first, "Load flow study for a 66 kV network.");
  await expect.poll(() => Date.now() - issuedAt, { timeout: 10_000 }).toBeGreaterThan(3200);
  const firstPost = page.waitForRequest(isEnquiryPost);
  await page.getByRole("button", { name: "Send Message" }).click();
  const firstToken = (await firstPost).postDataJSON().formToken as string;
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();

  await page.getByRole("button", { name: "Send Another Message" }).click();
  // Sent at once: the form itself lets its new token age past the minimum before sending it.
  await fill(page, second, "Protection coordination for the same network.");
  const secondPost = page.waitForRequest(isEnquiryPost);
  await page.getByRole("button", { name: "Send Message" }).click();
  const secondToken = (await secondPost).postDataJSON().formToken as string;
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();

  expect(secondToken).toMatch(/^\d{13}\./);
  expect(secondToken).not.toBe(firstToken);
  const rows = (await storedEnquiries()).filter((row) => row.email === first || row.email === second);
  expect(rows.map((row) => [row.email, row.spam, row.spamReason])).toEqual(
    expect.arrayContaining([
      [first, false, null],
      [second, false, null],
    ]),
  );
  expect(rows).toHaveLength(2);
});

test("the browser outbox forgets enquiries the server answers for good: stored before (200), refused (400 for a NUL, 409 for a used key)", async ({
  page,
  pageGuard,
}) => {
  pageGuard.allow(/status of 400 \(Bad Request\)|status of 409 \(Conflict\)/);
  const email = uniqueEmail("outbox-final");
  const stored = {
    firstName: "Asha",
    lastName: "Patel",
    email,
    company: "",
    service: "",
    message: "Arc flash study.",
    formToken: "",
    "bot-field": "",
  };
  const storedKey = randomUUID();
  // An enquiry the server already has (its answer was lost on the way back, say).
  const first = await page.request.post("/api/contact", { data: { ...stored, idempotencyKey: storedKey } });
  expect(first.status()).toBe(201);

  await page.goto("/contact");
  await page.locator("html[data-hydrated=true]").waitFor();
  const entries = [
    { idempotencyKey: storedKey, payload: stored, queuedAt: Date.now() },
    { idempotencyKey: randomUUID(), payload: { ...stored, message: "Harmonics\u0000study." }, queuedAt: Date.now() },
    {
      idempotencyKey: storedKey,
      payload: { ...stored, message: "Something else under the same key." },
      queuedAt: Date.now(),
    },
  ];
  // Kept by an older version of the page, which neither refused the NUL nor made a new key.
  await page.evaluate((kept) => localStorage.setItem("enquiry-outbox", JSON.stringify(kept)), entries);
  const statuses: number[] = [];
  page.on("response", (response) => {
    if (isEnquiryPost(response.request())) statuses.push(response.status());
  });
  await page.reload();
  await expect.poll(() => statuses, { timeout: 15_000 }).toHaveLength(3);
  // The outbox's entries share one key twice; each is sent and answered in turn.
  expect(statuses.sort()).toEqual([200, 400, 409]);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("enquiry-outbox"))).toBeNull();
  // Loading the page again sends nothing more.
  await page.reload();
  await page.locator("html[data-hydrated=true]").waitFor();
  expect(statuses).toHaveLength(3);
  const rows = (await storedEnquiries()).filter((row) => row.email === email);
  expect(rows.map((row) => row.message)).toEqual(["Arc flash study."]);
});

test("the form shows the server's refusal of a control character by its field, and sends nothing while it is there", async ({
  page,
}) => {
  await page.goto("/contact");
  await page.locator("html[data-hydrated=true]").waitFor();
  await fill(page, uniqueEmail("control"), "Study");
  // A paste can carry what typing cannot.
  await contactForm(page)
    .getByLabel("Last Name")
    .evaluate((input: HTMLInputElement) => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      setter.call(input, "Pa\u001btel");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  let posted = false;
  page.on("request", (request) => {
    if (isEnquiryPost(request)) posted = true;
  });
  await page.getByRole("button", { name: "Send Message" }).click();
  const lastName = contactForm(page).getByLabel("Last Name");
  await expect(lastName).toHaveAttribute("aria-invalid", "true");
  const describedBy = await lastName.getAttribute("aria-describedby");
  await expect(page.locator(`[id="${describedBy}"]`)).toHaveText("Last name must not contain control characters");
  expect(posted).toBe(false);
});
