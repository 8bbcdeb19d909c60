import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retention } from "#shared/retention.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";
import { htmlValidator } from "../../../test/html-validator.ts";

// The privacy notice states the retention periods the site is configured with, which the daily
// purge enforces: not the defaults, which an operator would have to remember to edit.

describe.each(testDrivers)("the privacy notice of a site with its own retention periods on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver, {
      env: { SPAM_RETENTION_DAYS: "17", ENQUIRY_RETENTION_DAYS: "200", ANALYTICS_RETENTION_DAYS: "45" },
    });
  });
  afterAll(async () => t.close());

  /** The page's text, without its tags and with its whitespace collapsed. */
  const textOf = (html: string) =>
    html
      .replace(/<script[\s\S]*?<\/script>/g, "")
      .replace(/<[^>]+>/g, "")
      .replace(/\s+/g, " ");

  it("states the configured periods, not the defaults", async () => {
    const response = await t.app.inject({ method: "GET", url: "/privacy" });
    expect(response.statusCode).toBe(200);
    const text = textOf(response.body);
    expect(text).toContain("Enquiries: 200 days after we close them");
    expect(text).toContain("Messages our spam filter holds back: 17 days, then deleted.");
    expect(text).toContain("Visit counts: 45 days, then only daily totals");
    expect(text).toContain(`${retention.enquiryMonths} months from the day you send them`);
    expect(text).toContain(`The record of back-office actions: ${retention.auditMonths} months.`);
    expect(text).not.toContain(`Enquiries: ${retention.closedEnquiryDays} days`);
    expect(text).not.toContain(`holds back: ${retention.spamDays} days`);
    expect(text).not.toContain(`Visit counts: ${retention.analyticsDays} days`);
    // A second request comes from the page cache: the same statement.
    expect(textOf((await t.app.inject({ method: "GET", url: "/privacy" })).body)).toBe(text);
  });

  it("says what the newsletter sends, how often, how to stop it, what is kept and for how long", async () => {
    const text = textOf((await t.app.inject({ method: "GET", url: "/privacy" })).body);
    expect(text).toContain("we send one email asking you to confirm");
    expect(text).toContain("about one email a month featuring our new articles");
    expect(text).toContain("unsubscribe link that stops it in one click, without signing in");
    expect(text).toContain("the page you subscribed on and the exact wording you were shown");
    expect(text).toContain("an address not confirmed within 7 days is deleted");
    expect(text).not.toContain("reply to any newsletter");
  });

  it("is valid HTML", async () => {
    const html = (await t.app.inject({ method: "GET", url: "/privacy" })).body;
    const report = await htmlValidator.validateString(html, "/privacy");
    expect(report.results.flatMap((result) => result.messages.map((message) => message.message))).toEqual([]);
  });

  it("reads the periods from the API the page is rendered from", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/retention" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...retention, spamDays: 17, closedEnquiryDays: 200, analyticsDays: 45 });
  });
});

describe.each(testDrivers)("the company's statutory details on %s", (driver) => {
  const details = {
    COMPANY_LEGAL_NAME: "Sabarmati Grid Engineering Private Limited",
    COMPANY_CIN: "U74900GJ2009PTC056789",
    COMPANY_REGISTERED_OFFICE: "4th Floor, Shivalik Business Centre, Ahmedabad 380054",
    COMPANY_GSTIN: "24AAACS1234A1Z5",
    GRIEVANCE_OFFICER_NAME: "Meera Shah",
    GRIEVANCE_OFFICER_EMAIL: "grievance@sabarmatigrid.example",
  };
  let set: TestApp;
  let unset: TestApp;
  beforeAll(async () => {
    set = await buildTestApp(driver, { env: details });
    unset = await buildTestApp(driver);
  });
  afterAll(async () => {
    await set?.close();
    await unset?.close();
  });

  const footerOf = (html: string) => html.slice(html.indexOf('<footer id="site-footer"'), html.indexOf("</footer>"));

  it("are in every page's footer, as configured", async () => {
    for (const url of ["/", "/about", "/blog", "/contact", "/no-such-page"]) {
      const footer = footerOf((await set.app.inject({ method: "GET", url })).body);
      expect({ url, footer }).toEqual({
        url,
        footer: expect.stringContaining(
          "Sabarmati Grid Engineering Private Limited · CIN U74900GJ2009PTC056789 · GSTIN 24AAACS1234A1Z5 · Registered office: 4th Floor, Shivalik Business Centre, Ahmedabad 380054",
        ),
      });
    }
  });

  it("are in the privacy notice with the grievance officer, and the page is valid HTML", async () => {
    const html = (await set.app.inject({ method: "GET", url: "/privacy" })).body;
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("Corporate Identity Number U74900GJ2009PTC056789");
    expect(text).toContain("Registered office 4th Floor, Shivalik Business Centre, Ahmedabad 380054");
    expect(text).toContain("Grievance officer Meera Shah , grievance@sabarmatigrid.example");
    expect(html).toContain('<a href="mailto:grievance@sabarmatigrid.example">');
    const report = await htmlValidator.validateString(html, "/privacy");
    expect(report.results.flatMap((result) => result.messages.map((message) => message.message))).toEqual([]);
  });

  it("are left out where they are not configured, rather than shown empty", async () => {
    const home = (await unset.app.inject({ method: "GET", url: "/" })).body;
    expect(footerOf(home)).not.toContain("CIN");
    const privacy = (await unset.app.inject({ method: "GET", url: "/privacy" })).body;
    expect(privacy).not.toContain('aria-label="The company"');
  });
});
