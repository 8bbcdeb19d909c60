import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AnalyticsReport } from "#shared/analytics.ts";
import {
  type AdminTestApp,
  buildAdminTestApp,
  freshClientAddress,
  staffWithSession,
  type StaffWithSession,
} from "../../../test/admin-fixtures.ts";
import { testAdminRenderer, testRenderer } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";
import { htmlValidator } from "../../../test/html-validator.ts";
import { enquiry } from "../../../test/enquiry-fixtures.ts";
import { buildApp } from "../app.ts";
import { analyticsSalts, contactSubmissions, newsletterSubscribers, pageViews } from "../db/schema.ts";
import { renderNewsletter } from "../newsletter/newsletter-email.ts";
import { attributionLabel, bounded, deviceClass, FIELD_LIMIT, referrerHost } from "./counting.ts";
import { analyticsHousekeeping } from "./rollup.ts";

const chrome =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const iphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const ipad =
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const article = "/blog/arc-flash-studies-ieee-1584-2018";
/** 11:30 in India on 23 Nov 2026. */
const START = new Date("2026-11-23T06:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("counting helpers", () => {
  it("bounds visitor-supplied values: length in code points, control and format characters dropped", () => {
    expect(bounded("x".repeat(5000))).toHaveLength(FIELD_LIMIT);
    expect(Array.from(bounded("😀".repeat(300))!)).toHaveLength(FIELD_LIMIT);
    expect(bounded("goo\u0000gle\u202e\r\n")).toBe("google");
    expect(bounded("\ud800broken")).toBe("\ufffdbroken");
    expect(bounded("   ")).toBeNull();
    expect(bounded(undefined)).toBeNull();
  });

  it("takes the referrer's host, leaving out the site itself and anything not http(s)", () => {
    expect(referrerHost("https://www.google.com/search?q=arc+flash", ["www.example.test"])).toBe("google.com");
    expect(referrerHost("https://www.example.test/about", ["www.example.test"])).toBeNull();
    expect(referrerHost("javascript:alert(1)", [])).toBeNull();
    expect(referrerHost("not a url", [])).toBeNull();
    expect(referrerHost(`https://${"a".repeat(60)}.${"b".repeat(60)}.com/`, [])!.length).toBeLessThanOrEqual(
      FIELD_LIMIT,
    );
    expect(referrerHost("https://пример.рф/", [])).toBe("xn--e1afmkfd.xn--p1ai");
  });

  it("classes devices with bowser", () => {
    expect(deviceClass(chrome)).toBe("desktop");
    expect(deviceClass(iphone)).toBe("mobile");
    expect(deviceClass(ipad)).toBe("tablet");
    expect(deviceClass("curl/8.0")).toBe("other");
  });

  it("labels an attribution for the inbox", () => {
    expect(attributionLabel({ landingPage: "/blog/x", attributionSource: "google", attributionCampaign: null })).toBe(
      "via google, landed on /blog/x",
    );
    expect(attributionLabel({ landingPage: "/", attributionSource: null, attributionCampaign: "spring" })).toBe(
      "via a direct visit (campaign spring), landed on /",
    );
    expect(attributionLabel({ landingPage: null, attributionSource: null })).toBeNull();
  });
});

