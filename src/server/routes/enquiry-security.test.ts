import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client.ts";
import { contactSubmissions, mailOutbox, newsletterSubscribers, spamTally } from "../db/schema.ts";
import { FORM_TOKEN_LIFETIME_MS, issueFormToken } from "../enquiries/form-token.ts";
import { hitRateLimit } from "../enquiries/rate-limit.ts";
import { SPAM_MESSAGE_CHARACTERS, SPAM_STORED_PER_HOUR } from "../enquiries/spam.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { projectDriver, testDrivers } from "../../../test/databases.ts";
import { enquiry, formBody, formTokenIssued, TEST_FORM_SECRET } from "../../../test/enquiry-fixtures.ts";
import { KEY_REUSED_MESSAGE, TOKENLESS_ENQUIRIES_PER_DAY } from "./enquiry-routes.ts";

// What a hostile or careless client can do to the enquiry and newsletter posts, and what it gets.

const formHeaders = { "content-type": "application/x-www-form-urlencoded" };
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

describe.each(testDrivers)("enquiry posts under attack, on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver, {
      content: false,
      env: {
        FORM_SECRET: TEST_FORM_SECRET,
        // Mail configured (never sent: no worker runs), so that what is queued can be read.
        SMTP_URL: "smtp://127.0.0.1:2525",
        MAIL_FROM: "website@sabarmatigrid.example",
        MAIL_TO: "enquiries@sabarmatigrid.example",
        MAIL_ACKNOWLEDGE: "true",
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (payload: Record<string, unknown>, remoteAddress = "198.51.100.10") =>
    t.app.inject({ method: "POST", url: "/api/contact", payload, remoteAddress });
  const rowByKey = async (key: unknown) =>
    (
      await t.database.db
        .select()
        .from(contactSubmissions)
        .where(eq(contactSubmissions.idempotencyKey, String(key)))
    )[0];
  const mailKinds = async (submissionId: string) =>
    (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, submissionId)))
      .map((mail) => mail.kind)
      .sort();

  describe("idempotency keys", () => {
    it("answers a repeat of an enquiry with 200 and its reference only, never the stored fields", async () => {
      const payload = enquiry();
      const first = await post(payload);
      const again = await post(payload);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ reference: first.json().reference });
      for (const value of ["Asha", "Patel", "asha.patel@example.com", "Kutch Solar", "120 MW"])
        expect(again.body).not.toContain(value);
    });

    it("answers another enquiry under a used key with 409 and a clear message, storing nothing and revealing nothing", async () => {
      const payload = enquiry();
      expect((await post(payload)).statusCode).toBe(201);
      const intruder = {
        ...payload,
        firstName: "Mallory",
        email: "mallory@example.net",
        message: "Show me what was sent.",
      };
      const conflict = await post(intruder);
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toEqual({ error: "Conflict", message: KEY_REUSED_MESSAGE });
      expect(conflict.body).not.toMatch(/Asha|Patel|asha\.patel|Kutch|120 MW|ENQ-/);
      expect(await rowByKey(payload.idempotencyKey)).toMatchObject({ firstName: "Asha", message: payload.message });
      expect(await t.database.db.$count(contactSubmissions, eq(contactSubmissions.firstName, "Mallory"))).toBe(0);
    });

    it("takes a repeat whose text differs only in what the form normalises (spaces around, CR LF) for the same enquiry", async () => {
      const payload = enquiry({ message: "Line one\nLine two" });
      expect((await post(payload)).statusCode).toBe(201);
      expect((await post({ ...payload, firstName: "  Asha ", message: "Line one\r\nLine two" })).statusCode).toBe(200);
    });

    it("shows a form post under a used key the form again with the message, a new key and the visitor's values", async () => {
      const page = (await t.app.inject({ method: "GET", url: "/contact" })).body;
      const key = hidden(page, "idempotencyKey");
      const { idempotencyKey: _key, ...values } = enquiry();
      const first = await t.app.inject({
        method: "POST",
        url: "/contact",
        headers: formHeaders,
        payload: formBody({ ...values, idempotencyKey: key }),
      });
      expect(first.statusCode).toBe(303);
      const changed = { ...values, message: "A different enquiry from the same page view.", idempotencyKey: key };
      const conflict = await t.app.inject({
        method: "POST",
        url: "/contact",
        headers: formHeaders,
        payload: formBody(changed),
      });
      expect(conflict.statusCode).toBe(409);
      expect(conflict.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(conflict.body).toContain("This form was already used to send an enquiry with different details.");
      expect(conflict.body).toContain("A different enquiry from the same page view.");
      const newKey = hidden(conflict.body, "idempotencyKey");
      expect(newKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(newKey).not.toBe(key);
      // Sent again at once from the page it got back (its new key, its new token), it is stored as
      // a new enquiry, and not taken for spam: the token used by the first was not sent again.
      const token = hidden(conflict.body, "formToken");
      expect(token).not.toBe(values.formToken);
      const resent = await t.app.inject({
        method: "POST",
        url: "/contact",
        headers: formHeaders,
        payload: formBody({ ...changed, idempotencyKey: newKey, formToken: token }),
      });
      expect(resent.statusCode).toBe(303);
      expect(await rowByKey(newKey)).toMatchObject({
        message: "A different enquiry from the same page view.",
        isSpam: false,
      });
    });

    it("keeps the posted form token in a form shown again for invalid fields: it was not used", async () => {
      const posted = enquiry({ lastName: "" });
      const invalid = await t.app.inject({
        method: "POST",
        url: "/contact",
        headers: formHeaders,
        payload: formBody(posted),
      });
      expect(invalid.statusCode).toBe(400);
      expect(hidden(invalid.body, "formToken")).toBe(posted.formToken);
      const corrected = { ...posted, lastName: "Patel" };
      expect(
        (await t.app.inject({ method: "POST", url: "/contact", headers: formHeaders, payload: formBody(corrected) }))
          .statusCode,
      ).toBe(303);
      expect(await rowByKey(posted.idempotencyKey)).toMatchObject({ lastName: "Patel", isSpam: false });
    });
  });

  describe("control characters", () => {
    const fields = ["firstName", "lastName", "email", "company", "message", "bot-field", "formToken", "form-name"];
    it.each(fields)("answers a NUL in %s with 400 naming the field, storing nothing", async (field) => {
      const before = await t.database.db.$count(contactSubmissions);
      const payload = enquiry({ "form-name": "contact", "bot-field": "" });
      payload[field] = field === "email" ? "asha\u0000@example.com" : `${String(payload[field] ?? "")}x\u0000y`;
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().fields)).toEqual([field]);
      expect(response.json().fields[field]).toMatch(/must not contain control characters$/);
      expect(await t.database.db.$count(contactSubmissions)).toBe(before);
    });

    it("refuses ESC, DEL and C1 controls in the message, but keeps tabs and line breaks (CR LF stored as LF)", async () => {
      for (const bad of ["\u001b]0;owned\u0007", "del\u007f", "csi\u009b2J"]) {
        const response = await post(enquiry({ message: `Study ${bad}` }));
        expect(response.statusCode).toBe(400);
        expect(response.json().fields).toEqual({ message: "Project details must not contain control characters" });
      }
      const payload = enquiry({ message: "Line one\r\n\tLine two\rLine three" });
      expect((await post(payload)).statusCode).toBe(201);
      expect((await rowByKey(payload.idempotencyKey))?.message).toBe("Line one\n\tLine two\nLine three");
    });

    it("answers a NUL in a form post with the form again, status 400, and in a subscription with 400 naming the email", async () => {
      const form = await t.app.inject({
        method: "POST",
        url: "/contact",
        headers: formHeaders,
        payload: formBody(enquiry({ lastName: "Pa\u0000tel" })),
      });
      expect(form.statusCode).toBe(400);
      expect(form.body).toContain("Last name must not contain control characters");
      const newsletter = await t.app.inject({
        method: "POST",
        url: "/api/newsletter",
        payload: { email: "reader\u0000@example.com" },
      });
      expect(newsletter.statusCode).toBe(400);
      expect(newsletter.json().fields).toEqual({ email: "Email must not contain control characters" });
    });
  });

  describe("form tokens", () => {
    it("takes a token for one enquiry: a resend of it is not a second use, another enquiry with it is spam and not mailed", async () => {
      const token = formTokenIssued();
      const first = enquiry({ formToken: token });
      expect((await post(first)).statusCode).toBe(201);
      expect((await post(first)).statusCode).toBe(200);
      const second = enquiry({ formToken: token, firstName: "Second" });
      const third = enquiry({ formToken: token, firstName: "Third" });
      // Answered like a success, as all spam is.
      expect((await post(second)).statusCode).toBe(201);
      expect((await post(third)).statusCode).toBe(201);
      expect(await rowByKey(first.idempotencyKey)).toMatchObject({ isSpam: false });
      for (const spam of [second, third]) {
        const row = await rowByKey(spam.idempotencyKey);
        expect(row).toMatchObject({ isSpam: true, spamReason: "form-token-reused" });
        expect(await mailKinds(row!.id)).toEqual([]);
      }
    });

    it("gives two forms shown in the same millisecond different tokens", () => {
      const now = Date.now();
      expect(issueFormToken(TEST_FORM_SECRET, now)).not.toBe(issueFormToken(TEST_FORM_SECRET, now));
    });

    it("counts a token past its lifetime as none: an ordinary enquiry, stored and mailed", async () => {
      const old = formTokenIssued(FORM_TOKEN_LIFETIME_MS + 60_000);
      for (const payload of [enquiry({ formToken: old }), enquiry({ formToken: old })]) {
        expect((await post(payload)).statusCode).toBe(201);
        const row = await rowByKey(payload.idempotencyKey);
        expect(row).toMatchObject({ isSpam: false });
        expect(await mailKinds(row!.id)).toContain("notification");
      }
    });
  });

  describe("spam", () => {
    it("stores spam shortened", async () => {
      const payload = enquiry({
        "bot-field": "http://spam.example",
        message: "Buy now! ".repeat(550).trim(),
        company: "C".repeat(200),
      });
      expect((await post(payload)).statusCode).toBe(201);
      const row = await rowByKey(payload.idempotencyKey);
      expect(row).toMatchObject({ isSpam: true, spamReason: "honeypot" });
      expect(row!.message.length).toBeLessThanOrEqual(SPAM_MESSAGE_CHARACTERS);
      expect(row!.company!.length).toBeLessThanOrEqual(100);
      // A resend of the same spam is still the same enquiry, though what is stored is shorter.
      expect((await post(payload)).statusCode).toBe(200);
    });

    it(`stores at most ${SPAM_STORED_PER_HOUR} spam an hour; more is counted, not stored, and answered like a success`, async () => {
      // This hour's tally as if 98 spam had been stored already.
      const [{ epoch } = { epoch: 0 }] = await queryRows<{ epoch: number }>(
        t.database.db,
        sql`insert into spam_tally (hour, stored) values (date_trunc('hour', now()), ${SPAM_STORED_PER_HOUR - 2})
            on conflict (hour) do update set stored = ${SPAM_STORED_PER_HOUR - 2}, dropped = 0
            returning extract(epoch from hour)::float8 as epoch`,
      );
      const payloads = Array.from({ length: 5 }, () => enquiry({ "bot-field": "x" }));
      for (const payload of payloads) {
        const response = await post(payload);
        expect(response.statusCode).toBe(201);
        expect(response.json().reference).toMatch(/^ENQ-[0-9A-F]{8}$/);
      }
      const stored = await Promise.all(payloads.map((payload) => rowByKey(payload.idempotencyKey)));
      expect(stored.map(Boolean)).toEqual([true, true, false, false, false]);
      const [tally] = await t.database.db
        .select()
        .from(spamTally)
        .where(eq(spamTally.hour, new Date(epoch * 1000)));
      expect(tally).toMatchObject({ stored: SPAM_STORED_PER_HOUR, dropped: 3 });
      await t.database.db.delete(spamTally);
    });

    it(`treats more than ${TOKENLESS_ENQUIRIES_PER_DAY} enquiries a day without a token from one client as spam`, async () => {
      const client = "203.0.113.77";
      const tokenless = () => {
        const { formToken: _token, ...payload } = enquiry();
        return payload;
      };
      const first = tokenless();
      expect((await post(first, client)).statusCode).toBe(201);
      // Resending a stored one does not count again.
      for (let i = 0; i < 3; i += 1) expect((await post(first, client)).statusCode).toBe(200);
      for (let i = 1; i < TOKENLESS_ENQUIRIES_PER_DAY; i += 1) {
        const payload = tokenless();
        expect((await post(payload, client)).statusCode).toBe(201);
        expect(await rowByKey(payload.idempotencyKey)).toMatchObject({ isSpam: false });
      }
      const over = tokenless();
      expect((await post(over, client)).statusCode).toBe(201);
      expect(await rowByKey(over.idempotencyKey)).toMatchObject({
        isSpam: true,
        spamReason: "no-token-over-daily-limit",
      });
      // Another client, and a post with a token from this one, are not affected.
      const other = tokenless();
      await post(other, "203.0.113.78");
      expect(await rowByKey(other.idempotencyKey)).toMatchObject({ isSpam: false });
      const withToken = enquiry();
      await post(withToken, client);
      expect(await rowByKey(withToken.idempotencyKey)).toMatchObject({ isSpam: false });
    });
  });

  describe("acknowledgements", () => {
    it("acknowledges to one address at most once a day, and only an enquiry from the site's own form", async () => {
      const email = `ack.${randomUUID()}@example.com`;
      const kindsFor = async (payload: Record<string, unknown>) => {
        expect((await post(payload)).statusCode).toBe(201);
        return mailKinds((await rowByKey(payload.idempotencyKey))!.id);
      };
      expect(await kindsFor(enquiry({ email }))).toEqual(["acknowledgement", "notification"]);
      expect(await kindsFor(enquiry({ email: email.toUpperCase() }))).toEqual(["notification"]);
      expect(await kindsFor(enquiry({ email }))).toEqual(["notification"]);
      const { formToken: _token, ...tokenless } = enquiry({ email: `other.${email}` });
      expect(await kindsFor(tokenless)).toEqual(["notification"]);
      expect(await kindsFor(enquiry({ email: `third.${email}` }))).toEqual(["acknowledgement", "notification"]);
    });
  });

  describe("posts from other sites", () => {
    const cases: [string, Record<string, string>][] = [
      ["an Origin of another site", { origin: "https://evil.example" }],
      ["the null Origin of a sandboxed page", { origin: "null" }],
      ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
      [
        "Sec-Fetch-Site: same-site (a sibling subdomain)",
        { "sec-fetch-site": "same-site", origin: "https://blog.example.test" },
      ],
      [
        "the site's origin but Sec-Fetch-Site: cross-site",
        { "sec-fetch-site": "cross-site", origin: "https://www.example.test" },
      ],
    ];
    it.each(cases)("answers a post with %s with 403 and a clear message, storing nothing", async (_name, headers) => {
      const email = `csrf.${randomUUID()}@example.com`;
      const { idempotencyKey: _key, ...values } = enquiry({ email });
      const attempts = [
        t.app.inject({
          method: "POST",
          url: "/blog",
          headers: { ...formHeaders, ...headers },
          payload: formBody({ email }),
        }),
        t.app.inject({ method: "POST", url: "/api/newsletter", headers, payload: { email } }),
        t.app.inject({
          method: "POST",
          url: "/contact",
          headers: { ...formHeaders, ...headers },
          payload: formBody(values),
        }),
        t.app.inject({ method: "POST", url: "/api/contact", headers, payload: values }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({
          error: "Forbidden",
          message: expect.stringMatching(/accepts forms sent from its own pages only\.$/),
        });
      }
      expect(await t.database.db.$count(newsletterSubscribers, eq(newsletterSubscribers.email, email))).toBe(0);
      expect(await t.database.db.$count(contactSubmissions, eq(contactSubmissions.email, email))).toBe(0);
    });

    it("accepts a post from the site's own pages, and one that says nothing of where it came from (curl)", async () => {
      const own = { origin: "https://www.example.test", "sec-fetch-site": "same-origin" };
      for (const headers of [own, { origin: "https://www.example.test" }, { "sec-fetch-site": "same-origin" }, {}]) {
        const email = `own.${randomUUID()}@example.com`;
        const subscribed = await t.app.inject({
          method: "POST",
          url: "/blog",
          headers: { ...formHeaders, ...headers },
          payload: formBody({ email }),
        });
        expect(subscribed.statusCode).toBe(303);
        const sent = await t.app.inject({ method: "POST", url: "/api/contact", headers, payload: enquiry({ email }) });
        expect(sent.statusCode).toBe(201);
      }
    });
  });
});

