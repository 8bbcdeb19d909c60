import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactSubmissions, mailOutbox, newsletterSubscribers } from "../db/schema.ts";
import { checkFormToken } from "../enquiries/form-token.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { projectDriver, testDrivers } from "../../../test/databases.ts";
import { enquiry, formBody, formTokenIssued, TEST_FORM_SECRET } from "../../../test/enquiry-fixtures.ts";

const formHeaders = { "content-type": "application/x-www-form-urlencoded" };

describe.each(testDrivers)("enquiries on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver, { content: false, env: { FORM_SECRET: TEST_FORM_SECRET } });
  });
  afterAll(async () => {
    await t.close();
  });

  const rowsByKey = (key: string) =>
    t.database.db.select().from(contactSubmissions).where(eq(contactSubmissions.idempotencyKey, key));

  it("stores a JSON enquiry with its mail marked 'unconfigured' when SMTP is not set", async () => {
    const payload = enquiry();
    const response = await t.app.inject({ method: "POST", url: "/api/contact", payload });
    expect(response.statusCode).toBe(201);
    expect(response.json().reference).toMatch(/^ENQ-[0-9A-F]{8}$/);
    const [row] = await rowsByKey(String(payload.idempotencyKey));
    expect(row).toMatchObject({ firstName: "Asha", isSpam: false, spamReason: null });
    const outbox = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, row!.id));
    expect(outbox.map((mail) => [mail.kind, mail.status])).toEqual([["notification", "unconfigured"]]);
  });

  it("stores one row for the same idempotency key sent twice, and answers success both times with its reference", async () => {
    const payload = enquiry();
    const first = await t.app.inject({ method: "POST", url: "/api/contact", payload });
    const second = await t.app.inject({ method: "POST", url: "/api/contact", payload });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ reference: first.json().reference });
    expect(await rowsByKey(String(payload.idempotencyKey))).toHaveLength(1);
  });

  it("takes the idempotency key from the Idempotency-Key header too, and rejects one that is not a UUID", async () => {
    const { idempotencyKey: _key, ...payload } = enquiry();
    const key = "6f1c1f0e-8c7a-4b8e-9d55-2b7f0c1f9a10";
    await t.app.inject({ method: "POST", url: "/api/contact", payload, headers: { "idempotency-key": key } });
    await t.app.inject({ method: "POST", url: "/api/contact", payload, headers: { "idempotency-key": key } });
    expect(await rowsByKey(key)).toHaveLength(1);
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/contact",
      payload: { ...payload, idempotencyKey: "123" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ idempotencyKey: "must be a UUID" });
  });

  it("answers a valid form post without JavaScript with a 303 to /thank-you and stores it", async () => {
    const before = await t.database.db.$count(contactSubmissions);
    const { idempotencyKey: _key, ...fields } = enquiry({ "form-name": "contact", "bot-field": "" });
    const response = await t.app.inject({
      method: "POST",
      url: "/contact",
      headers: formHeaders,
      payload: formBody(fields),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/thank-you");
    expect(await t.database.db.$count(contactSubmissions)).toBe(before + 1);
  });

  it("gives every contact page its own idempotency key, so the same form posted twice stores one enquiry", async () => {
    const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
    const page = (await t.app.inject({ method: "GET", url: "/contact" })).body;
    const key = hidden(page, "idempotencyKey");
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(hidden((await t.app.inject({ method: "GET", url: "/contact" })).body, "idempotencyKey")).not.toBe(key);
    // What the browser sends without JavaScript: the page's hidden fields and the visitor's values.
    const { formToken: _token, idempotencyKey: _key, ...values } = enquiry();
    const post = formBody({
      "form-name": "contact",
      formToken: hidden(page, "formToken"),
      idempotencyKey: key,
      "bot-field": "",
      ...values,
    });
    const answers = [];
    for (let i = 0; i < 2; i += 1)
      answers.push(await t.app.inject({ method: "POST", url: "/contact", headers: formHeaders, payload: post }));
    expect(answers.map((answer) => [answer.statusCode, answer.headers.location])).toEqual([
      [303, "/thank-you"],
      [303, "/thank-you"],
    ]);
    expect(await rowsByKey(key!)).toHaveLength(1);
  });

  it("re-renders the contact page for an invalid form post, keeping the values and naming each error by its field", async () => {
    const before = await t.database.db.$count(contactSubmissions);
    const posted = enquiry({ email: "not-an-address", lastName: "", company: "Patel & <Sons>" });
    const response = await t.app.inject({
      method: "POST",
      url: "/contact",
      headers: formHeaders,
      payload: formBody(posted),
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    const html = response.body;
    expect(html).toContain('value="not-an-address"');
    expect(html).toContain('value="Patel &amp; &lt;Sons&gt;"');
    expect(html).toContain("We need a grid connectivity study");
    // Sent again once corrected, it is still the same enquiry.
    expect(html).toContain(`name="idempotencyKey" value="${String(posted.idempotencyKey)}"`);
    for (const [field, message] of [
      ["email", "Enter a valid email address"],
      ["lastName", "Last name is required"],
    ]) {
      const input = new RegExp(`<input[^>]*name="${field}"[^>]*>`).exec(html)?.[0] ?? "";
      expect(input).toContain('aria-invalid="true"');
      const describedBy = /aria-describedby="([^"]+)"/.exec(input)?.[1];
      expect(html).toMatch(new RegExp(`id="${describedBy}"[^>]*>${message}<`));
    }
    expect(await t.database.db.$count(contactSubmissions)).toBe(before);
  });

  it("answers a filled honeypot like a success, stores it as spam and queues no mail", async () => {
    const payload = enquiry({ "bot-field": "http://spam.example" });
    const response = await t.app.inject({ method: "POST", url: "/api/contact", payload });
    expect(response.statusCode).toBe(201);
    const [row] = await rowsByKey(String(payload.idempotencyKey));
    expect(row).toMatchObject({ isSpam: true, spamReason: "honeypot" });
    expect(await t.database.db.$count(mailOutbox, eq(mailOutbox.submissionId, row!.id))).toBe(0);
  });

  it.each([
    // Tokens are made when the test runs: one made at collection time could be 3 s old by then.
    ["sent less than 3 seconds after the form was rendered", () => formTokenIssued(500), "form-token-too-fast"],
    ["carrying a forged form token", () => `${Date.now() - 60_000}.${"A".repeat(43)}`, "form-token-invalid"],
  ])("treats an enquiry %s as spam, answered like a success", async (_name, makeToken, reason) => {
    const payload = enquiry({ formToken: makeToken() });
    const response = await t.app.inject({ method: "POST", url: "/api/contact", payload });
    expect(response.statusCode).toBe(201);
    const [row] = await rowsByKey(String(payload.idempotencyKey));
    expect(row).toMatchObject({ isSpam: true, spamReason: reason });
  });

  it("stores and notifies an enquiry without a form token (the spec's JSON call, or a form whose token failed to load)", async () => {
    const { formToken: _token, ...plainJson } = enquiry();
    const json = await t.app.inject({ method: "POST", url: "/api/contact", payload: plainJson });
    expect(json.statusCode).toBe(201);
    const emptyToken = enquiry({ formToken: "" });
    const form = await t.app.inject({
      method: "POST",
      url: "/contact",
      headers: formHeaders,
      payload: formBody(emptyToken),
    });
    expect(form.statusCode).toBe(303);
    for (const key of [plainJson.idempotencyKey, emptyToken.idempotencyKey]) {
      const [row] = await rowsByKey(String(key));
      expect(row).toMatchObject({ isSpam: false, spamReason: null });
      const outbox = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, row!.id));
      expect(outbox.map((mail) => mail.kind)).toEqual(["notification"]);
    }
  });

  it("rejects line breaks in single-line fields", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/contact",
      payload: enquiry({ firstName: "Asha\r\nBcc: victim@example.com" }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields.firstName).toBe("First name must be a single line of text");
  });

  it("hands out a fresh signed form token that a later post accepts", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/form-token" });
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json().token).toMatch(/^\d{13}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}$/);
    // Signed with the site's secret for the moment it was issued: good from 3 s after it.
    expect(checkFormToken(TEST_FORM_SECRET, response.json().token, Date.now() + 3000).verdict).toBe("ok");
  });

  describe("newsletter", () => {
    it("keeps an address once and answers every subscription alike, telling nobody whether it was on the list", async () => {
      const first = await t.app.inject({
        method: "POST",
        url: "/api/newsletter",
        payload: { email: "Grid.Engineer@Example.com" },
      });
      const second = await t.app.inject({
        method: "POST",
        url: "/api/newsletter",
        payload: { email: "grid.engineer@example.com " },
      });
      await t.app.workAfterAnswer.settled();
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
      expect(second.json()).toEqual({
        subscribed: true,
        confirm: true,
        message: "Check your inbox to confirm your subscription.",
      });
      const rows = await t.database.db
        .select()
        .from(newsletterSubscribers)
        .where(eq(newsletterSubscribers.email, "grid.engineer@example.com"));
      expect(rows).toHaveLength(1);
    });

    it("answers a bad address with 400 naming the email field", async () => {
      for (const payload of [{ email: "nope" }, {}, { email: 7 }]) {
        const response = await t.app.inject({ method: "POST", url: "/api/newsletter", payload });
        expect(response.statusCode).toBe(400);
        expect(Object.keys(response.json().fields)).toEqual(["email"]);
      }
    });

    it("accepts a form post and sends the visitor back to the blog saying so", async () => {
      // The form posts to the blog's own address; /api/newsletter takes a form post the same way.
      for (const url of ["/blog", "/api/newsletter"]) {
        const ok = await t.app.inject({
          method: "POST",
          url,
          headers: formHeaders,
          payload: "email=form.post%40example.com",
        });
        expect(ok.statusCode).toBe(303);
        expect(ok.headers.location).toBe("/blog?subscribed=1#newsletter");
      }
      await t.app.workAfterAnswer.settled();
      expect(
        await t.database.db.$count(newsletterSubscribers, eq(newsletterSubscribers.email, "form.post@example.com")),
      ).toBe(1);
    });

    it("answers an invalid form post with the blog page again, the typed address kept and the error by the field", async () => {
      const bad = await t.app.inject({
        method: "POST",
        url: "/blog",
        headers: formHeaders,
        payload: "email=broken%40",
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.headers["content-type"]).toBe("text/html; charset=utf-8");
      const input = /<input[^>]*name="email"[^>]*>/.exec(bad.body)?.[0] ?? "";
      expect(input).toContain('value="broken@"');
      expect(input).toContain('aria-invalid="true"');
      const describedBy = /aria-describedby="([^"]+)"/.exec(input)?.[1];
      expect(bad.body).toMatch(new RegExp(`id="${describedBy}"[^>]*>Enter a valid email address<`));
      expect(bad.body).toContain("Industry Insights");
    });
  });
});

