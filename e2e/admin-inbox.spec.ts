import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { MIN_FORM_FILL_MS } from "../src/shared/schemas/contact-limits.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { storedEnquiries, storedSubscribers, uniqueEmail } from "./site-data.ts";
import { adminOrigin } from "./staff-sessions.ts";

// The enquiry inbox in a real browser: a visitor's enquiry from /contact reaches the inbox, a
// member of staff works it, and an admin erases a person's address.

/** A visitor sends an enquiry through the contact page, as a person would (not too fast). */
async function sendEnquiry(page: Page, fields: { lastName: string; email: string; company: string }) {
  await page.goto("/contact");
  await page.locator("html[data-hydrated=true]").waitFor();
  const form = page.locator('form[action="/contact"]');
  await form.getByLabel("First Name").fill("Asha");
  await form.getByLabel("Last Name").fill(fields.lastName);
  await form.getByLabel("Email Address").fill(fields.email);
  await form.getByLabel("Company").fill(fields.company);
  await form.getByLabel("Service of Interest").selectOption("grid-integration");
  await form.getByLabel("Project Details").fill("Connectivity study for a 120 MW solar plant at 220 kV.");
  const token = await form.locator('input[name="formToken"]').inputValue();
  const issuedAt = Number(/^(\d{13})\./.exec(token)?.[1]);
  await expect
    .poll(() => Date.now() - issuedAt, { timeout: MIN_FORM_FILL_MS + 10_000 })
    .toBeGreaterThanOrEqual(MIN_FORM_FILL_MS);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("heading", { name: "Message Sent!" })).toBeVisible();
}