describe.each(testDrivers)("the rate limit's window and clients, on %s", (driver) => {
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

  it("counts an IPv6 client by its /64: a new address in it gets no new limit", async () => {
    const post = (remoteAddress: string) =>
      t.app.inject({ method: "POST", url: "/api/newsletter", payload: { email: "v6@example.com" }, remoteAddress });
    const statuses = [];
    for (const address of [
      "2001:db8:aa:1::1",
      "2001:db8:aa:1::2",
      "2001:db8:aa:1:ffff:ffff:ffff:fffe",
      "2001:0db8:00aa:0001::9",
    ]) {
      statuses.push((await post(address)).statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await post("2001:db8:aa:2::1")).statusCode).toBeLessThan(300);
    // An IPv4 client reaching an IPv6 socket (::ffff:a.b.c.d) is counted as its IPv4 address.
    for (let i = 0; i < 3; i += 1)
      expect((await post(i % 2 ? "::ffff:192.0.2.90" : "192.0.2.90")).statusCode).toBeLessThan(300);
    expect((await post("::ffff:192.0.2.90")).statusCode).toBe(429);
  });

  it("slides: hits 30 s old still count, and the limit frees up as each one passes the minute", async () => {
    const key = `window-test-${randomUUID()}`;
    const hit = () => hitRateLimit(t.database.db, key, 3, 60);
    for (let i = 0; i < 3; i += 1) expect(await hit()).toEqual({ allowed: true });
    const age = (seconds: number) =>
      t.database.db.execute(
        sql`update rate_limit_windows set hits = array(select h - ${seconds}::int * interval '1 second' from unnest(hits) h) where key = ${key}`,
      );
    // Half a minute later (a calendar minute may have begun meanwhile), the three still count.
    await age(30);
    const refused = await hit();
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(29);
    expect(refused.allowed === false && refused.retryAfterSeconds).toBeLessThanOrEqual(31);
    // A refused hit is not kept: past the minute from the three, the limit is whole again.
    await age(31);
    for (let i = 0; i < 3; i += 1) expect(await hit()).toEqual({ allowed: true });
    expect(await hit()).toMatchObject({ allowed: false });
    const [row] = await queryRows<{ hits: number }>(
      t.database.db,
      sql`select cardinality(hits) as hits from rate_limit_windows where key = ${key}`,
    );
    expect(row?.hits).toBe(3);
  });

  it("never lets more than the limit through in any minute, whatever the timing", async () => {
    const key = `spread-test-${randomUUID()}`;
    const hit = () => hitRateLimit(t.database.db, key, 3, 60);
    // Two hits, then 50 s later two more: the fourth would pass a new calendar minute's count.
    expect((await hit()).allowed).toBe(true);
    expect((await hit()).allowed).toBe(true);
    await t.database.db.execute(
      sql`update rate_limit_windows set hits = array(select h - interval '50 seconds' from unnest(hits) h) where key = ${key}`,
    );
    expect((await hit()).allowed).toBe(true);
    expect((await hit()).allowed).toBe(false);
  });
});

describe("X-Forwarded-For entries that are not IP addresses", () => {
  describe.each([
    ["TRUST_PROXY=true (one hop)", "true"],
    ["TRUST_PROXY listing the proxy's address", "127.0.0.1"],
  ])("with %s", (_name, trustProxy) => {
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

    const post = (forwardedFor: string, remoteAddress = "127.0.0.1") =>
      t.app.inject({
        method: "POST",
        url: "/api/newsletter",
        payload: { email: "xff@example.com" },
        remoteAddress,
        headers: { "x-forwarded-for": forwardedFor },
      });

    it("ignores them: a client writing a new one each time is still counted as one", async () => {
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await post(`203.0.113.40, not-an-ip-${i}`)).statusCode);
      expect(statuses).toEqual([201, 201, 201, 429]);
      expect((await post("203.0.113.41, <script>")).statusCode).toBeLessThan(300);
    });

    it("falls back to the connection's address when no entry is an address", async () => {
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await post(`garbage-${i}`)).statusCode);
      expect(statuses.slice(0, 3).every((status) => status < 300)).toBe(true);
      expect(statuses[3]).toBe(429);
    });
  });
});