describe.each(testDrivers)("the rate limit on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver, {
      content: false,
      env: { FORM_SECRET: TEST_FORM_SECRET, RATE_LIMIT_PER_MINUTE: "3" },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers the fourth post in a minute from one client with 429, Retry-After and a clear message", async () => {
    const post = (remoteAddress: string) =>
      t.app.inject({ method: "POST", url: "/api/contact", payload: enquiry(), remoteAddress });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await post("203.0.113.7")).statusCode);
    expect(statuses).toEqual([201, 201, 201]);
    const limited = await post("203.0.113.7");
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({
      error: "Too Many Requests",
      message: `You have sent several enquiries in the last minute. Please wait ${retryAfter} seconds and try again.`,
    });
    expect((await post("203.0.113.8")).statusCode).toBe(201);
  });

  it("limits newsletter subscriptions separately, in the same way", async () => {
    const post = () =>
      t.app.inject({
        method: "POST",
        url: "/api/newsletter",
        payload: { email: "limit@example.com" },
        remoteAddress: "198.51.100.4",
      });
    for (let i = 0; i < 3; i += 1) expect((await post()).statusCode).toBeLessThan(300);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/subscriptions/);
  });

  it("answers a limited form post without JavaScript with the contact page, its values and the message", async () => {
    const post = (firstName: string) =>
      t.app.inject({
        method: "POST",
        url: "/contact",
        headers: formHeaders,
        payload: formBody({ ...enquiry({ firstName }), idempotencyKey: undefined }),
        remoteAddress: "192.0.2.44",
      });
    for (let i = 0; i < 3; i += 1) expect((await post("Asha")).statusCode).toBe(303);
    const limited = await post("Limited");
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["content-type"]).toMatch(/^text\/html/);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(limited.body).toMatch(/name="firstName"[^>]*value="Limited"|value="Limited"[^>]*name="firstName"/);
    expect(limited.body).toContain("You have sent several enquiries in the last minute. Please wait ");
  });

  it("answers a limited newsletter form post with the blog page, the address kept and the message, status 429", async () => {
    const post = () =>
      t.app.inject({
        method: "POST",
        url: "/blog",
        headers: formHeaders,
        payload: formBody({ email: "limit.form@example.com" }),
        remoteAddress: "192.0.2.45",
      });
    for (let i = 0; i < 3; i += 1) expect((await post()).statusCode).toBe(303);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["content-type"]).toMatch(/^text\/html/);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(/<input[^>]*name="email"[^>]*>/.exec(limited.body)?.[0]).toContain('value="limit.form@example.com"');
    expect(limited.body).toContain("You have sent several subscriptions in the last minute. Please wait ");
  });
});

describe.each([
  ["TRUST_PROXY=true (one hop)", "true"],
  ["TRUST_PROXY listing the proxy's address", "127.0.0.1"],
])("the rate limit behind a reverse proxy with %s", (_name, trustProxy) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(projectDriver, {
      content: false,
      env: { FORM_SECRET: TEST_FORM_SECRET, RATE_LIMIT_PER_MINUTE: "3", TRUST_PROXY: trustProxy },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  // nginx (at 127.0.0.1) appends the address it saw to whatever X-Forwarded-For the client sent.
  const throughProxy = (forwardedFor: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/contact",
      payload: enquiry(),
      remoteAddress: "127.0.0.1",
      headers: { "x-forwarded-for": forwardedFor },
    });

  it("counts the address the proxy saw, whatever the client wrote in X-Forwarded-For", async () => {
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await throughProxy(`198.51.100.${i}, 203.0.113.50`)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
    expect((await throughProxy("203.0.113.50, 203.0.113.51")).statusCode).toBe(201);
  });
});
