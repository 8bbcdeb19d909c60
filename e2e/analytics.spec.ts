import { inArray } from "drizzle-orm";
import { indiaDay, visitorHash } from "../src/server/analytics/counting.ts";
import { parseConfig } from "../src/server/config.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { analyticsSalts, pageViews } from "../src/server/db/schema.ts";
import { adminOrigin, signedInStaff } from "./admin-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { e2eDataDir } from "./site-data.ts";

// Counting in a real browser: the server counts the page it serves (so a visit without
// JavaScript counts), the beacon counts client-side navigations, and nothing is counted twice.
// Each test's browser has a user agent of its own, so its views are told from the other tests'
// by their visitor hash, computed here as the server does (the site is reached from 127.0.0.1).

const userAgent = () =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Visit/${Math.random().toString(36).slice(2, 10)}`;

/** The paths this browser was counted viewing, once the site has written every view it holds. */
async function countedViews(staffRequest: import("@playwright/test").APIRequestContext, agent: string): Promise<string[]> {
  // Asking for the report makes the site write the views it holds first.
  const today = indiaDay(new Date());
  const report = await staffRequest.get(`${adminOrigin}/admin/api/analytics?from=${today}&to=${today}`);
  expect(report.status()).toBe(200);
  const database = await openCommandDatabase(parseConfig({ DATA_DIR: e2eDataDir }), "analytics e2e");
  try {
    const salts = await database.db.select().from(analyticsSalts);
    const hashes = salts.map((salt) => visitorHash(salt.salt, "127.0.0.1", agent));
    const rows = await database.db.select({ path: pageViews.path }).from(pageViews).where(inArray(pageViews.visitorHash, hashes)).orderBy(pageViews.id);
    return rows.map((row) => row.path);
  } finally {
    await database.close();
  }
}

test.describe("counting views", () => {
  test.describe.configure({ timeout: 60_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("a first load and two client-side navigations count three views, and a visit without JavaScript counts too", async ({ page, browser }) => {
    await signedInStaff(page, { name: "Analytics Reader" });

    const agent = userAgent();
    const visitor = await browser.newContext({ userAgent: agent });
    try {
      const tab = await visitor.newPage();
      const beacons: string[] = [];
      tab.on("request", (request) => {
        if (request.url().endsWith("/api/view")) beacons.push(request.postData() ?? "");
      });
      await tab.goto("/");
      await tab.locator("html[data-hydrated=true]").waitFor();
      const nav = tab.getByRole("navigation", { name: "Main", exact: true });
      for (const [name, path] of [
        ["About", "/about"],
        ["Services", "/services"],
      ] as const) {
        const beacon = tab.waitForResponse((response) => response.url().endsWith("/api/view"));
        await nav.getByRole("link", { name, exact: true }).click();
        await expect(tab).toHaveURL(path);
        expect((await beacon).status()).toBe(204);
      }
      expect(beacons).toEqual(["p=%2Fabout", "p=%2Fservices"]);
      expect(await countedViews(page.request, agent)).toEqual(["/", "/about", "/services"]);
    } finally {
      await visitor.close();
    }

    const plainAgent = userAgent();
    const withoutScript = await browser.newContext({ userAgent: plainAgent, javaScriptEnabled: false });
    try {
      const tab = await withoutScript.newPage();
      await tab.goto("/about");
      await expect(tab.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await countedViews(page.request, plainAgent)).toEqual(["/about"]);
    } finally {
      await withoutScript.close();
    }
  });
});
