import { randomBytes } from "node:crypto";
import { eq, like } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONFIRMATION_PAGE_TEXT, NEWSLETTER_BOX_TEXT, SUBSCRIPTION_ANSWER } from "#shared/newsletter-consent.ts";
import { mailOutbox, newsletters, newsletterSubscribers } from "../db/schema.ts";
import { dailyRetentionPurge } from "../enquiries/retention.ts";
import { OutboxWorker } from "../mail/outbox-worker.ts";
import { createSmtpTransport } from "../mail/smtp-transport.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";
import { TEST_FORM_SECRET } from "../../../test/enquiry-fixtures.ts";
import { htmlValidator } from "../../../test/html-validator.ts";
import { SmtpPeer } from "../../../test/smtp-peer.ts";
import { unsubscribeToken } from "./tokens.ts";

// Double opt-in end to end (docs/decisions/044-newsletter-double-opt-in.md): the box's post, the
// confirmation mail through the outbox to a real SMTP server, the link's page by GET (nothing
// changes) and by POST (confirmed, with the proof of consent), the unsubscribe link, the purge.

const SITE = "https://www.example.test";
const own = { origin: SITE };
const formHeaders = { "content-type": "application/x-www-form-urlencoded" };
const periods = { spamDays: 30, closedEnquiryDays: 365 };
const HOUR = 3_600_000;

