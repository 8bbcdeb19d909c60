import { parseConfig } from "../src/server/config.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { newsletterSubscribers } from "../src/server/db/schema.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { e2eDataDir } from "./site-data.ts";
import { adminOrigin } from "./staff-sessions.ts";

// The subscribers page in a real browser: an address in each state (stored directly, as the
// subscription flow and the sender would leave them), the counts and the state filter, the
// proof of consent on demand, and an admin lifting a bounce; usable at 375 and 1280 px, without
// axe violations or sideways scrolling.

const uniqueWord = () => `zb${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function storeSubscribers(word: string) {
  const database = await openCommandDatabase(parseConfig({ DATA_DIR: e2eDataDir }), "browser tests");
  try {
    const day = (iso: string) => new Date(iso);
    await database.db.insert(newsletterSubscribers).values([
      { email: `${word}.pending@example.com`, status: "pending", statusChangedAt: day("2026-11-20T04:00:00Z") },
      {
        email: `${word}.confirmed.with-a-rather-long-address@example.com`,
        status: "confirmed",
        statusChangedAt: day("2026-11-21T09:15:00Z"),
        confirmedAt: day("2026-11-21T09:15:00Z"),
        consentPage: "/blog/grid-code-compliance-for-solar-parks",
        consentText: "Send me the Insights newsletter, about once a month. I can unsubscribe at any time.",
      },
      { email: `${word}.gone@example.com`, status: "unsubscribed", statusChangedAt: day("2026-11-22T18:40:00Z") },
      {
        email: `${word}.bounce@example.com`,
        status: "bouncing",
        statusChangedAt: day("2026-11-22T20:00:00Z"),
        confirmedAt: day("2026-11-01T10:00:00Z"),
        consentPage: "/blog",
        bounceReason:
          "550 5.1.1 <bounce@example.com>: Recipient address rejected: User unknown in virtual mailbox table",
      },
    ]);
  } finally {
    await database.close();
  }
}

test.describe("the subscribers page", () => {
  test.describe.configure({ timeout: 90_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("shows each state with its time and counts, filters by state, and an admin lifts a bounce", async ({
    page,
    signIn,
  }) => {
    const word = uniqueWord();
    await storeSubscribers(word);
    await signIn(page, "admin");
    await page.goto(`${adminOrigin}/admin/subscribers?q=${word}`);
    const table = page.getByRole("region", { name: "Subscribers" });
    await expect(table.getByRole("row")).toHaveCount(5);
    const row = (part: string) => table.getByRole("row").filter({ hasText: `${word}.${part}` });
    await expect(row("pending")).toContainText("Pending");
    await expect(row("pending")).toContainText("since 20 Nov 2026, 09:30 IST");
    await expect(row("confirmed")).toContainText("Consent given 21 Nov 2026, 14:45 IST on /blog/grid-code");
    await expect(row("confirmed").getByText("about once a month")).toBeHidden();
    await row("confirmed").getByText("Wording shown").click();
    await expect(row("confirmed").getByText("about once a month")).toBeVisible();
    await expect(row("bounce")).toContainText("Bounced: 550 5.1.1");

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      if (width === 1280) await expectNoAxeViolations(page, `subscribers at ${width} px`);
      await expectNoOverflow(page, `subscribers at ${width} px`);
      await photograph(page, `admin-subscribers-${width}`);
    }

    // The state's link filters, keeping the search.
    await page
      .getByRole("navigation", { name: "Subscribers by state" })
      .getByRole("link", { name: /^Bouncing/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`q=${word}.*state=bouncing`));
    await expect(table.getByRole("row")).toHaveCount(2);
    await page.getByRole("button", { name: `Lift bounce of ${word}.bounce@example.com` }).click();
    await expect(page.getByRole("status")).toContainText("The bounce was lifted");
    await page.goto(`${adminOrigin}/admin/subscribers?q=${word}.bounce&state=confirmed`);
    await expect(row("bounce")).toContainText("Confirmed");
    await expect(page.getByRole("button", { name: /Lift bounce/ })).toHaveCount(0);
  });
});