describe.each(testDrivers)("analytics on %s", (driver) => {
  let t: AdminTestApp;
  let member: StaffWithSession;
  let admin: StaffWithSession;
  let people = 0;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { content: true, startAt: START });
    admin = await staffWithSession(t, { email: "meera.analytics@example.com", name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: "ravi.analytics@example.com", name: "Ravi Desai", role: "staff" });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.app.viewCounter.flush();
    for (const table of [
      "page_views",
      "analytics_daily",
      "analytics_rolled_days",
      "contact_submissions",
      "newsletter_subscribers",
    ]) {
      await t.database.db.execute(sql.raw(`delete from ${table}`));
    }
    t.clock.now = START;
    people += 1;
  });

  type Visit = { ip?: string; ua?: string; headers?: Record<string, string>; method?: "GET" | "HEAD" };
  const visit = (url: string, options: Visit = {}) =>
    t.app.inject({
      method: options.method ?? "GET",
      url,
      remoteAddress: options.ip ?? "203.0.113.7",
      headers: { "user-agent": options.ua ?? chrome, ...options.headers },
    });
  /** The views written, a row of identical views (`views` > 1) as that many. */
  const storedViews = async () => {
    await t.app.viewCounter.flush();
    const rows = await t.database.db.select().from(pageViews).orderBy(pageViews.id);
    return rows.flatMap((row) => Array.from({ length: row.views }, () => row));
  };
  const report = async (from = "2026-11-23", to = from, cookie = member.cookie) => {
    // The session's idle limit is on the same clock as the counting: asked at the start.
    const moved = t.clock.now;
    t.clock.now = START;
    const response = await t.app.inject({
      method: "GET",
      remoteAddress: freshClientAddress(),
      url: `/admin/api/analytics?from=${from}&to=${to}`,
      headers: { cookie },
    });
    t.clock.now = moved;
    expect(response.statusCode).toBe(200);
    return response.json<AnalyticsReport>();
  };
  const sendEnquiry = (options: Visit & { overrides?: Record<string, unknown> } = {}) =>
    t.app.inject({
      method: "POST",
      url: "/api/contact",
      remoteAddress: options.ip ?? "203.0.113.7",
      headers: { "user-agent": options.ua ?? chrome, origin: t.origin, ...options.headers },
      payload: enquiry({ formToken: undefined, email: `sender.${people}@example.com`, ...options.overrides }),
    });

  describe("counting served pages", () => {
    it("counts a page once per answer, cached or not, with its path, UTM values, referrer host and device; never the address or user agent", async () => {
      expect(
        (
          await visit("/about?utm_source=newsletter&utm_medium=email&utm_campaign=nov-launch&fbclid=1", {
            headers: { referer: "https://www.linkedin.com/feed/" },
          })
        ).statusCode,
      ).toBe(200);
      expect((await visit("/about")).statusCode).toBe(200);
      expect((await visit("/services", { ua: iphone, ip: "198.51.100.1" })).statusCode).toBe(200);
      const rows = await storedViews();
      expect(rows.map((row) => row.path)).toEqual(["/about", "/about", "/services"]);
      expect(rows[0]).toMatchObject({
        utmSource: "newsletter",
        utmMedium: "email",
        utmCampaign: "nov-launch",
        referrerHost: "linkedin.com",
        device: "desktop",
      });
      expect(rows[1]).toMatchObject({ utmSource: null, referrerHost: null });
      expect(rows[2]!.device).toBe("mobile");
      expect(rows[0]!.visitorHash).toBe(rows[1]!.visitorHash);
      expect(rows[2]!.visitorHash).not.toBe(rows[0]!.visitorHash);
      const everything = JSON.stringify(rows);
      expect(everything).not.toContain("203.0.113.7");
      expect(everything).not.toContain("Chrome/131");
    });

    it("counts a browser showing again the page it holds (a 304 to its If-None-Match)", async () => {
      const first = await visit("/about");
      const again = await visit("/about", { headers: { "if-none-match": String(first.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect((await storedViews()).map((row) => row.path)).toEqual(["/about", "/about"]);
    });

    it("writes identical views of one batch as one row with their number", async () => {
      for (let index = 0; index < 3; index += 1) await visit("/about");
      await visit("/about", { ua: iphone });
      await t.app.viewCounter.flush();
      const rows = await t.database.db.select().from(pageViews).orderBy(pageViews.id);
      expect(rows.map((row) => [row.path, row.device, row.views])).toEqual([
        ["/about", "desktop", 3],
        ["/about", "mobile", 1],
      ]);
      expect(await report()).toMatchObject({
        pageviews: 4,
        visitors: 2,
        pages: [{ path: "/about", views: 4, visitors: 2, enquiries: 0 }],
      });
    });

    it("leaves out the site itself as a referrer", async () => {
      await visit("/about", { headers: { referer: `${t.origin}/services` } });
      expect((await storedViews())[0]!.referrerHost).toBeNull();
    });

    it.each([
      ["a bot", "/about", { ua: googlebot }],
      ["a request without a user agent", "/about", { ua: "" }],
      ["HEAD", "/about", { method: "HEAD" as const }],
      ["a prefetch (Sec-Purpose)", "/about", { headers: { "sec-purpose": "prefetch" } }],
      ["a prerender (Sec-Purpose)", "/about", { headers: { "sec-purpose": "prefetch;prerender" } }],
      ["a prefetch (Purpose)", "/about", { headers: { purpose: "prefetch" } }],
      ["Sec-GPC: 1", "/about", { headers: { "sec-gpc": "1" } }],
      ["an excluded browser", "/about", { headers: { cookie: "theme=dark; analytics-exclude=1" } }],
      ["a 404", "/no-such-page", {}],
      ["an unknown article (404)", "/blog/no-such-article", {}],
      ["the back office", "/admin/sign-in", {}],
      ["the API", "/api/team-members", {}],
      ["a redirect", "/about/", {}],
    ])("does not count %s", async (_name, url, options) => {
      await visit(url, options);
      expect(await storedViews()).toHaveLength(0);
    });

    it("counts a browser whose cookie merely resembles the marker", async () => {
      await visit("/about", { headers: { cookie: "analytics-exclude=0; not-analytics-exclude=1x" } });
      expect(await storedViews()).toHaveLength(1);
    });

    it("stores hostile UTM and referrer values bounded, and the dashboard shows them escaped", async () => {
      const script = "<script>alert(1)</script>";
      const long = "x".repeat(5000);
      const query = new URLSearchParams({
        utm_source: script,
        utm_medium: long,
        utm_campaign: `${"🔥".repeat(150)}\u0000\u202e`,
      });
      await visit(`/about?${query.toString()}`, {
        headers: { referer: `https://${"evil".repeat(80)}.example/<script>` },
      });
      const [row] = await storedViews();
      expect(row!.utmSource).toBe(script);
      expect(row!.utmMedium).toHaveLength(FIELD_LIMIT);
      expect(Array.from(row!.utmCampaign!)).toHaveLength(FIELD_LIMIT);
      expect(row!.utmCampaign).not.toContain("\u0000");
      expect(row!.utmCampaign).not.toContain("\u202e");
      expect(row!.referrerHost!.length).toBeLessThanOrEqual(FIELD_LIMIT);
      const page = await t.app.inject({
        method: "GET",
        remoteAddress: freshClientAddress(),
        url: "/admin/analytics?period=today",
        headers: { cookie: member.cookie },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(script);
      expect(page.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    });

    it("counts distinct visitors per India day: the same browser is a new visitor after midnight, with a new salt", async () => {
      await visit("/");
      await visit("/about");
      await visit("/", { ip: "198.51.100.9" });
      await visit("/", { ua: iphone });
      t.clock.advance(13 * HOUR); // 00:30 on 24 Nov in India
      await visit("/");
      const rows = await storedViews();
      expect(new Set(rows.slice(0, 4).map((row) => row.visitorHash)).size).toBe(3);
      expect(rows[4]!.visitorHash).not.toBe(rows[0]!.visitorHash);
      const salts = await t.database.db.select().from(analyticsSalts);
      expect(salts.map((salt) => salt.day).sort()).toEqual(expect.arrayContaining(["2026-11-23", "2026-11-24"]));
      const first = await report("2026-11-23");
      expect(first).toMatchObject({ visitors: 3, pageviews: 4 });
      const both = await report("2026-11-23", "2026-11-24");
      expect(both).toMatchObject({ visitors: 4, pageviews: 5 });
      expect(both.daily).toEqual([
        { date: "2026-11-23", visitors: 3, pageviews: 4, enquiries: 0 },
        { date: "2026-11-24", visitors: 1, pageviews: 1, enquiries: 0 },
      ]);
    });

    it("follows TRUST_PROXY for the client address: an IPv6 /64 is one client", async () => {
      await visit("/", { ip: "2001:db8:1:2::1" });
      await visit("/", { ip: "2001:db8:1:2::ffff" });
      await visit("/", { ip: "2001:db8:1:3::1" });
      const rows = await storedViews();
      expect(rows[0]!.visitorHash).toBe(rows[1]!.visitorHash);
      expect(rows[2]!.visitorHash).not.toBe(rows[0]!.visitorHash);
    });

    it("writes views in batches: none before a second has passed or 500 are waiting", async () => {
      await visit("/");
      await visit("/about");
      expect(t.app.viewCounter.pending).toBe(2);
      expect(await t.database.db.select().from(pageViews)).toHaveLength(0);
      await expect
        .poll(async () => (await t.database.db.select().from(pageViews)).length, { timeout: 5000, interval: 100 })
        .toBe(2);
      expect(t.app.viewCounter.pending).toBe(0);
    });

    it("two instances share one salt: a visitor served by both is one visitor", async () => {
      const second = await buildApp({
        config: t.config,
        db: t.database.db,
        renderer: testRenderer(t.config.siteUrl),
        adminRenderer: testAdminRenderer(),
        now: () => t.clock.now,
      });
      try {
        // A day neither instance has a salt for yet: both make it at once, and one is kept.
        t.clock.advance(2 * DAY);
        const first = visit("/");
        const other = second.inject({
          method: "GET",
          url: "/about",
          remoteAddress: "203.0.113.7",
          headers: { "user-agent": chrome },
        });
        await Promise.all([first, other]);
        await Promise.all([t.app.viewCounter.flush(), second.viewCounter.flush()]);
        const rows = await storedViews();
        expect(rows).toHaveLength(2);
        expect(rows[0]!.visitorHash).toBe(rows[1]!.visitorHash);
        expect(
          await t.database.db.select().from(analyticsSalts).where(eq(analyticsSalts.day, "2026-11-23")),
        ).toHaveLength(1);
      } finally {
        await second.close();
      }
    });
  });

  describe("the old beacon", () => {
    it("is gone: a POST to /api/view answers 404 and counts nothing", async () => {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/view",
        remoteAddress: "203.0.113.7",
        headers: {
          "user-agent": chrome,
          origin: t.origin,
          "sec-fetch-site": "same-origin",
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: new URLSearchParams({ p: "/about" }).toString(),
      });
      expect(response.statusCode).toBe(404);
      expect(await storedViews()).toHaveLength(0);
    });
  });

  describe("conversions", () => {
    it("attributes an enquiry to its sender's first view that day: landing page, source and campaign", async () => {
      await visit(`${article}?utm_source=google&utm_medium=cpc&utm_campaign=arc-flash`);
      t.clock.advance(60_000);
      await visit("/services");
      await visit("/contact");
      // Another visitor's views change nothing.
      await visit("/about", { ip: "198.51.100.2", headers: { referer: "https://bing.com/" } });
      const response = await sendEnquiry();
      expect(response.statusCode).toBe(201);
      const [row] = await t.database.db.select().from(contactSubmissions);
      expect(row).toMatchObject({
        landingPage: article,
        attributionSource: "google",
        attributionMedium: "cpc",
        attributionCampaign: "arc-flash",
      });
      expect(row!.visitorHash).toEqual(expect.any(String));
      expect(attributionLabel(row!)).toBe(`via google (campaign arc-flash), landed on ${article}`);
      // The inbox shows it, in the list and on the enquiry's page.
      const label = `via google (campaign arc-flash), landed on ${article}`;
      const inbox = await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: member.cookie } });
      expect(inbox.statusCode).toBe(200);
      expect(inbox.body).toContain(label);
      const page = await t.app.inject({
        method: "GET",
        url: `/admin/enquiries/${row!.id}`,
        headers: { cookie: member.cookie },
      });
      expect(page.body).toContain("Came from");
      expect(page.body).toContain(label);

      const numbers = await report();
      expect(numbers).toMatchObject({ visitors: 2, pageviews: 4, enquiries: 1, conversionRate: 0.5 });
      expect(numbers.pages).toEqual(
        expect.arrayContaining([
          { path: article, views: 1, visitors: 1, enquiries: 1 },
          { path: "/contact", views: 1, visitors: 1, enquiries: 1 },
          { path: "/about", views: 1, visitors: 1, enquiries: 0 },
        ]),
      );
      expect(numbers.sources).toEqual(
        expect.arrayContaining([
          { source: "google", visitors: 1, enquiries: 1 },
          { source: "bing.com", visitors: 1, enquiries: 0 },
        ]),
      );
      expect(numbers.campaigns).toEqual([{ campaign: "arc-flash", visitors: 1, enquiries: 1 }]);
      expect(numbers.devices).toEqual([{ device: "desktop", visitors: 2 }]);
    });

    it("counts the visit and the enquiry a newsletter's link brought under that newsletter's campaign", async () => {
      const { html } = renderNewsletter(
        {
          subject: "Insights for November",
          introduction: "",
          articles: [
            {
              id: "00000000-0000-4000-8000-000000000001",
              slug: article.slice("/blog/".length),
              title: "Arc flash",
              excerpt: "What changed.",
              category: "Protection & Safety",
              publishedAt: "2024-09-12T06:00:00.000Z",
              image: "/media/0123456789abcdef/original.png",
              imageAlt: "",
            },
          ],
        },
        {
          siteUrl: t.config.siteUrl,
          campaign: "2026-11-insights-for-november",
          unsubscribeUrl: `${t.config.siteUrl}/newsletter/unsubscribe/test`,
        },
      );
      // The article's link as the mail has it: straight to the page, no redirect in between.
      const href = /href="([^"]*\/blog\/[^"]*)"/.exec(html)![1]!.replaceAll("&amp;", "&");
      const link = new URL(href);
      expect(link.origin).toBe(new URL(t.config.siteUrl).origin);
      await visit(`${link.pathname}${link.search}`);
      await visit("/contact");
      expect((await sendEnquiry()).statusCode).toBe(201);
      const numbers = await report();
      expect(numbers.sources).toEqual([{ source: "newsletter", visitors: 1, enquiries: 1 }]);
      expect(numbers.campaigns).toEqual([{ campaign: "2026-11-insights-for-november", visitors: 1, enquiries: 1 }]);
    });

    it("does not attribute spam, an enquiry without a view today, or one whose sender sends Sec-GPC", async () => {
      await visit("/contact");
      await sendEnquiry({ overrides: { "bot-field": "filled" } });
      await sendEnquiry({ headers: { "sec-gpc": "1" } });
      await sendEnquiry({ ip: "198.51.100.77" });
      const rows = await t.database.db.select().from(contactSubmissions);
      expect(rows).toHaveLength(3);
      for (const row of rows)
        expect(row).toMatchObject({ landingPage: null, attributionSource: null, visitorHash: null });
      expect(await report()).toMatchObject({ enquiries: 2 });
    });

    it("attributes a newsletter subscription too", async () => {
      await visit("/blog", { headers: { referer: "https://t.co/abc" } });
      const response = await t.app.inject({
        method: "POST",
        url: "/api/newsletter",
        remoteAddress: "203.0.113.7",
        headers: { "user-agent": chrome, origin: t.origin },
        payload: { email: `reader.${people}@example.com` },
      });
      expect(response.statusCode).toBe(201);
      await t.app.workAfterAnswer.settled();
      const [row] = await t.database.db.select().from(newsletterSubscribers);
      expect(row).toMatchObject({ landingPage: "/blog", attributionSource: "t.co" });
      expect(await report()).toMatchObject({ subscriptions: 1 });
    });

    it("counts the funnel: visitors → a service, industry or project page → /contact → an enquiry", async () => {
      await visit("/", { ip: "198.51.100.1" });
      await visit("/services", { ip: "198.51.100.2" });
      await visit("/contact", { ip: "198.51.100.2" });
      await visit("/projects/kutch-solar-park-grid-connection", { ip: "198.51.100.3" });
      await visit("/contact", { ip: "198.51.100.3" });
      await sendEnquiry({ ip: "198.51.100.3" });
      await visit("/industries", { ip: "198.51.100.4" });
      await visit("/contact", { ip: "198.51.100.5" });
      await sendEnquiry({ ip: "198.51.100.5", overrides: { email: "direct@example.com" } });
      const numbers = await report();
      expect(numbers.funnel).toEqual([
        { step: "visited", visitors: 5 },
        { step: "interested", visitors: 3 },
        { step: "contact", visitors: 2 },
        { step: "enquired", visitors: 1 },
      ]);
      expect(numbers).toMatchObject({ visitors: 5, enquiries: 2 });
    });
  });

  describe("roll-up and retention", () => {
    it("rolls each past day up once, keeps its numbers after its raw views are deleted, and deletes salts after 48 hours", async () => {
      await visit(`${article}?utm_source=google&utm_campaign=arc-flash`);
      await visit("/contact");
      await sendEnquiry();
      await visit("/services", { ua: iphone, ip: "198.51.100.1" });
      const before = await report();

      // Today is not rolled up.
      expect((await analyticsHousekeeping(t.database.db, t.clock.now, 90)).rolledDays).toEqual([]);
      t.clock.advance(DAY);
      await visit("/about");
      // Two instances at once: the day is rolled up by one of them.
      const runs = await Promise.all([
        analyticsHousekeeping(t.database.db, t.clock.now, 90),
        analyticsHousekeeping(t.database.db, t.clock.now, 90),
      ]);
      expect(runs.flatMap((run) => run.rolledDays)).toEqual(["2026-11-23"]);
      expect(await report()).toEqual(before);
      const [enquiryRow] = await t.database.db.select().from(contactSubmissions);
      expect(enquiryRow).toMatchObject({ visitorHash: null, landingPage: article });

      // 48 hours after it was made, the first day's salt is gone.
      t.clock.advance(DAY + HOUR);
      const later = await analyticsHousekeeping(t.database.db, t.clock.now, 90);
      expect(later.deletedSalts).toBeGreaterThanOrEqual(1);
      expect(
        await t.database.db.select().from(analyticsSalts).where(eq(analyticsSalts.day, "2026-11-23")),
      ).toHaveLength(0);
      expect(later.deletedViews).toBe(0);

      // Past the retention period the raw views go; the roll-up keeps the totals.
      t.clock.advance(90 * DAY);
      const pruned = await analyticsHousekeeping(t.database.db, t.clock.now, 90);
      expect(pruned.deletedViews).toBe(4);
      expect(await t.database.db.select().from(pageViews)).toHaveLength(0);
      expect(await report()).toEqual(before);
      expect(await report("2026-11-23", "2026-11-24")).toMatchObject({ visitors: 3, pageviews: 4, enquiries: 1 });
    });
  });

  describe("a report over rolled-up days", () => {
    it("shows the numbers it showed before the days were rolled up, around days never rolled up", async () => {
      // 23 Nov: views, an enquiry and a subscription; 24 Nov: an enquiry without views (a day
      // never rolled up, between two that are); 25 Nov: views; 26 Nov (today): views.
      await visit(`${article}?utm_source=google&utm_campaign=arc-flash`);
      await visit("/services", { ip: "198.51.100.1", ua: iphone, headers: { referer: "https://bing.com/" } });
      await visit("/contact");
      expect((await sendEnquiry()).statusCode).toBe(201);
      const subscribed = await t.app.inject({
        method: "POST",
        url: "/api/newsletter",
        remoteAddress: "198.51.100.1",
        headers: { "user-agent": iphone, origin: t.origin },
        payload: { email: `rolled.${people}@example.com` },
      });
      expect(subscribed.statusCode).toBe(201);
      await t.app.workAfterAnswer.settled();
      t.clock.advance(DAY);
      expect((await sendEnquiry({ ip: "198.51.100.8", overrides: { email: "no-views@example.com" } })).statusCode).toBe(
        201,
      );
      t.clock.advance(DAY);
      await visit("/projects/kutch-solar-park-grid-connection", { ip: "198.51.100.2" });
      await visit("/about", { ip: "198.51.100.3", ua: ipad });
      await visit("/about", { ip: "198.51.100.3", ua: ipad });
      t.clock.advance(DAY);
      await visit("/", { ip: "198.51.100.4" });

      const ranges = [
        ["2026-11-01", "2026-11-26"],
        ["2026-11-23", "2026-11-25"],
        ["2026-11-24", "2026-11-24"],
        ["2026-11-25", "2026-11-26"],
      ] as const;
      const before = [];
      for (const [from, to] of ranges) before.push(await report(from, to));
      expect(before[0]).toMatchObject({ pageviews: 7, visitors: 5, enquiries: 2, subscriptions: 1 });

      expect((await analyticsHousekeeping(t.database.db, t.clock.now, 90)).rolledDays).toEqual([
        "2026-11-23",
        "2026-11-25",
      ]);
      const after = [];
      for (const [from, to] of ranges) after.push(await report(from, to));
      expect(after).toEqual(before);
    });
  });

  describe("the dashboard and its API", () => {
    it.each([
      ["no dates", ""],
      ["one date", "?from=2026-11-01"],
      ["a malformed date", "?from=2026-11-1&to=2026-11-23"],
      ["an impossible date", "?from=2026-02-30&to=2026-03-01"],
      ["dates the wrong way round", "?from=2026-11-23&to=2026-11-01"],
      ["a range too long", "?from=2020-01-01&to=2026-11-23"],
      ["an array", "?from=2026-11-01&from=2026-11-02&to=2026-11-23"],
      ["script", "?from=%3Cscript%3E&to=2026-11-23"],
      [
        "the last day of year 9999 (its next day sorted before it: the report ran until the heap was gone)",
        "?from=9999-12-31&to=9999-12-31",
      ],
      ["year 0000 (once a 500)", "?from=0000-01-01&to=0000-01-01"],
      ["a year past 2099", "?from=2100-01-01&to=2100-01-02"],
    ])("answers 400 to %s", async (_name, query) => {
      const response = await t.app.inject({
        method: "GET",
        remoteAddress: freshClientAddress(),
        url: `/admin/api/analytics${query}`,
        headers: { cookie: member.cookie },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/from|to|days/);
    });

    it.each([
      ["9999-12-31", "9999-12-31"],
      ["0000-01-01", "0000-01-01"],
      ["0000-01-01", "9999-12-31"],
    ])("answers 400 to the dashboard's custom period %s to %s, and keeps answering", async (from, to) => {
      const page = await t.app.inject({
        method: "GET",
        remoteAddress: freshClientAddress(),
        url: `/admin/analytics?period=custom&from=${from}&to=${to}`,
        headers: { cookie: member.cookie },
      });
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain("in the years 2000 to 2099");
      expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    });

    it("answers 429 past 30 reports a minute from one client, the dashboard and the API together, naming the limit; another client is unaffected", async () => {
      const address = freshClientAddress();
      const ask = (url: string, remoteAddress = address) =>
        t.app.inject({ method: "GET", url, remoteAddress, headers: { cookie: member.cookie } });
      const api = "/admin/api/analytics?from=2026-11-23&to=2026-11-23";
      const limit = 3 * t.config.adminAttemptsPerMinute;
      expect(limit).toBe(30);
      for (let index = 0; index < limit; index += 1) {
        const response = await ask(index % 10 === 9 ? "/admin/analytics?period=today" : api);
        expect(response.statusCode).toBe(200);
      }
      const refused = await ask(api);
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.json()).toEqual({
        error: "Too Many Requests",
        message: `Too many reports from your address (at most 30 a minute). Please wait ${retryAfter} seconds and try again.`,
      });
      const page = await ask("/admin/analytics?period=12m");
      expect(page.statusCode).toBe(429);
      expect(page.headers["retry-after"]).toBeDefined();
      expect(page.body).toContain("Too many reports from your address (at most 30 a minute).");
      // Another client, even the same person's, still gets its reports.
      expect((await ask(api, freshClientAddress())).statusCode).toBe(200);
      expect((await ask("/admin/analytics?period=12m", freshClientAddress())).statusCode).toBe(200);
    });

    it("names the days before yesterday whose views are still being rolled up, on the dashboard and in the API", async () => {
      await t.database.db.insert(pageViews).values({
        at: new Date(START.getTime() - 10 * DAY),
        path: "/about",
        device: "desktop",
        visitorHash: "waiting",
      });
      const page = await t.app.inject({
        method: "GET",
        url: "/admin/analytics?period=30d",
        remoteAddress: freshClientAddress(),
        headers: { cookie: member.cookie },
      });
      expect(page.body).toContain(
        "The page views of 13 Nov 2026 are still being added up and are not in these numbers yet; enquiries and subscriptions are.",
      );
      expect(await report("2026-11-01", "2026-11-23")).toMatchObject({ pendingDays: ["2026-11-13"], pageviews: 0 });
      expect(await report("2026-11-20", "2026-11-23")).toMatchObject({ pendingDays: [] });
    });

    it("needs a session: 401 for the API, the sign-in page for the dashboard", async () => {
      expect(
        (await t.app.inject({ method: "GET", url: "/admin/api/analytics?from=2026-11-23&to=2026-11-23" })).statusCode,
      ).toBe(401);
      const page = await t.app.inject({ method: "GET", url: "/admin/analytics", headers: { accept: "text/html" } });
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toContain("/admin/sign-in");
      const forged = await t.app.inject({
        method: "GET",
        remoteAddress: freshClientAddress(),
        url: "/admin/api/analytics?from=2026-11-23&to=2026-11-23",
        headers: { cookie: "staff_session=forged" },
      });
      expect(forged.statusCode).toBe(401);
    });

    it("shows staff and admins the period they pick", async () => {
      await visit("/about");
      for (const [cookie, period] of [
        [member.cookie, "today"],
        [admin.cookie, "7d"],
        [member.cookie, "30d"],
        [member.cookie, "12m"],
      ] as const) {
        const page = await t.app.inject({
          method: "GET",
          remoteAddress: freshClientAddress(),
          url: `/admin/analytics?period=${period}`,
          headers: { cookie },
        });
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain("Visitors and enquiries per day");
        expect(page.body).toContain("<svg");
        expect(page.body).toContain("/about");
      }
      const custom = await t.app.inject({
        method: "GET",
        remoteAddress: freshClientAddress(),
        url: "/admin/analytics?period=custom&from=2026-11-01&to=2026-11-23",
        headers: { cookie: member.cookie },
      });
      expect(custom.statusCode).toBe(200);
      expect(custom.body).toContain("1 Nov 2026 to 23 Nov 2026");
      const bad = await t.app.inject({
        method: "GET",
        remoteAddress: freshClientAddress(),
        url: "/admin/analytics?period=forever",
        headers: { cookie: member.cookie },
      });
      expect(bad.statusCode).toBe(400);
      const badCustom = await t.app.inject({
        method: "GET",
        remoteAddress: freshClientAddress(),
        url: "/admin/analytics?period=custom&from=yesterday&to=2026-11-23",
        headers: { cookie: member.cookie },
      });
      expect(badCustom.statusCode).toBe(400);
      expect(badCustom.body).toContain("YYYY-MM-DD");
    });

    it("renders valid HTML (html-validate's recommended rules, as the public pages are held to)", async () => {
      await visit(`${article}?utm_source=google&utm_campaign=arc-flash`);
      await visit("/contact");
      await sendEnquiry();
      const page = await t.app.inject({
        method: "GET",
        remoteAddress: freshClientAddress(),
        url: "/admin/analytics?period=7d",
        headers: { cookie: member.cookie },
      });
      const result = await htmlValidator.validateString(page.body, "analytics.html");
      expect(
        result.results.flatMap((entry) =>
          entry.messages.map((message) => `${message.ruleId}: ${message.message} (${message.selector})`),
        ),
      ).toEqual([]);
    });

    it("the switch sets and clears a fixed marker on this browser only, from the back office's own pages", async () => {
      const off = await t.send({
        method: "POST",
        url: "/admin/analytics/exclusion",
        cookie: member.cookie,
        payload: { exclude: "1" },
      });
      expect(off.statusCode).toBe(303);
      const setCookie = String(off.headers["set-cookie"]);
      expect(setCookie).toMatch(/^analytics-exclude=1; Max-Age=31536000; Path=\/; SameSite=Lax; HttpOnly; Secure$/);
      const on = await t.send({
        method: "POST",
        url: "/admin/analytics/exclusion",
        cookie: member.cookie,
        payload: { exclude: "0" },
      });
      expect(String(on.headers["set-cookie"])).toMatch(/^analytics-exclude=; Max-Age=0; Path=\/;/);

      const crossSite = await t.app.inject({
        method: "POST",
        url: "/admin/analytics/exclusion",
        headers: { cookie: member.cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        payload: { exclude: "1" },
      });
      expect(crossSite.statusCode).toBe(403);
      expect(crossSite.headers["set-cookie"]).toBeUndefined();
      const noSession = await t.send({
        method: "POST",
        url: "/admin/analytics/exclusion",
        payload: { exclude: "1" },
        headers: { accept: "application/json" },
      });
      expect(noSession.statusCode).toBe(401);
      expect(noSession.headers["set-cookie"]).toBeUndefined();
      const bad = await t.send({
        method: "POST",
        url: "/admin/analytics/exclusion",
        cookie: member.cookie,
        payload: { exclude: "maybe" },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.headers["set-cookie"]).toBeUndefined();

      const page = await t.app.inject({
        method: "GET",
        remoteAddress: freshClientAddress(),
        url: "/admin/analytics",
        headers: { cookie: `${member.cookie}; analytics-exclude=1` },
      });
      expect(page.body).toContain("Count this browser again");
    });
  });
});

describe.each(testDrivers)("ANALYTICS=false on %s", (driver) => {
  it("counts nothing, attributes nothing and says so on the dashboard", async () => {
    const t = await buildAdminTestApp(driver, { env: { ANALYTICS: "false" }, startAt: START });
    try {
      const member = await staffWithSession(t, { email: "off@example.com", name: "Off", role: "staff" });
      await t.app.inject({
        method: "GET",
        url: "/about",
        remoteAddress: "203.0.113.7",
        headers: { "user-agent": chrome },
      });
      await t.app.inject({
        method: "POST",
        url: "/api/contact",
        remoteAddress: "203.0.113.7",
        headers: { "user-agent": chrome, origin: t.origin },
        payload: enquiry({ formToken: undefined }),
      });
      await t.app.viewCounter.flush();
      expect(await t.database.db.select().from(pageViews)).toHaveLength(0);
      expect(await t.database.db.select().from(analyticsSalts)).toHaveLength(0);
      const [row] = await t.database.db.select().from(contactSubmissions);
      expect(row!.landingPage).toBeNull();
      const page = await t.app.inject({
        method: "GET",
        url: "/admin/analytics",
        remoteAddress: freshClientAddress(),
        headers: { cookie: member.cookie },
      });
      expect(page.body).toContain("ANALYTICS=false");
    } finally {
      await t.close();
    }
  });
});