const h1Of = (html: string) => /<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1]?.replace(/&#x27;|&#39;/g, "'");

describe.each(testDrivers)("newsletter subscriptions on %s", (driver) => {
  let t: TestApp;
  let peer: SmtpPeer;
  let worker: OutboxWorker;
  let clock = new Date();
  const db = () => t.database.db;

  beforeAll(async () => {
    peer = await SmtpPeer.start();
    t = await buildTestApp(driver, {
      content: false,
      now: () => clock,
      env: {
        FORM_SECRET: TEST_FORM_SECRET,
        SMTP_URL: peer.url,
        MAIL_FROM: "website@sabarmatigrid.example",
        MAIL_TO: "enquiries@sabarmatigrid.example",
      },
    });
    worker = new OutboxWorker({
      db: t.database.db,
      transport: createSmtpTransport(peer.url),
      from: "website@sabarmatigrid.example",
      to: ["enquiries@sabarmatigrid.example"],
      log: pino({ level: "silent" }),
    });
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
    await peer.stop();
  });

  /** Posts the box and waits for the work after its answer. */
  const subscribe = async (email: string) => {
    const answer = await t.app.inject({ method: "POST", url: "/api/newsletter", headers: own, payload: { email } });
    await t.app.workAfterAnswer.settled();
    return answer;
  };
  const subscriber = async (email: string) =>
    (await db().select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0];
  const confirmationRows = async (email: string) => {
    const row = await subscriber(email);
    return row ? db().select().from(mailOutbox).where(eq(mailOutbox.subscriberId, row.id)) : [];
  };
  /** Sends the queued mail and returns the confirmation link the peer received for this address. */
  async function linkMailedTo(email: string): Promise<string> {
    const before = peer.messages.length;
    await worker.sendDueBatch();
    const mail = (await peer.waitForMessages(before + 1)).slice(before).find((m) => m.to.includes(email));
    expect(mail, `a mail to ${email}`).toBeDefined();
    expect(mail!.headers.get("subject")?.[0]).toBe("Confirm your subscription to the Sabarmati Grid newsletter");
    const link = new RegExp(`${SITE}/newsletter/confirm/[A-Za-z0-9_-]{43}`).exec(mail!.body)?.[0];
    expect(link).toBeDefined();
    return link!.slice(SITE.length);
  }
  const confirmed = async (email: string) => {
    expect((await subscribe(email)).statusCode).toBe(201);
    const path = await linkMailedTo(email);
    expect((await t.app.inject({ method: "POST", url: path, headers: own })).statusCode).toBe(200);
    return (await subscriber(email))!;
  };

  it("answers every subscription alike and mails a link; GET of the link confirms nothing, the page's POST does", async () => {
    clock = new Date();
    const email = `reader.${Date.now()}@example.com`;
    const answer = await subscribe(email);
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toEqual({ subscribed: true, confirm: true, message: SUBSCRIPTION_ANSWER });
    expect(await subscriber(email)).toMatchObject({
      status: "pending",
      consentPage: "/blog",
      consentText: NEWSLETTER_BOX_TEXT,
      confirmedAt: null,
    });

    const path = await linkMailedTo(email);
    // Sent: the link is a credential, not kept in the outbox.
    const [row] = await confirmationRows(email);
    expect(row).toMatchObject({ kind: "newsletter-confirmation", status: "sent", payload: null, newsletterId: null });

    // A link scanner opens it: a page with one button, nothing changed.
    const page = await t.app.inject({ method: "GET", url: path });
    expect(page.statusCode).toBe(200);
    expect(h1Of(page.body)).toBe("Confirm your subscription");
    expect(page.body).toMatch(new RegExp(`<form [^>]*action="${path}" method="post">`));
    expect(page.body).toContain(">Confirm subscription</button>");
    expect(page.headers).toMatchObject({
      "cache-control": "no-store",
      "x-robots-tag": "noindex, nofollow",
      "referrer-policy": "same-origin",
    });
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page.body).not.toContain('rel="canonical"');
    // No island of its own: the layout's two, as on every page (the first-load budget is untouched).
    const islands = JSON.parse(/<script type="application\/json" id="islands">(.*?)<\/script>/.exec(page.body)![1]!);
    expect(islands.map(([name]: [string]) => name)).toEqual(["menuButton", "consultationButton"]);
    expect((await subscriber(email))!.status).toBe("pending");
    // A scanner that submits the form without saying where from (neither Origin nor
    // Sec-Fetch-Site, as no browser posts): refused, nothing changed.
    const scanner = await t.app.inject({ method: "POST", url: path });
    expect(scanner.statusCode).toBe(403);
    expect(scanner.json().message).toMatch(/accepted from its page in a browser only/);
    expect((await subscriber(email))!.status).toBe("pending");
    // A browser that sends Sec-Fetch-Site alone is one.
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/newsletter/confirm/short",
          headers: { "sec-fetch-site": "same-origin" },
        })
      ).statusCode,
    ).not.toBe(403);

    const post = await t.app.inject({ method: "POST", url: path, headers: own });
    expect(post.statusCode).toBe(200);
    expect(h1Of(post.body)).toBe("You're subscribed");
    expect(post.headers["cache-control"]).toBe("no-store");
    const row2 = (await subscriber(email))!;
    expect(row2).toMatchObject({
      status: "confirmed",
      consentPage: "/blog",
      consentText: `${NEWSLETTER_BOX_TEXT}\n\n${CONFIRMATION_PAGE_TEXT}`,
      confirmTokenHash: null,
    });
    expect(row2.confirmedAt?.getTime()).toBe(clock.getTime());

    // Used: a clear 404, and the page opened again says so too (never a cached "Confirm" page).
    for (const method of ["POST", "GET"] as const) {
      const again = await t.app.inject({ method, url: path, headers: own });
      expect(again.statusCode).toBe(404);
      expect(h1Of(again.body)).toBe("This link does not work");
      expect(again.body).toContain("already used");
      expect(again.headers["cache-control"]).toBe("no-store");
    }
    // Subscribing again: the same answer, and no mail to a confirmed address.
    const rowsBefore = (await confirmationRows(email)).length;
    expect((await subscribe(email)).json().message).toBe(SUBSCRIPTION_ANSWER);
    expect(await confirmationRows(email)).toHaveLength(rowsBefore);
  });

  it("refuses a forged, malformed or foreign post with a clear 4xx that changes nothing", async () => {
    clock = new Date();
    const email = `careful.${Date.now()}@example.com`;
    await subscribe(email);
    const path = await linkMailedTo(email);
    const forged = `/newsletter/confirm/${randomBytes(32).toString("base64url")}`;
    for (const url of [forged, "/newsletter/confirm/short", "/newsletter/confirm/%00%01", "/newsletter/confirm/"]) {
      const response = await t.app.inject({ method: "POST", url, headers: own });
      expect(response.statusCode, url).toBe(404);
      expect(h1Of(response.body)).toBe("This link does not work");
    }
    const foreign = await t.app.inject({ method: "POST", url: path, headers: { origin: "https://evil.example" } });
    expect(foreign.statusCode).toBe(403);
    const badEscape = await t.app.inject({ method: "POST", url: "/newsletter/confirm/%zz", headers: own });
    expect(badEscape.statusCode).toBe(400);
    const huge = await t.app.inject({
      method: "POST",
      url: path,
      headers: { ...own, ...formHeaders },
      payload: `x=${"a".repeat(10_000)}`,
    });
    expect(huge.statusCode).toBe(413);
    expect((await subscriber(email))!.status).toBe("pending");
  });

  it("answers an expired link 410, saying to subscribe again; and mails one address once a day at most", async () => {
    clock = new Date();
    const email = `late.${Date.now()}@example.com`;
    await subscribe(email);
    const path = await linkMailedTo(email);
    await subscribe(email);
    await subscribe(email);
    expect(await confirmationRows(email)).toHaveLength(1);

    clock = new Date(clock.getTime() + 49 * HOUR);
    for (const method of ["GET", "POST"] as const) {
      const response = await t.app.inject({ method, url: path, headers: own });
      expect(response.statusCode).toBe(410);
      expect(h1Of(response.body)).toBe("This link does not work");
      expect(response.body).toContain("48 hours");
      expect(response.body).toContain('href="/blog#newsletter"');
    }
    expect((await subscriber(email))!.status).toBe("pending");

    // A day later a new subscription sends a new link, which works.
    await subscribe(email);
    expect(await confirmationRows(email)).toHaveLength(2);
    const fresh = await linkMailedTo(email);
    expect(fresh).not.toBe(path);
    expect((await t.app.inject({ method: "POST", url: fresh, headers: own })).statusCode).toBe(200);
  });

  it("sends one mail for two subscriptions of one address at the same moment", async () => {
    clock = new Date();
    const email = `twice.${Date.now()}@example.com`;
    const answers = await Promise.all([subscribe(email), subscribe(email.toUpperCase()), subscribe(email)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    expect(await confirmationRows(email)).toHaveLength(1);
    await linkMailedTo(email);
  });

  it("takes the form without JavaScript: 303 to the blog saying to check the inbox, the page recorded", async () => {
    clock = new Date();
    const email = `nojs.${Date.now()}@example.com`;
    const posted = await t.app.inject({
      method: "POST",
      url: "/blog",
      headers: { ...own, ...formHeaders },
      payload: `email=${encodeURIComponent(email)}&page=%2Fabout&form-name=newsletter`,
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe("/blog?subscribed=1#newsletter");
    await t.app.workAfterAnswer.settled();
    const blog = await t.app.inject({ method: "GET", url: "/blog?subscribed=1" });
    expect(blog.body).toContain(SUBSCRIPTION_ANSWER);
    expect(blog.body).not.toContain("reply to any newsletter");
    expect((await subscriber(email))!.consentPage).toBe("/about");

    // A page the route table does not know is not stored: the blog is.
    const other = `nojs.other.${Date.now()}@example.com`;
    await t.app.inject({
      method: "POST",
      url: "/blog",
      headers: { ...own, ...formHeaders },
      payload: `email=${encodeURIComponent(other)}&page=%2Fevil%0D%0A`,
    });
    await t.app.workAfterAnswer.settled();
    expect((await subscriber(other))!.consentPage).toBe("/blog");
  });

  it("unsubscribes by one-click POST with no Origin and no session, cancelling its newsletter mail; GET changes nothing", async () => {
    clock = new Date();
    const email = `leaving.${Date.now()}@example.com`;
    const row = await confirmed(email);
    const [newsletter] = await db()
      .insert(newsletters)
      .values({ subject: "November", campaign: `nov-${Date.now()}` })
      .returning();
    await db()
      .insert(mailOutbox)
      .values({ kind: "newsletter", newsletterId: newsletter!.id, subscriberId: row.id, recipient: email });
    const path = `/newsletter/unsubscribe/${unsubscribeToken(TEST_FORM_SECRET, row.id)}`;

    const page = await t.app.inject({ method: "GET", url: path });
    expect(page.statusCode).toBe(200);
    expect(h1Of(page.body)).toBe("Unsubscribe from the newsletter");
    expect(page.body).toContain(">Unsubscribe</button>");
    expect(page.headers).toMatchObject({ "cache-control": "no-store", "referrer-policy": "same-origin" });
    expect((await subscriber(email))!.status).toBe("confirmed");

    const huge = await t.app.inject({
      method: "POST",
      url: path,
      headers: formHeaders,
      payload: `List-Unsubscribe=One-Click&x=${"a".repeat(8000)}`,
    });
    expect(huge.statusCode).toBe(413);
    expect((await subscriber(email))!.status).toBe("confirmed");

    // RFC 8058: the provider posts from its own servers, another origin or none.
    const oneClick = await t.app.inject({
      method: "POST",
      url: path,
      headers: { ...formHeaders, origin: "https://mail.provider.example" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode).toBe(200);
    expect(h1Of(oneClick.body)).toBe("You are unsubscribed");
    const after = (await subscriber(email))!;
    expect(after.status).toBe("unsubscribed");
    expect(after.statusChangedAt.getTime()).toBe(clock.getTime());
    const [queued] = await db().select().from(mailOutbox).where(eq(mailOutbox.newsletterId, newsletter!.id));
    expect(queued!.status).toBe("cancelled");

    // Again, as multipart, and empty: harmless, 200 each time.
    const boundary = "----provider";
    const multipart = await t.app.inject({
      method: "POST",
      url: path,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(multipart.statusCode).toBe(200);
    expect((await t.app.inject({ method: "POST", url: path })).statusCode).toBe(200);
    expect((await subscriber(email))!.status).toBe("unsubscribed");

    // Subscribing again (a day on: one confirmation mail a day) asks again: pending, one new mail.
    clock = new Date(clock.getTime() + 25 * HOUR);
    await subscribe(email);
    expect((await subscriber(email))!.status).toBe("pending");
  });

  it("answers a forged or malformed unsubscribe link 404, and a test send's link with a page saying so", async () => {
    clock = new Date();
    const email = `staying.${Date.now()}@example.com`;
    const row = await confirmed(email);
    const forgedForOther = unsubscribeToken("another-secret", row.id);
    for (const token of [forgedForOther, `${row.id}.short`, "not-a-token", "%00%1F", `${row.id}.${"A".repeat(43)}`]) {
      for (const method of ["GET", "POST"] as const) {
        const response = await t.app.inject({ method, url: `/newsletter/unsubscribe/${token}` });
        expect(response.statusCode, `${method} ${token}`).toBe(404);
        expect(h1Of(response.body)).toBe("This link does not work");
      }
    }
    expect((await subscriber(email))!.status).toBe("confirmed");
    for (const method of ["GET", "POST"] as const) {
      const test = await t.app.inject({ method, url: "/newsletter/unsubscribe/test" });
      expect(test.statusCode).toBe(200);
      expect(h1Of(test.body)).toBe("This was a test newsletter");
      expect(test.body).toContain("There is no subscription to stop.");
    }
  });

  it("does not send a confirmation mail whose address was confirmed or unsubscribed meanwhile", async () => {
    clock = new Date();
    const email = `quick.${Date.now()}@example.com`;
    const row = await confirmed(email);
    await t.app.inject({
      method: "POST",
      url: `/newsletter/unsubscribe/${unsubscribeToken(TEST_FORM_SECRET, row.id)}`,
    });
    clock = new Date(clock.getTime() + 25 * HOUR);
    await subscribe(email);
    await t.app.inject({
      method: "POST",
      url: `/newsletter/unsubscribe/${unsubscribeToken(TEST_FORM_SECRET, row.id)}`,
    });
    const sent = peer.messages.length;
    await worker.sendDueBatch();
    expect(peer.messages.length).toBe(sent);
    expect((await confirmationRows(email)).map((mail) => mail.status).sort()).toEqual(["cancelled", "sent"]);
  });

  it("renders valid HTML for every state of the pages", async () => {
    clock = new Date();
    const email = `valid.${Date.now()}@example.com`;
    await subscribe(email);
    const path = await linkMailedTo(email);
    const row = (await subscriber(email))!;
    const unsubscribePath = `/newsletter/unsubscribe/${unsubscribeToken(TEST_FORM_SECRET, row.id)}`;
    const pages = [
      await t.app.inject({ method: "GET", url: path }),
      await t.app.inject({ method: "POST", url: path, headers: own }),
      await t.app.inject({ method: "POST", url: path, headers: own }),
      await t.app.inject({ method: "GET", url: unsubscribePath }),
      await t.app.inject({ method: "POST", url: unsubscribePath }),
      await t.app.inject({ method: "GET", url: "/newsletter/unsubscribe/test" }),
      await t.app.inject({ method: "GET", url: "/newsletter/unsubscribe/forged" }),
    ];
    expect(pages.map((page) => page.statusCode)).toEqual([200, 200, 404, 200, 200, 200, 404]);
    for (const page of pages) {
      const report = await htmlValidator.validateString(page.body, "newsletter page");
      expect(report.results.flatMap((result) => result.messages.map((message) => message.message))).toEqual([]);
    }
  });

  it("keeps the pages out of the sitemap and robots' reach", async () => {
    expect((await t.app.inject({ method: "GET", url: "/robots.txt" })).body).toContain("Disallow: /newsletter/\n");
    expect((await t.app.inject({ method: "GET", url: "/sitemap.xml" })).body).not.toContain("/newsletter");
  });

  it("deletes addresses unconfirmed after 7 days, their mail with them, and asks the old ones once", async () => {
    const start = new Date(Date.UTC(2031, 0, 10, 3));
    clock = start;
    const email = `never.${Date.now()}@example.com`;
    await subscribe(email);
    const kept = await confirmed(`kept.${Date.now()}@example.com`);
    // An address collected before confirmation existed, as migration 0010 left it.
    const legacyEmail = `legacy.${Date.now()}@example.com`;
    const [legacy] = await db()
      .insert(newsletterSubscribers)
      .values({ email: legacyEmail, createdAt: new Date(start.getTime() - 400 * 24 * HOUR), statusChangedAt: start })
      .returning();

    const day = (n: number) => new Date(start.getTime() + n * 24 * HOUR);
    const first = await dailyRetentionPurge(db(), day(1), periods, { siteUrl: SITE });
    // (Addresses the other tests left pending are long past their week by then, and go.)
    expect(first).toMatchObject({ legacySubscribersAsked: 1 });
    expect((await subscriber(email))!.status).toBe("pending");
    const legacyMail = await db().select().from(mailOutbox).where(eq(mailOutbox.subscriberId, legacy!.id));
    expect(legacyMail).toHaveLength(1);
    expect(legacyMail[0]!.payload?.link).toMatch(new RegExp(`^${SITE}/newsletter/confirm/[A-Za-z0-9_-]{43}$`));
    // Another instance the same day, and the next day: not asked again.
    expect(await dailyRetentionPurge(db(), day(1), periods, { siteUrl: SITE })).toBeNull();
    expect(await dailyRetentionPurge(db(), day(2), periods, { siteUrl: SITE })).toMatchObject({
      legacySubscribersAsked: 0,
    });
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.subscriberId, legacy!.id))).toHaveLength(1);

    const later = await dailyRetentionPurge(db(), day(8), periods, { siteUrl: SITE });
    expect(later!.unconfirmedSubscribers).toBeGreaterThanOrEqual(2);
    expect(await subscriber(email)).toBeUndefined();
    expect(await subscriber(legacyEmail)).toBeUndefined();
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.subscriberId, legacy!.id))).toHaveLength(0);
    expect((await subscriber(kept.email))!.status).toBe("confirmed");
  });
});

