import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  enquiryNoticeText,
  NEWSLETTER_NOTICE_TEXT,
  PRIVACY_NOTICE_VERSION,
  privacyNoticeVersions,
} from "#shared/privacy-notice.ts";
import { retention } from "#shared/retention.ts";
import { contactSubmissions, newsletterSubscribers } from "../db/schema.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";
import { enquiry, formBody, TEST_FORM_SECRET } from "../../../test/enquiry-fixtures.ts";
import { htmlValidator } from "../../../test/html-validator.ts";

// A notice at each form (docs/decisions/055-a-notice-at-each-form.md): beside the enquiry and
// newsletter buttons, what the data is for and how long it is kept, from the configured periods,
// linking to the full notice in English, Hindi and Gujarati; each enquiry and subscription stores
// the version of the notice its form showed.

const formHeaders = { "content-type": "application/x-www-form-urlencoded" };

/** The page's text, without its tags and with its whitespace collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

/** The value of the hidden field `name` of the page's form. */
const hiddenValue = (html: string, name: string) =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html)?.[1];

describe.each(testDrivers)("the notice at each form on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver, { env: { FORM_SECRET: TEST_FORM_SECRET, ENQUIRY_RETENTION_DAYS: "200" } });
  });
  afterAll(async () => t.close());

  const enquiryByKey = async (key: unknown) =>
    (
      await t.database.db
        .select()
        .from(contactSubmissions)
        .where(eq(contactSubmissions.idempotencyKey, String(key)))
    )[0];

  it("is beside the enquiry form's button, with the configured period, the version and the links to each language", async () => {
    const html = (await t.app.inject({ method: "GET", url: "/contact" })).body;
    const text = textOf(html);
    const configured = enquiryNoticeText({ closedEnquiryDays: 200, enquiryMonths: retention.enquiryMonths });
    expect(text).toContain(configured);
    expect(configured).toContain("We keep them 200 days after we close the enquiry");
    expect(text).toContain("Read the full privacy notice, also in हिन्दी and ગુજરાતી.");
    // After the button, and the button points to it.
    const button = html.indexOf('type="submit"');
    const notice = html.indexOf("We use these details only");
    expect(button).toBeGreaterThan(0);
    expect(notice).toBeGreaterThan(button);
    const describedBy = /<button[^>]*type="submit"[^>]*aria-describedby="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain(`<p id="${describedBy}"`);
    expect(html).toMatch(/<a href="\/privacy\/hi" lang="hi" hreflang="hi"/i);
    expect(hiddenValue(html, "noticeVersion")).toBe(PRIVACY_NOTICE_VERSION);
  });

  it("is beside the newsletter box's button, with the version in its form", async () => {
    const html = (await t.app.inject({ method: "GET", url: "/blog" })).body;
    expect(textOf(html)).toContain(NEWSLETTER_NOTICE_TEXT);
    expect(hiddenValue(html, "noticeVersion")).toBe(PRIVACY_NOTICE_VERSION);
  });

  it("stores with an enquiry the version it was shown: posted by the script, by a plain form, or the current one when a client names none", async () => {
    const [oldest] = privacyNoticeVersions;
    const byScript = enquiry({ noticeVersion: oldest.version });
    expect((await t.app.inject({ method: "POST", url: "/api/contact", payload: byScript })).statusCode).toBe(201);
    expect((await enquiryByKey(byScript.idempotencyKey))?.noticeVersion).toBe(oldest.version);

    const page = (await t.app.inject({ method: "GET", url: "/contact" })).body;
    const byForm = enquiry({ noticeVersion: hiddenValue(page, "noticeVersion") });
    const posted = await t.app.inject({
      method: "POST",
      url: "/contact",
      headers: formHeaders,
      payload: formBody(byForm),
    });
    expect(posted.statusCode).toBe(303);
    expect((await enquiryByKey(byForm.idempotencyKey))?.noticeVersion).toBe(PRIVACY_NOTICE_VERSION);

    const byApiClient = enquiry();
    expect((await t.app.inject({ method: "POST", url: "/api/contact", payload: byApiClient })).statusCode).toBe(201);
    expect((await enquiryByKey(byApiClient.idempotencyKey))?.noticeVersion).toBe(PRIVACY_NOTICE_VERSION);
  });

  it("refuses a version that never existed, or one with control characters, naming the field, and stores nothing", async () => {
    const before = await t.database.db.$count(contactSubmissions);
    for (const noticeVersion of ["1999-01-01", "2026-11-29\u0000", "x".repeat(5000), 42]) {
      const response = await t.app.inject({ method: "POST", url: "/api/contact", payload: enquiry({ noticeVersion }) });
      expect(response.statusCode, String(noticeVersion).slice(0, 20)).toBe(400);
      expect(Object.keys(response.json().fields)).toEqual(["noticeVersion"]);
    }
    const plain = await t.app.inject({
      method: "POST",
      url: "/contact",
      headers: formHeaders,
      payload: formBody(enquiry({ noticeVersion: "not-a-version" })),
    });
    expect(plain.statusCode).toBe(400);
    expect(await t.database.db.$count(contactSubmissions)).toBe(before);

    const subscription = await t.app.inject({
      method: "POST",
      url: "/api/newsletter",
      payload: { email: "wrong.version@example.com", noticeVersion: "1999-01-01" },
    });
    expect(subscription.statusCode).toBe(400);
    expect(subscription.json().fields).toEqual({
      noticeVersion: expect.stringContaining("version of the privacy notice"),
    });
    await t.app.workAfterAnswer.settled();
    expect(
      await t.database.db.$count(newsletterSubscribers, eq(newsletterSubscribers.email, "wrong.version@example.com")),
    ).toBe(0);
  });

  it("stores with a subscription the version its box showed", async () => {
    const html = (await t.app.inject({ method: "GET", url: "/blog" })).body;
    const response = await t.app.inject({
      method: "POST",
      url: "/blog",
      headers: formHeaders,
      payload: formBody({ email: "notice.version@example.com", noticeVersion: hiddenValue(html, "noticeVersion") }),
    });
    expect(response.statusCode).toBe(303);
    await t.app.workAfterAnswer.settled();
    const [row] = await t.database.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, "notice.version@example.com"));
    expect(row?.noticeVersion).toBe(PRIVACY_NOTICE_VERSION);
  });

  it("links the full notice, which names its version and lists the versions", async () => {
    const text = textOf((await t.app.inject({ method: "GET", url: "/privacy" })).body);
    expect(text).toContain(`Version ${PRIVACY_NOTICE_VERSION}.`);
    expect(text).toContain("Versions of this notice");
    for (const notice of privacyNoticeVersions) expect(text).toContain(`${notice.version}: ${notice.change}`);
  });

  for (const [path, lang, title, review] of [
    ["/privacy/hi", "hi", "गोपनीयता सूचना", "यह अनुवाद फ़र्म की समीक्षा की प्रतीक्षा में है"],
    ["/privacy/gu", "gu", "ગોપનીયતા સૂચના", "આ અનુવાદ પેઢીની સમીક્ષાની રાહ જુએ છે"],
  ] as const) {
    it(`reads in ${lang} at ${path}: marked as a translation awaiting review, with the configured periods, valid HTML`, async () => {
      const response = await t.app.inject({ method: "GET", url: path });
      expect(response.statusCode).toBe(200);
      const html = response.body;
      expect(html).toMatch(new RegExp(`<div lang="${lang}">`));
      expect(html).toContain(`<h1`);
      const text = textOf(html);
      expect(text).toContain(title);
      expect(text).toContain(review);
      expect(text).toContain(
        "This translation awaits the firm's review; where it differs, the English notice prevails.",
      );
      // The configured period, not the default.
      expect(text).toContain(" 200 ");
      expect(text).not.toContain(` ${retention.closedEnquiryDays} `);
      expect(text).toContain(PRIVACY_NOTICE_VERSION);
      expect(html).toMatch(/<a href="\/privacy" hreflang="en-IN"/i);
      const report = await htmlValidator.validateString(html, path);
      expect(report.results.flatMap((result) => result.messages.map((message) => message.message))).toEqual([]);
    });
  }

  it("lists the translations in the sitemap", async () => {
    const sitemap = (await t.app.inject({ method: "GET", url: "/sitemap.xml" })).body;
    expect(sitemap).toContain("/privacy/hi</loc>");
    expect(sitemap).toContain("/privacy/gu</loc>");
  });
});
