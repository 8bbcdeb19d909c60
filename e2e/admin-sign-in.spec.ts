import type { Page } from "@playwright/test";
import {
  acceptInvitation,
  addVirtualAuthenticator,
  adminOrigin,
  contextWithPasskeys,
  staffCommand,
} from "./admin-helpers.ts";
import { expect, type StaffFixtures, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { uniqueEmail } from "./site-data.ts";
import { addPasskey, inviteToSite } from "./staff-sessions.ts";

// The back office's door in a real browser: Chromium's virtual WebAuthn authenticator (through the
// DevTools protocol) stands in for a phone or a laptop's passkey. Browsers refuse passkeys on a
// bare IP address, so these pages are opened at http://localhost:<port>.

test.describe("the back office's sign-in", () => {
  // Most tests run the staff command (a process of its own) and passkey ceremonies.
  test.describe.configure({ timeout: 60_000 });
  test.beforeEach(({ pageGuard }) => {
    // The back office is browsed at localhost, not at the tests' 127.0.0.1.
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("an invitation from the command line is accepted with a passkey; the person signs out and in again from another browser", async ({
    page,
    browser,
    pageGuard,
  }) => {
    const email = uniqueEmail("admin");
    const link = await staffCommand("invite", email, "--name", "Meera Shah", "--role", "admin");
    expect(link).toMatch(new RegExp(`^${adminOrigin}/admin/invite/[A-Za-z0-9_-]{43}$`));
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    await acceptInvitation(page, link, "Meera Shah");
    await expect(page.getByRole("banner")).toContainText("Meera Shah");
    await expect(
      page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Staff" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Enquiries");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${adminOrigin}/admin/sign-in?notice=signed-out`);
    await expect(page.getByText("You have signed out.")).toBeVisible();
    await page.goto(`${adminOrigin}/admin/staff`);
    await expect(page).toHaveURL(`${adminOrigin}/admin/sign-in?next=%2Fadmin%2Fstaff`);

    // The passkey, as a phone that synced it would hold it, in a browser that has never been here.
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    const other = await browser.newContext();
    try {
      const { page: second } = await contextWithPasskeys(other, credentials);
      second.on("request", (request) => {
        if (!request.url().startsWith(adminOrigin)) pageGuard.allow(/never/);
      });
      await second.goto(`${adminOrigin}/admin/staff`);
      await second.waitForURL(/\/admin\/sign-in\?next=/);
      await second.locator("html[data-ready=true]").waitFor();
      await second.getByRole("button", { name: "Sign in with a passkey" }).click();
      await second.waitForURL(`${adminOrigin}/admin/staff`);
      await expect(second.getByRole("heading", { level: 1 })).toHaveText("Staff");
      await expect(second.getByRole("cell", { name: new RegExp(email) })).toBeVisible();
    } finally {
      await other.close();
    }
  });

  test("a second use of an invitation fails with a clear page", async ({ page, browser }) => {
    const link = await staffCommand("invite", uniqueEmail("twice"), "--name", "Asha Patel");
    await addVirtualAuthenticator(page);
    await acceptInvitation(page, link, "Asha Patel");
    const other = await browser.newContext();
    try {
      const second = await other.newPage();
      const response = await second.goto(link);
      expect(response?.status()).toBe(410);
      await expect(second.getByRole("heading", { level: 1 })).toHaveText("This invitation cannot be used");
      await expect(second.getByText("It has been used already, it has expired")).toBeVisible();
      await expect(second.getByRole("button", { name: /passkey/ })).toHaveCount(0);
    } finally {
      await other.close();
    }
  });

  test("on a new phone without a passkey, signing in points to the other way in instead of 'Try again'", async ({
    page,
  }) => {
    // A device with an authenticator but none of this site's passkeys: the browser refuses the
    // ceremony as it refuses a closed prompt. The test site has no mail set up, so the way in is an
    // admin's link (with mail, the page's own "Lost your device?" form).
    await addVirtualAuthenticator(page);
    await page.goto(`${adminOrigin}/admin/sign-in`);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toHaveText(
      "No passkey was used. On a new phone or another device without your passkey, ask an admin for a sign-in link.",
    );
    await expect(alert).not.toContainText("Try again");
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeEnabled();
  });

  test("a disabled person's open session stops working on its next request", async ({ page }) => {
    const email = uniqueEmail("leaver");
    const link = await staffCommand("invite", email, "--name", "Ravi Desai");
    await addVirtualAuthenticator(page);
    await acceptInvitation(page, link, "Ravi Desai");
    await page.goto(`${adminOrigin}/admin/account`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
    expect(await staffCommand("disable", email)).toContain("Disabled Ravi Desai");
    await page.reload();
    await expect(page).toHaveURL(`${adminOrigin}/admin/sign-in?next=%2Fadmin%2Faccount`);
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
  });

  test("a one-time sign-in link lets someone who lost their device in, once, and they add a new passkey", async ({
    page,
    pageGuard,
  }) => {
    pageGuard.allow(/status of 410/);
    const email = uniqueEmail("lost");
    const lost = await addVirtualAuthenticator(page);
    await acceptInvitation(page, await staffCommand("invite", email, "--name", "Lost Device"), "Lost Device");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/sign-in/);
    // The device with the passkey is gone.
    await lost.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: lost.authenticatorId });

    const link = await staffCommand("sign-in-link", email);
    await page.goto(link);
    await page.getByRole("button", { name: "Sign in as Lost Device" }).click();
    await page.waitForURL(`${adminOrigin}/admin/account?notice=signed-in-by-link`);
    await expect(page.getByRole("status").first()).toContainText("Add a passkey for this device now");
    // The new device's authenticator.
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    await page.getByRole("button", { name: "Add a passkey on this device" }).click();
    await page.waitForURL(`${adminOrigin}/admin/account?notice=passkey-added`);
    await expect(page.getByRole("heading", { name: "Passkeys" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Remove passkey/ })).toHaveCount(2);
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1);

    const again = await page.goto(link);
    expect(again?.status()).toBe(410);
  });

  // A test per page, shared by the two workers; axe at 1280 px only: the back office's markup does
  // not change with the width. The signed-in pages need an admin with a session, not a sign-in
  // (the sign-ins are the tests above).
  const pages: { name: string; open: (fixtures: StaffFixtures & { page: Page }) => Promise<string> }[] = [
    { name: "sign-in", open: async () => `${adminOrigin}/admin/sign-in` },
    { name: "invitation", open: () => inviteToSite({ name: "Axe Admin", role: "admin" }) },
    {
      name: "home",
      open: async ({ page, signIn }) => {
        await signIn(page, "admin");
        return `${adminOrigin}/admin`;
      },
    },
    {
      // An admin of the test's own with a passkey, so that the page lists one, as after a sign-up.
      name: "account",
      open: async ({ page, newStaff }) => {
        await addPasskey(await newStaff(page, { name: "Axe Admin", role: "admin" }));
        return `${adminOrigin}/admin/account`;
      },
    },
    {
      name: "staff",
      open: async ({ page, signIn }) => {
        await signIn(page, "admin");
        return `${adminOrigin}/admin/staff`;
      },
    },
    {
      // An invitation first, so that the trail has an event to show whichever tests ran before.
      name: "audit",
      open: async ({ page, signIn }) => {
        await inviteToSite({ name: "Audit Trail", role: "staff" });
        await signIn(page, "admin");
        return `${adminOrigin}/admin/audit`;
      },
    },
  ];
  for (const entry of pages) {
    test(`the ${entry.name} page fits 375 and 1280 px and has no axe violations`, async ({
      page,
      signIn,
      newStaff,
    }) => {
      const url = await entry.open({ page, signIn, newStaff });
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(url);
        if (width === 1280) await expectNoAxeViolations(page, `${entry.name} at ${width} px`);
        await expectNoOverflow(page, `${entry.name} at ${width} px`);
        await photograph(page, `admin-${entry.name}-${width}`);
      }
    });
  }

  test("the staff page works with the keyboard alone: invite someone and read the link", async ({ page }) => {
    await addVirtualAuthenticator(page);
    await acceptInvitation(
      page,
      await staffCommand("invite", uniqueEmail("keys"), "--name", "Keyboard Admin", "--role", "admin"),
      "Keyboard Admin",
    );
    await page.goto(`${adminOrigin}/admin/staff`);
    await page.getByLabel("Name").focus();
    await page.keyboard.type("New Colleague");
    await page.keyboard.press("Tab");
    await page.keyboard.type(uniqueEmail("colleague"));
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Create invitation" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: /Invitation created for/ })).toBeVisible();
    await expect(page.getByLabel("Link")).toHaveValue(new RegExp(`^${adminOrigin}/admin/invite/`));
  });
});

test("no public page loads the back office's code", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script" || request.resourceType() === "stylesheet") scripts.push(request.url());
  });
  for (const path of ["/", "/contact", "/blog"]) {
    await page.goto(path);
    await page.locator("html[data-hydrated=true]").waitFor();
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => /admin/.test(url))).toEqual([]);
  // And no public page links to it.
  for (const path of ["/", "/about", "/contact"]) {
    await page.goto(path);
    expect(await page.locator('a[href^="/admin"]').count(), path).toBe(0);
  }
});