describe.each(testDrivers)("the newsletter links' per-client limit, on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver, {
      content: false,
      env: { FORM_SECRET: TEST_FORM_SECRET, RATE_LIMIT_PER_MINUTE: "2" },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers 429 with Retry-After once a client has opened too many links in a minute", async () => {
    const url = `/newsletter/confirm/${randomBytes(32).toString("base64url")}`;
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await t.app.inject({ method: "GET", url })).statusCode);
    expect(statuses).toEqual([404, 404, 429]);
    const limited = await t.app.inject({ method: "GET", url });
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/);
    expect(limited.json().message).toMatch(/several newsletter links in the last minute/);
    // Another client is not limited.
    expect((await t.app.inject({ method: "GET", url, remoteAddress: "203.0.113.9" })).statusCode).toBe(404);
  });
});

describe.each(testDrivers)("the newsletter links in the log, on %s", (driver) => {
  let t: TestApp;
  const written: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp(driver, {
      content: false,
      env: { FORM_SECRET: TEST_FORM_SECRET },
      logger: { level: "trace", stream: { write: (line: string) => void written.push(line) } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it("logs a confirmation or unsubscribe link's address without its token", async () => {
    await t.app.inject({ method: "POST", url: "/api/newsletter", payload: { email: "logged@example.com" } });
    await t.app.workAfterAnswer.settled();
    const [queued] = await t.database.db.select().from(mailOutbox);
    const confirm = new URL(queued!.payload!.link!).pathname;
    const unsubscribe = `/newsletter/unsubscribe/${unsubscribeToken(TEST_FORM_SECRET, queued!.subscriberId!)}`;
    const from = written.length;
    for (const url of [confirm, unsubscribe])
      for (const method of ["GET", "POST"] as const) await t.app.inject({ method, url, headers: own });
    const lines = written.slice(from);
    const tokens = [confirm, unsubscribe].map((path) => path.split("/").at(-1)!);
    for (const token of tokens) expect(lines.join("\n")).not.toContain(token);
    const paths = lines
      .filter((line) => line.includes('"msg":"request completed"'))
      .map((line) => (JSON.parse(line) as { path: string }).path);
    expect(paths).toEqual([
      "/newsletter/confirm/[token]",
      "/newsletter/confirm/[token]",
      "/newsletter/unsubscribe/[token]",
      "/newsletter/unsubscribe/[token]",
    ]);
  });
});

describe.each(testDrivers)("the daily limits of confirmation mails, on %s", (driver) => {
  let t: TestApp;
  let peer: SmtpPeer;
  let worker: OutboxWorker;

  beforeAll(async () => {
    peer = await SmtpPeer.start();
    t = await buildTestApp(driver, {
      content: false,
      env: {
        FORM_SECRET: TEST_FORM_SECRET,
        SMTP_URL: peer.url,
        MAIL_FROM: "website@sabarmatigrid.example",
        MAIL_TO: "enquiries@sabarmatigrid.example",
      },
    });
    worker = new OutboxWorker({
      db: t.database.db,
      transport: createSmtpTransport(peer.url),
      from: "website@sabarmatigrid.example",
      to: ["enquiries@sabarmatigrid.example"],
      log: pino({ level: "silent" }),
    });
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
    await peer.stop();
  });

  /** Posts the box from a client and waits for the work after its answer. */
  const subscribe = async (email: string, remoteAddress: string) => {
    const answer = await t.app.inject({
      method: "POST",
      url: "/api/newsletter",
      headers: own,
      payload: { email },
      remoteAddress,
    });
    await t.app.workAfterAnswer.settled();
    return answer;
  };
  /** Sends everything queued; the addresses the SMTP peer received mail for since `from`. */
  async function mailedSince(from: number): Promise<string[]> {
    while ((await worker.sendDueBatch()) > 0);
    return peer.messages.slice(from).flatMap((mail) => mail.to);
  }
  const expectAnsweredAlike = (answers: { statusCode: number; body: string }[]) => {
    for (const answer of answers) {
      expect(answer.statusCode).toBe(201);
      expect(answer.body).toBe(answers[0]!.body);
    }
    expect(JSON.parse(answers[0]!.body)).toEqual({ subscribed: true, confirm: true, message: SUBSCRIPTION_ANSWER });
  };

  it("mails one inbox three times a day, however many +tags it is typed with, and keeps the others off the list", async () => {
    const from = peer.messages.length;
    const answers = [];
    // Each from a client of its own: the mailbox's limit, not the client's, is what holds.
    for (let i = 1; i <= 10; i += 1) answers.push(await subscribe(`victim+${i}@example.com`, `198.51.100.${i}`));
    expectAnsweredAlike(answers);
    expect((await mailedSince(from)).sort()).toEqual([
      "victim+1@example.com",
      "victim+2@example.com",
      "victim+3@example.com",
    ]);
    // The seven not mailed are not kept pending either: the daily purge would ask them as old ones.
    const kept = await t.database.db
      .select({ email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      .where(like(newsletterSubscribers.email, "victim+%"));
    expect(kept.map((row) => row.email).sort()).toEqual([
      "victim+1@example.com",
      "victim+2@example.com",
      "victim+3@example.com",
    ]);
    // Another mailbox of the same domain is its own.
    await subscribe("victim2@example.com", "198.51.100.1");
    expect(await mailedSince(from + 3)).toEqual(["victim2@example.com"]);
  });

  it("takes Gmail's dotted and googlemail.com spellings of one address as one inbox", async () => {
    const from = peer.messages.length;
    const variants = [
      "reader@gmail.com",
      "r.eader@gmail.com",
      "re.ader@gmail.com",
      "R.E.A.D.E.R@gmail.com",
      "rea.der+news@gmail.com",
      "reader@googlemail.com",
      "r.e.ader@googlemail.com",
    ];
    const answers = [];
    for (const [i, email] of variants.entries()) answers.push(await subscribe(email, `203.0.113.${i + 1}`));
    expectAnsweredAlike(answers);
    expect((await mailedSince(from)).sort()).toEqual(["r.eader@gmail.com", "re.ader@gmail.com", "reader@gmail.com"]);
  });

  it("mails twenty inboxes a day asked for by one client, and still the next client's", async () => {
    const from = peer.messages.length;
    const answers = [];
    for (let i = 1; i <= 25; i += 1) answers.push(await subscribe(`list.${i}@example.org`, "192.0.2.77"));
    expectAnsweredAlike(answers);
    expect((await mailedSince(from)).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `list.${i + 1}@example.org`).sort(),
    );
    await subscribe("elsewhere@example.org", "192.0.2.78");
    expect(await mailedSince(from + 20)).toEqual(["elsewhere@example.org"]);
  });
});

describe.each(testDrivers)("the subscription's answer comes before its work, on %s", (driver) => {
  /** The bound of work waiting after answers, small here (the site's is MAX_WORK_AFTER_ANSWER). */
  const WAITING_AT_MOST = 6;
  let t: TestApp;
  let peer: SmtpPeer;
  let worker: OutboxWorker;
  /** The work after each answer, held here until the test lets it run. */
  const held: (() => Promise<void>)[] = [];
  const release = async () => {
    for (const work of held.splice(0)) await work();
  };

  beforeAll(async () => {
    peer = await SmtpPeer.start();
    t = await buildTestApp(driver, {
      content: false,
      afterAnswer: (work) => held.push(work),
      maxWorkAfterAnswer: WAITING_AT_MOST,
      env: {
        FORM_SECRET: TEST_FORM_SECRET,
        SMTP_URL: peer.url,
        MAIL_FROM: "website@sabarmatigrid.example",
        MAIL_TO: "enquiries@sabarmatigrid.example",
      },
    });
    worker = new OutboxWorker({
      db: t.database.db,
      transport: createSmtpTransport(peer.url),
      from: "website@sabarmatigrid.example",
      to: ["enquiries@sabarmatigrid.example"],
      log: pino({ level: "silent" }),
    });
    await t.database.db.insert(newsletterSubscribers).values([
      { email: "known@example.com", status: "confirmed", confirmedAt: new Date() },
      { email: "waiting@example.com", status: "pending", confirmationSentAt: new Date() },
    ]);
  });
  afterEach(async () => {
    await release();
    await t.app.workAfterAnswer.settled();
  });
  afterAll(async () => {
    await worker.stop();
    await t.close();
    await peer.stop();
  });

  /** Everything of an answer but its Date and its request's id (a count of requests). */
  const answerOf = (response: { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer }) => {
    const { date: _date, "x-request-id": _id, ...headers } = response.headers;
    return { status: response.statusCode, headers, body: response.rawPayload.toString("base64") };
  };
  const newsletterAddresses = async () =>
    (await t.database.db.select({ email: newsletterSubscribers.email }).from(newsletterSubscribers))
      .map((row) => row.email)
      .sort();

  it("answers a known and a new address byte for byte alike while their work is held, and mails the new one after", async () => {
    const from = peer.messages.length;
    const json = (email: string) =>
      t.app.inject({ method: "POST", url: "/api/newsletter", headers: own, payload: { email } });
    const form = (email: string) =>
      t.app.inject({
        method: "POST",
        url: "/blog",
        headers: { ...own, ...formHeaders },
        payload: `email=${encodeURIComponent(email)}&page=%2Fblog`,
      });
    const answers = [
      await json("known@example.com"),
      await json("waiting@example.com"),
      await json("new@example.com"),
      await form("Known@Example.com"),
      await form("new.form@example.com"),
    ];
    // Every answer arrived with all the work still held: nothing looked the addresses up yet.
    expect(await newsletterAddresses()).toEqual(["known@example.com", "waiting@example.com"]);
    expect(await t.database.db.$count(mailOutbox)).toBe(0);
    expect(held).toHaveLength(5);
    const [known, waiting, fresh, knownForm, freshForm] = answers.map(answerOf);
    expect(known!.status).toBe(201);
    expect(JSON.parse(Buffer.from(known!.body, "base64").toString())).toEqual({
      subscribed: true,
      confirm: true,
      message: SUBSCRIPTION_ANSWER,
    });
    expect(waiting).toEqual(known);
    expect(fresh).toEqual(known);
    expect(knownForm!.status).toBe(303);
    expect(knownForm!.headers.location).toBe("/blog?subscribed=1#newsletter");
    expect(freshForm).toEqual(knownForm);

    await release();
    await t.app.workAfterAnswer.settled();
    expect(await newsletterAddresses()).toEqual([
      "known@example.com",
      "new.form@example.com",
      "new@example.com",
      "waiting@example.com",
    ]);
    while ((await worker.sendDueBatch()) > 0);
    expect(
      peer.messages
        .slice(from)
        .flatMap((mail) => mail.to)
        .sort(),
    ).toEqual(["new.form@example.com", "new@example.com"]);
  });

  it("answers 503 to every address alike while the most subscriptions' work is waiting, and takes them again once it is done", async () => {
    const post = (email: string) =>
      t.app.inject({ method: "POST", url: "/api/newsletter", headers: own, payload: { email } });
    for (let i = 0; i < WAITING_AT_MOST; i += 1) expect((await post("known@example.com")).statusCode).toBe(201);
    const known = await post("known@example.com");
    const fresh = await post("another.new@example.com");
    expect(known.statusCode).toBe(503);
    expect(known.headers["retry-after"]).toBe("30");
    expect(known.json().message).toBe(
      "We could not save your subscription just now. Please try again in a few minutes.",
    );
    expect(answerOf(fresh)).toEqual(answerOf(known));
    expect(held).toHaveLength(WAITING_AT_MOST);

    await release();
    await t.app.workAfterAnswer.settled();
    expect(await newsletterAddresses()).not.toContain("another.new@example.com");
    expect((await post("another.new@example.com")).statusCode).toBe(201);
    await release();
    await t.app.workAfterAnswer.settled();
    expect(await newsletterAddresses()).toContain("another.new@example.com");
  });
});