const uniqueWord = () => `Zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe("the enquiry inbox", () => {
  test.describe.configure({ timeout: 90_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("an enquiry from /contact is worked in the inbox: status, owner, note, replied; filters, audit and export", async ({
    page,
    newStaff,
  }) => {
    const lastName = uniqueWord();
    const company = `${lastName} Renewables`;
    await sendEnquiry(page, { lastName, email: uniqueEmail("visitor"), company });

    // A person of this test's own: the Owner list names everyone, and this name must be there once.
    const owner = await newStaff(page, { name: "Nisha Rao", role: "admin" });
    await page.goto(`${adminOrigin}/admin`);
    await page.getByLabel("Search").fill(lastName);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${lastName}`));
    const rows = page.getByRole("region", { name: "Enquiries" }).locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(company);
    await expect(rows.first()).toContainText("Grid Integration");
    await expect(rows.first()).toContainText("New");
    await expect(rows.first()).toContainText(/Due in (23|24) h/);

    await rows
      .first()
      .getByRole("link", { name: `Asha ${lastName}` })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Asha ${lastName}`);
    const reference = (await page.locator("h1 + span").textContent())!;
    expect(reference).toMatch(/^ENQ-[0-9A-F]{8}$/);
    await expect(page.getByRole("link", { name: "Reply by email" })).toHaveAttribute(
      "href",
      new RegExp(`subject=Re%3A%20your%20enquiry%20${reference}$`),
    );

    await page.getByLabel("Status", { exact: true }).selectOption({ label: "Contacted" });
    await page.getByLabel("Owner", { exact: true }).selectOption({ label: owner.name });
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status")).toHaveText("Saved.");
    await page.getByLabel("Note", { exact: true }).fill("Called back; single-line diagram follows by mail.");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByRole("status")).toHaveText("The note was added.");
    await page.getByRole("button", { name: "Mark replied" }).click();
    await expect(page.getByRole("status")).toContainText("Marked replied");

    await page.reload();
    await expect(page.getByLabel("Status", { exact: true })).toHaveValue("contacted");
    await expect(page.getByLabel("Owner", { exact: true }).locator("option:checked")).toHaveText(owner.name);
    await expect(page.getByRole("region", { name: "Notes" })).toContainText(
      "Called back; single-line diagram follows by mail.",
    );
    await expect(page.locator("h1 ~ span").last()).toHaveText(/^Replied in \d+ min$/);
    await expect(page.getByRole("button", { name: "Mark replied" })).toHaveCount(0);

    await page.goto(`${adminOrigin}/admin/audit`);
    const audit = page.getByRole("region", { name: "Events" });
    for (const action of ["enquiry-status-changed", "enquiry-assigned", "enquiry-note-added", "enquiry-replied"]) {
      await expect(audit.getByRole("row").filter({ hasText: action }).filter({ hasText: reference })).toHaveCount(1);
    }

    // The filters narrow the list, and the URL keeps them: a bookmark shows the same view.
    await page.goto(`${adminOrigin}/admin`);
    await page.getByLabel("Search").fill(lastName);
    await page.getByLabel("Status").selectOption({ label: "New" });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByText("No enquiries match.")).toBeVisible();
    await page.getByLabel("Status").selectOption({ label: "Contacted" });
    await page.getByLabel("Owner").selectOption({ label: owner.name });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=contacted/);
    const bookmarked = page.url();
    expect(bookmarked).toContain(`q=${lastName}`);
    await page.goto(bookmarked);
    await expect(page.getByLabel("Status")).toHaveValue("contacted");
    await expect(page.getByLabel("Search")).toHaveValue(lastName);
    await expect(rows).toHaveCount(1);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^enquiries-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile(await download.path()))
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(reference);
    expect(csv[1]).toContain(company);
    expect(csv[1]).toContain("Contacted");
  });

  test("an admin erases an address: nothing of it remains in the inbox, the subscribers or the outbox", async ({
    page,
    signIn,
  }) => {
    const lastName = uniqueWord();
    const email = uniqueEmail("erase-me");
    await sendEnquiry(page, { lastName, email, company: "Erasable Energy" });
    await page.goto("/blog");
    await page.locator("html[data-hydrated=true]").waitFor();
    await page.getByRole("textbox", { name: "Email address" }).fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Check your inbox to confirm your subscription." }),
    ).toBeVisible();
    expect((await storedEnquiries()).filter((row) => row.email === email)).toHaveLength(1);
    // The box answers first and stores the address after its answer (decision 044): soon, not
    // before; on a busy embedded database it waits its turn for the one connection.
    await expect
      .poll(async () => (await storedSubscribers()).filter((row) => row.email === email).length, {
        timeout: 20_000,
      })
      .toBe(1);

    await signIn(page, "admin");
    await page.goto(`${adminOrigin}/admin`);
    await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Privacy" }).click();
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Preview" }).click();
    const counts = page.locator("[data-erasure-counts]");
    await expect(counts).toContainText("Enquiries: 1");
    await expect(counts).toContainText("Newsletter subscriptions: 1");
    await page.getByRole("button", { name: "Erase" }).click();
    await expect(page.getByRole("status")).toContainText("Erased.");
    await expect(page.getByRole("region", { name: "Erased" })).toContainText("Enquiries: 1");

    await page.goto(`${adminOrigin}/admin?status=all&q=${encodeURIComponent(email)}`);
    await expect(page.getByText("No enquiries match.")).toBeVisible();
    await page.goto(`${adminOrigin}/admin/subscribers?q=${encodeURIComponent(email)}`);
    await expect(page.getByText("No subscribers match.")).toBeVisible();
    // The export command reads the enquiries with their mail: none is left.
    expect((await storedEnquiries()).filter((row) => row.email === email || row.lastName === lastName)).toHaveLength(0);
    expect((await storedSubscribers()).filter((row) => row.email === email)).toHaveLength(0);
    await page.goto(`${adminOrigin}/admin/audit?action=erasure`);
    await expect(page.getByRole("region", { name: "Events" })).toContainText('"enquiries":1');
    await expect(page.getByRole("region", { name: "Events" })).not.toContainText(email);
  });

  // Axe at 1280 px only: the back office's markup does not change with the width.
  test("the inbox and an enquiry's page are usable at 375 and 1280 px, without axe violations, and with the keyboard", async ({
    page,
    signIn,
  }) => {
    const lastName = uniqueWord();
    await sendEnquiry(page, { lastName, email: uniqueEmail("axe-visitor"), company: "Axe Grid Pvt Ltd" });
    await signIn(page, "admin");
    await page.goto(`${adminOrigin}/admin?q=${lastName}`);
    const enquiryUrl = new URL(
      (await page.getByRole("link", { name: `Asha ${lastName}` }).getAttribute("href"))!,
      adminOrigin,
    ).href;
    await page.goto(enquiryUrl);
    await page.getByLabel("Note", { exact: true }).fill("A note, to see the timeline.");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByRole("status")).toHaveText("The note was added.");
    const pages = [
      { name: "inbox", url: `${adminOrigin}/admin` },
      { name: "enquiry", url: enquiryUrl },
    ];
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const entry of pages) {
        await page.goto(entry.url);
        if (width === 1280) await expectNoAxeViolations(page, `${entry.name} at ${width} px`);
        await expectNoOverflow(page, `${entry.name} at ${width} px`);
        await photograph(page, `admin-inbox-${entry.name}-${width}`);
      }
    }
    // The keyboard alone: from the search box, type, submit with Enter; Tab reaches the status control.
    await page.goto(`${adminOrigin}/admin`);
    await page.getByLabel("Search").focus();
    await page.keyboard.type(lastName);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`q=${lastName}`));
    await page.keyboard.press("Tab");
    await page.getByLabel("Search").focus();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Status")).toBeFocused();
  });

  // The pages beside the inbox need no enquiry of their own: a test each, shared by the two workers.
  for (const entry of [
    { name: "subscribers", path: "/admin/subscribers" },
    { name: "privacy", path: "/admin/privacy" },
  ]) {
    test(`the inbox's ${entry.name} page is usable at 375 and 1280 px, without axe violations`, async ({
      page,
      signIn,
    }) => {
      await signIn(page, "admin");
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${adminOrigin}${entry.path}`);
        if (width === 1280) await expectNoAxeViolations(page, `${entry.name} at ${width} px`);
        await expectNoOverflow(page, `${entry.name} at ${width} px`);
        await photograph(page, `admin-inbox-${entry.name}-${width}`);
      }
    });
  }
});
