import { inArray } from "drizzle-orm";
import { visitorHash } from "../src/server/analytics/counting.ts";
import { indiaDay } from "../src/shared/india-time.ts";
import { parseConfig } from "../src/server/config.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { analyticsSalts, pageViews } from "../src/server/db/schema.ts";
import { expect, test } from "./fixtures.ts";
import { expectNoAxeViolations, expectNoOverflow, photograph } from "./page-checks.ts";
import { e2eDataDir } from "./site-data.ts";
import { adminOrigin } from "./staff-sessions.ts";

// Counting in a real browser: the server counts every page it serves (a link followed is a page
// load, and a visit without JavaScript counts too), the browser sends nothing, and nothing is
// counted twice.
// Each test's browser has a user agent of its own, so its views are told from the other tests'
// by their visitor hash, computed here as the server does (the site is reached from 127.0.0.1).

const userAgent = () =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Visit/${Math.random().toString(36).slice(2, 10)}`;

/** The paths this browser was counted viewing, once the site has written every view it holds. */
async function countedViews(
  staffRequest: import("@playwright/test").APIRequestContext,
  agent: string,
): Promise<string[]> {
  // Asking for the report makes the site write the views it holds first.
  const today = indiaDay(new Date());
  const report = await staffRequest.get(`${adminOrigin}/admin/api/analytics?from=${today}&to=${today}`);
  expect(report.status()).toBe(200);
  const database = await openCommandDatabase(parseConfig({ DATA_DIR: e2eDataDir }), "analytics e2e");
  try {
    const salts = await database.db.select().from(analyticsSalts);
    const hashes = salts.map((salt) => visitorHash(salt.salt, "127.0.0.1", agent));
    const rows = await database.db
      .select({ path: pageViews.path, views: pageViews.views })
      .from(pageViews)
      .where(inArray(pageViews.visitorHash, hashes))
      .orderBy(pageViews.id);
    return rows.flatMap((row) => Array.from({ length: row.views }, () => row.path));
  } finally {
    await database.close();
  }
}

test.describe("counting views", () => {
  test.describe.configure({ timeout: 60_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("a first load and two links followed count three views, and a visit without JavaScript counts too", async ({
    page,
    browser,
    signIn,
  }) => {
    // Reads the report as a member of staff (page.request has the page's cookies).
    await signIn(page, "staff");

    const agent = userAgent();
    const visitor = await browser.newContext({ userAgent: agent });
    try {
      const tab = await visitor.newPage();
      // The browser reports nothing itself: every request it makes is a GET.
      const posts: string[] = [];
      tab.on("request", (request) => {
        if (request.method() !== "GET") posts.push(request.url());
      });
      await tab.goto("/");
      await tab.locator("html[data-hydrated=true]").waitFor();
      const nav = tab.getByRole("navigation", { name: "Main", exact: true });
      for (const [name, path] of [
        ["About", "/about"],
        ["Services", "/services"],
      ] as const) {
        await nav.getByRole("link", { name, exact: true }).click();
        await expect(tab).toHaveURL(path);
        await tab.locator("html[data-hydrated=true]").waitFor();
      }
      expect(posts).toEqual([]);
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

  test("the dashboard at 375 and 1280 px: no axe violations, no overflow", async ({ page, browser, signIn }) => {
    // A few visits with sources and campaigns, and an enquiry, for the dashboard to show.
    for (const [url, referer] of [
      ["/blog/arc-flash-studies-ieee-1584-2018?utm_source=google&utm_medium=cpc&utm_campaign=arc-flash", undefined],
      ["/services?utm_source=newsletter&utm_campaign=<script>alert(1)</script>", undefined],
      ["/projects", "https://www.linkedin.com/feed/"],
    ] as const) {
      const agent = userAgent();
      const visitor = await browser.newContext({ userAgent: agent, extraHTTPHeaders: referer ? { referer } : {} });
      try {
        const tab = await visitor.newPage();
        await tab.goto(url);
        await tab.goto("/contact");
        if (url.includes("arc-flash")) {
          const sent = await tab.request.post("/api/contact", {
            data: {
              firstName: "Asha",
              lastName: "Patel",
              email: "asha.analytics@example.com",
              company: "",
              service: "",
              message: "A short study of our plant's arc-flash risk, please.",
            },
            headers: { origin: new URL(tab.url()).origin },
          });
          expect(sent.status()).toBe(201);
        }
      } finally {
        await visitor.close();
      }
    }

    await signIn(page, "staff");
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${adminOrigin}/admin/analytics?period=7d`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Analytics");
      await expect(page.getByRole("img", { name: "Visitors and enquiries per day" })).toBeVisible();
      // Axe at 1280 px only: the back office's markup does not change with the width.
      if (width === 1280) await expectNoAxeViolations(page, `analytics at ${width} px`);
      await expectNoOverflow(page, `analytics at ${width} px`);
      await photograph(page, `admin-analytics-${width}`);
    }
    await expect(page.getByRole("rowheader", { name: "<script>alert(1)</script>" })).toBeVisible();
  });

  test("the dashboard's switch, by keyboard, stops counting this browser, and counts it again", async ({
    browser,
    signIn,
  }) => {
    const staffAgent = userAgent();
    const context = await browser.newContext({ userAgent: staffAgent });
    try {
      const page = await context.newPage();
      await signIn(page, "staff");
      await page.goto(`${adminOrigin}/admin/analytics?period=7d`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Analytics");

      // The switch, with the keyboard alone.
      const stop = page.getByRole("button", { name: "Stop counting this browser" });
      await stop.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByText("This browser is no longer counted.")).toBeVisible();
      const marker = (await context.cookies()).find((cookie) => cookie.name === "analytics-exclude");
      expect(marker).toMatchObject({ value: "1", path: "/", httpOnly: true });
      await page.goto(`${adminOrigin}/about`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await countedViews(page.request, staffAgent)).toEqual([]);

      await page.goto(`${adminOrigin}/admin/analytics`);
      await page.getByRole("button", { name: "Count this browser again" }).click();
      await expect(page.getByText("This browser is counted again.")).toBeVisible();
      await page.goto(`${adminOrigin}/about`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await countedViews(page.request, staffAgent)).toEqual(["/about"]);
    } finally {
      await context.close();
    }
  });
});
