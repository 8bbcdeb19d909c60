import { eq } from "drizzle-orm";
import { backupRuns } from "../src/server/db/schema.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { readSiteDatabase } from "./site-data.ts";
import { adminOrigin } from "./staff-sessions.ts";

// The Health page in a real browser: a backup whose restore drill failed (stored directly, as the
// backups would leave it) makes the Backups line red, in a word and a mark as well as a colour;
// the page at 375 and 1280 px without axe violations or sideways scrolling, and its links reached
// and followed with the keyboard. The browser tests' site has no mail: Mail says "Not set up".

const MARK = "browser tests (health)";

async function storeBackups() {
  await readSiteDatabase(async (db) => {
    const hour = 3_600_000;
    const at = (ago: number) => new Date(Date.now() - ago);
    await db.insert(backupRuns).values([
      {
        trigger: "scheduled",
        requestedBy: MARK,
        startedAt: at(20 * hour),
        finishedAt: at(20 * hour - 120_000),
        status: "done",
        fileName: "site-20261128T210000Z.tar.gz",
        bytes: 48_300_000,
        drillStatus: "passed",
        drillAt: at(20 * hour - 300_000),
        drillDetail: "restored into a scratch database: 31 tables, row counts match",
      },
      {
        trigger: "health-page",
        requestedBy: MARK,
        startedAt: at(hour),
        finishedAt: at(hour - 90_000),
        status: "done",
        fileName: "site-20261129T140000Z.tar.gz",
        bytes: 48_900_000,
        drillStatus: "failed",
        drillAt: at(hour - 200_000),
        drillDetail: "the table enquiries has 212 rows in the backup and 214 in the database",
      },
    ]);
  });
}

test.describe("the Health page", () => {
  test.describe.configure({ timeout: 90_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });
  test.afterEach(async () => {
    await readSiteDatabase((db) => db.delete(backupRuns).where(eq(backupRuns.requestedBy, MARK)));
  });

  test("shows a failed drill in red with its reason, at 375 and 1280 px, and works from the keyboard", async ({
    page,
    signIn,
  }) => {
    await storeBackups();
    await signIn(page, "admin");
    await page.goto(`${adminOrigin}/admin/health`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Health");
    const backups = page.getByRole("region", { name: "Backups" });
    await expect(backups).toContainText("Needs attention");
    await expect(backups).toContainText(
      "The last backup's restore drill failed: the table enquiries has 212 rows in the backup and 214 in the database.",
    );
    await expect(backups).toContainText("48.9 MB, made by the Health page, browser tests (health)");
    await expect(backups).toContainText("Not set up (BACKUP_S3_URL)");
    await expect(page.getByRole("region", { name: "Mail" })).toContainText("Not set up");
    await expect(page.getByRole("region", { name: "Storage" })).toContainText("embedded in the site (DATA_DIR)");

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoAxeViolations(page, `health at ${width} px`);
      await expectNoOverflow(page, `health at ${width} px`);
      await photograph(page, `admin-health-${width}`);
    }

    // The keyboard: from the skip link to the page, then through the glance's links to a section.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Enter");
    const glance = page.getByRole("navigation", { name: "Health at a glance" });
    const storage = glance.getByRole("link", { name: /^Storage/ });
    for (
      let presses = 0;
      presses < 10 && !(await storage.evaluate((link) => link === document.activeElement));
      presses++
    )
      await page.keyboard.press("Tab");
    await expect(storage).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#health-disk$/);
    // The navigation names the page as the current one.
    await expect(
      page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Health" }),
    ).toHaveAttribute("aria-current", "page");
  });

  test("is refused to staff who are not admins", async ({ page, signIn, pageGuard }) => {
    pageGuard.allow(/status of 403/);
    await signIn(page, "publisher");
    const answer = await page.goto(`${adminOrigin}/admin/health`);
    expect(answer?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Forbidden");
    await expect(
      page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Health" }),
    ).toHaveCount(0);
  });
});
