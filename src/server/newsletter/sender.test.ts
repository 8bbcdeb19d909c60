import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { site } from "#shared/site.ts";
import { mailOutbox, newsletters, newsletterSubscribers, staff, type SubscriberStatus } from "../db/schema.ts";
import { createSmtpTransport } from "../mail/smtp-transport.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { addLibraryPicture } from "../../../test/responsive-fixtures.ts";
import { type ReceivedMail, SmtpPeer } from "../../../test/smtp-peer.ts";
import { NEWSLETTER_HTML_LIMIT_BYTES } from "./newsletter-email.ts";
import { newsletterProgress, queueTestSend, sendNewsletter } from "./queue.ts";
import { NewsletterSender, type NewsletterSenderOptions } from "./sender.ts";
import { subscriberOfUnsubscribeToken } from "./tokens.ts";

const silent = pino({ level: "silent" });
const SITE = "https://sabarmatigrid.example";
const SECRET = "a-test-secret-of-enough-length";
const FROM = "newsletter@sabarmatigrid.example";
const actor = { id: "00000000-0000-4000-8000-000000000001", label: "Test Admin" };

/** The parts of a multipart message, by content type, decoded. */
function partsOf(mail: ReceivedMail): Map<string, string> {
  const boundary = /boundary="?([^";]+)"?/.exec(mail.headers.get("content-type")?.[0] ?? "")?.[1];
  const parts = new Map<string, string>();
  if (!boundary) return parts;
  for (const chunk of mail.body.split(`--${boundary}`).slice(1, -1)) {
    const split = chunk.indexOf("\r\n\r\n");
    const head = chunk.slice(0, split).replace(/\r\n[ \t]+/g, " ");
    let body = chunk.slice(split + 4).replace(/\r\n$/, "");
    const type = /content-type:\s*([^;\r\n]+)/i.exec(head)?.[1]?.trim().toLowerCase() ?? "";
    const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase();
    if (encoding === "quoted-printable")
      body = Buffer.from(
        body
          .replace(/=\r\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        "latin1",
      ).toString("utf8");
    else if (encoding === "base64") body = Buffer.from(body, "base64").toString("utf8");
    parts.set(type, body);
  }
  return parts;
}

/** The two addresses of List-Unsubscribe: `<https://…>, <mailto:…>`. */
function unsubscribeAddresses(mail: ReceivedMail): { https: string; mailto: string } {
  const header = mail.headers.get("list-unsubscribe")?.[0] ?? "";
  const [https = "", mailto = ""] = [...header.matchAll(/<([^>]+)>/g)].map((m) => m[1]!);
  return { https, mailto };
}

describe.each(testDrivers)("the newsletter's sending on %s", (driver) => {
  let database: TestDatabase;
  let peer: SmtpPeer | undefined;
  const senders: NewsletterSender[] = [];
  let made = 0;

  async function setUp() {
    database = await createTestDatabase(driver, { from: "empty" });
    await database.db.insert(staff).values({
      id: actor.id,
      email: "admin@sabarmatigrid.example",
      name: actor.label,
      role: "admin",
      webauthnUserId: "test-admin",
    });
  }
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.stop()));
    await peer?.stop();
    peer = undefined;
    await database.drop();
  });

  function sender(smtpUrl: string, options: Partial<NewsletterSenderOptions> = {}) {
    const created = new NewsletterSender({
      db: database.db,
      transport: createSmtpTransport(smtpUrl),
      from: FROM,
      siteUrl: SITE,
      secret: SECRET,
      log: silent,
      perMinute: 10_000,
      pollIntervalMs: 50,
      retryBaseMs: 100,
      retryMaxMs: 400,
      ...options,
    });
    senders.push(created);
    return created;
  }

  async function subscriber(email: string, status: SubscriberStatus = "confirmed"): Promise<string> {
    const [row] = await database.db
      .insert(newsletterSubscribers)
      .values({ email, status })
      .returning({ id: newsletterSubscribers.id });
    return row!.id;
  }

  async function draft(
    articleIds: string[] = [],
    subject = "November insights",
  ): Promise<{ id: string; version: number }> {
    made += 1;
    const [row] = await database.db
      .insert(newsletters)
      .values({ subject, introduction: "Our **news** this month.", articleIds, campaign: `test-${made}` })
      .returning({ id: newsletters.id, version: newsletters.version });
    return row!;
  }

  const send = (newsletter: { id: string; version: number }) =>
    sendNewsletter(database.db, {
      newsletterId: newsletter.id,
      expectedVersion: newsletter.version,
      actor,
      now: new Date(),
    });

  const rowsOf = (newsletterId: string) =>
    database.db.select().from(mailOutbox).where(eq(mailOutbox.newsletterId, newsletterId));

  const statusOf = async (id: string) =>
    (await database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)))[0]!;

  const recipientsOf = (messages: ReceivedMail[]) => messages.flatMap((m) => m.to).sort();

  it("mails exactly the confirmed subscribers, once each, with both unsubscribe headers, HTML and text, utm links and pictures on SITE_URL", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    const picture = await addLibraryPicture(database.db, { width: 1600, height: 900, alt: "A substation" });
    const past = new Date(Date.now() - 86_400_000);
    const first = await addArticle(
      database.db,
      articleDocument({
        slug: "reactive-power",
        title: "Reactive power at the edge",
        excerpt: "Why it matters.",
        imageUrl: picture.reference,
      }),
      { state: "published", at: past },
    );
    const hidden = await addArticle(
      database.db,
      articleDocument({ slug: "withdrawn-study", title: "A withdrawn study", excerpt: "Never in a mail." }),
      { state: "unpublished", at: past },
    );
    const second = await addArticle(
      database.db,
      articleDocument({ slug: "harmonics", title: "Harmonics in solar parks", excerpt: "Filters and limits." }),
      { state: "published", at: past },
    );
    const confirmed = {
      "a@example.com": await subscriber("a@example.com"),
      "b@example.com": await subscriber("b@example.com"),
      "c@example.com": await subscriber("c@example.com"),
    };
    await subscriber("pending@example.com", "pending");
    await subscriber("gone@example.com", "unsubscribed");
    await subscriber("bouncing@example.com", "bouncing");

    const newsletter = await draft([first.id, hidden.id, second.id]);
    expect(await send(newsletter)).toEqual({ ok: true, queued: 3 });
    const [stored] = await database.db.select().from(newsletters).where(eq(newsletters.id, newsletter.id));
    expect(stored).toMatchObject({ status: "sending", recipients: 3, sentBy: actor.id, sentByLabel: actor.label });
    expect(stored!.snapshot!.articles.map((a) => a.slug)).toEqual(["reactive-power", "harmonics"]);
    expect(stored!.snapshot!.articles[0]!.image).toBe(`/media/${picture.key}/640.jpg`);

    const s = sender(peer.url);
    await s.sendDueBatch();
    expect(recipientsOf(peer.messages)).toEqual(Object.keys(confirmed).sort());
    for (const mail of peer.messages) {
      const subscriberId = confirmed[mail.to[0] as keyof typeof confirmed];
      expect(mail.headers.get("subject")).toEqual(["November insights"]);
      expect(mail.headers.get("list-unsubscribe-post")).toEqual(["List-Unsubscribe=One-Click"]);
      const { https, mailto } = unsubscribeAddresses(mail);
      const token = https.slice(`${SITE}/newsletter/unsubscribe/`.length);
      expect(https.startsWith(`${SITE}/newsletter/unsubscribe/`)).toBe(true);
      expect(subscriberOfUnsubscribeToken(SECRET, token)).toBe(subscriberId);
      expect(mailto.startsWith(`mailto:${site.email}?subject=`)).toBe(true);
      const mailtoToken = decodeURIComponent(new URL(mailto).searchParams.get("subject")!).replace(/^unsubscribe /, "");
      expect(subscriberOfUnsubscribeToken(SECRET, mailtoToken)).toBe(subscriberId);

      const parts = partsOf(mail);
      const html = parts.get("text/html")!;
      const text = parts.get("text/plain")!;
      expect(Buffer.byteLength(html)).toBeLessThan(NEWSLETTER_HTML_LIMIT_BYTES);
      expect(html).toContain("Reactive power at the edge");
      expect(text).toContain("Harmonics in solar parks");
      for (const part of [html, text]) expect(part).not.toContain("withdrawn");
      const images = [...html.matchAll(/<img[^>]*\ssrc="([^"]*)"/g)].map((m) => m[1]!);
      expect(images).toEqual([`${SITE}/media/${picture.key}/640.jpg`]);
      const links = [...html.matchAll(/href="([^"]*)"/g)].map((m) => new URL(m[1]!.replaceAll("&amp;", "&")));
      for (const link of links.filter((url) => url.origin === SITE))
        expect(link.search).toContain(`utm_source=newsletter&utm_medium=email&utm_campaign=${stored!.campaign}`);
      expect(text).toContain(
        `${SITE}/blog/harmonics?utm_source=newsletter&utm_medium=email&utm_campaign=${stored!.campaign}`,
      );
      expect(html).toContain(`/newsletter/unsubscribe/${token}?`);
    }
    expect(new Set(peer.messages.map((m) => m.headers.get("message-id")![0])).size).toBe(3);
    // Nothing more to send, and the newsletter is finished.
    expect(await s.sendDueBatch()).toBe(0);
    expect(peer.messages).toHaveLength(3);
    const progress = (await newsletterProgress(database.db, [newsletter.id])).get(newsletter.id);
    expect(progress).toEqual({ status: "sent", recipients: 3, queued: 0, sent: 3, failed: 0 });
    const [finished] = await database.db.select().from(newsletters).where(eq(newsletters.id, newsletter.id));
    expect(finished!.finishedAt).not.toBeNull();
  });

  it("refuses a second send, a stale version and an unknown newsletter, queueing nothing more", async () => {
    await setUp();
    await subscriber("a@example.com");
    const newsletter = await draft();
    expect(await send({ id: newsletter.id, version: newsletter.version + 1 })).toEqual({ ok: false, reason: "stale" });
    expect(await rowsOf(newsletter.id)).toHaveLength(0);
    expect(await send(newsletter)).toEqual({ ok: true, queued: 1 });
    await subscriber("late@example.com");
    expect(await send(newsletter)).toEqual({ ok: false, reason: "already-sent" });
    expect(await send({ id: newsletter.id, version: newsletter.version + 1 })).toEqual({
      ok: false,
      reason: "already-sent",
    });
    expect(await rowsOf(newsletter.id)).toHaveLength(1);
    expect(await send({ id: crypto.randomUUID(), version: 1 })).toEqual({ ok: false, reason: "not-found" });
    expect(await send({ id: "not-a-uuid'; drop table newsletters; --", version: 1 })).toEqual({
      ok: false,
      reason: "not-found",
    });
    // Two sends at once: one wins, the other finds it sent.
    const other = await draft();
    const results = await Promise.all([send(other), send(other)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "already-sent" }]);
    expect(await rowsOf(other.id)).toHaveLength(2);
  });

  it("finishes a newsletter with no confirmed subscriber at once, and refuses one with nothing to say", async () => {
    await setUp();
    await subscriber("pending@example.com", "pending");
    const newsletter = await draft();
    expect(await send(newsletter)).toEqual({ ok: true, queued: 0 });
    const [row] = await database.db.select().from(newsletters).where(eq(newsletters.id, newsletter.id));
    expect(row).toMatchObject({ status: "sent", recipients: 0 });
    expect(row!.finishedAt).not.toBeNull();
    const empty = await draft([], "  ");
    expect(await send(empty)).toEqual({ ok: false, reason: "nothing-to-send" });
  });

  it("two senders at once over one database send one copy each", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    const emails = Array.from({ length: 20 }, (_, n) => `reader${n}@example.com`);
    for (const email of emails) await subscriber(email);
    const newsletter = await draft();
    expect(await send(newsletter)).toEqual({ ok: true, queued: 20 });
    const a = sender(peer.url, { batchSize: 3 });
    const b = sender(peer.url, { batchSize: 3 });
    a.start();
    b.start();
    await peer.waitForMessages(20);
    await Promise.all([a.stop(), b.stop()]);
    expect(recipientsOf(peer.messages)).toEqual([...emails].sort());
    const rows = await rowsOf(newsletter.id);
    expect(rows.every((row) => row.status === "sent")).toBe(true);
  });

  it("a restart mid-send, and a sender that died holding its claims, still send one copy each, the repeat with the same Message-ID", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    const emails = Array.from({ length: 12 }, (_, n) => `reader${n}@example.com`);
    for (const email of emails) await subscriber(email);
    const newsletter = await draft();
    await send(newsletter);

    // Stopped after a few: the message in hand is finished, the rest of its batch let go.
    const first = sender(peer.url, { batchSize: 2 });
    first.start();
    await peer.waitForMessages(4);
    await first.stop();
    const sentBefore = peer.messages.length;
    expect(sentBefore).toBeLessThan(12);

    // A sender that claims and dies: its rows wait for the lease to pass, then go to another.
    const dead = sender(peer.url, { batchSize: 3, leaseMs: 1000 });
    const held = await dead.claimDue();
    expect(held).toHaveLength(3);
    const next = sender(peer.url, { batchSize: 4 });
    next.start();
    await peer.waitForMessages(12);
    await next.stop();
    expect(recipientsOf(peer.messages)).toEqual([...emails].sort());
    const rows = await rowsOf(newsletter.id);
    expect(rows.every((row) => row.status === "sent")).toBe(true);
    for (const row of rows.filter((r) => held.some((h) => h.id === r.id))) {
      expect(row.attempts).toBe(2);
      const mail = peer.messages.find((m) => m.to[0] === row.recipient)!;
      expect(mail.headers.get("message-id")).toEqual([`<${row.id}@sabarmatigrid.example>`]);
    }
    const [finished] = await database.db.select().from(newsletters).where(eq(newsletters.id, newsletter.id));
    expect(finished!.status).toBe("sent");
  });

  it("claims no more than NEWSLETTER_PER_MINUTE newsletter mails within the window, nor a sixtieth of it a second, across senders; tests are not paced", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    for (let n = 0; n < 12; n++) await subscriber(`reader${n}@example.com`);
    const newsletter = await draft();
    await send(newsletter);
    // An hour-long window (so its sixtieth is a minute): nothing leaves either during the test
    // unless the test moves the claims back in time.
    const paced = { perMinute: 6, windowMs: 3_600_000, batchSize: 4 };
    const a = sender(peer.url, paced);
    const b = sender(peer.url, paced);
    const both = async () => (await Promise.all([a.sendDueBatch(), b.sendDueBatch()])).reduce((x, y) => x + y);
    const moveClaimsBack = (seconds: number) =>
      database.db.execute(
        sql`update mail_outbox set claimed_at = claimed_at - make_interval(secs => ${seconds}) where claimed_at is not null`,
      );
    expect(await both()).toBe(1);
    expect(await both()).toBe(0);
    for (let round = 0; round < 5; round++) {
      await moveClaimsBack(61);
      expect(await both()).toBe(1);
    }
    expect(peer.messages).toHaveLength(6);
    // Six within the window: none more until the oldest leaves it.
    await moveClaimsBack(61);
    expect(await both()).toBe(0);

    // A test to staff goes out at once.
    expect(
      await queueTestSend(database.db, { newsletterId: newsletter.id, recipient: "staff@sabarmatigrid.example" }),
    ).toEqual({ ok: true });
    expect(await a.sendDueBatch()).toBe(1);
    expect(peer.messages.at(-1)!.to).toEqual(["staff@sabarmatigrid.example"]);

    await moveClaimsBack(7200);
    expect(await both()).toBe(1);
    expect((await newsletterProgress(database.db, [newsletter.id])).get(newsletter.id)).toMatchObject({
      status: "sending",
      queued: 5,
      sent: 7,
      failed: 0,
    });
  });

  it("a 5xx marks the address bouncing and the mail failed; later newsletters skip it until it is lifted", async () => {
    await setUp();
    peer = await SmtpPeer.start(undefined, { rejectRecipients: { responseCode: 550, message: "mailbox unavailable" } });
    const bouncer = await subscriber("bouncer@example.com");
    const first = await draft();
    await send(first);
    const refused = sender(peer.url);
    await refused.sendDueBatch();
    // Its kept-open SMTP connection closed, so that the peer can stop.
    await refused.stop();
    expect(peer.rejected).toEqual(["bouncer@example.com"]);
    const bounced = await statusOf(bouncer);
    expect(bounced.status).toBe("bouncing");
    expect(bounced.bounceReason).toMatch(/^rejected by the SMTP server: .*mailbox unavailable/);
    expect(bounced.bounceReason).not.toContain("bouncer@example.com");
    expect((await newsletterProgress(database.db, [first.id])).get(first.id)).toEqual({
      status: "sent",
      recipients: 1,
      queued: 0,
      sent: 0,
      failed: 1,
    });
    await peer.stop();

    peer = await SmtpPeer.start();
    const reader = await subscriber("reader@example.com");
    const second = await draft();
    expect(await send(second)).toEqual({ ok: true, queued: 1 });
    await sender(peer.url).sendDueBatch();
    expect(recipientsOf(peer.messages)).toEqual(["reader@example.com"]);

    // An admin lifts it (helper C's button): mailed again from the next newsletter.
    await database.db
      .update(newsletterSubscribers)
      .set({ status: "confirmed", bounceReason: null })
      .where(eq(newsletterSubscribers.id, bouncer));
    const third = await draft();
    expect(await send(third)).toEqual({ ok: true, queued: 2 });
    await sender(peer.url).sendDueBatch();
    expect(recipientsOf(peer.messages)).toEqual(["bouncer@example.com", "reader@example.com", "reader@example.com"]);
    expect((await statusOf(reader)).status).toBe("confirmed");
  });

  it("a 4xx is retried later and does not mark the address bouncing", async () => {
    await setUp();
    peer = await SmtpPeer.start(undefined, { rejectRecipients: { responseCode: 450, message: "try again later" } });
    const reader = await subscriber("reader@example.com");
    const newsletter = await draft();
    await send(newsletter);
    await sender(peer.url, { retryBaseMs: 60_000, retryMaxMs: 120_000 }).sendDueBatch();
    const [row] = await rowsOf(newsletter.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, leaseUntil: null });
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect((await statusOf(reader)).status).toBe("confirmed");
  });

  it("does not mail an address unsubscribed or erased after the send was queued", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    const leaver = await subscriber("leaver@example.com");
    const erased = await subscriber("erased@example.com");
    await subscriber("stays@example.com");
    const newsletter = await draft();
    expect(await send(newsletter)).toEqual({ ok: true, queued: 3 });
    await database.db
      .update(newsletterSubscribers)
      .set({ status: "unsubscribed" })
      .where(eq(newsletterSubscribers.id, leaver));
    await database.db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.id, erased));
    await sender(peer.url).sendDueBatch();
    expect(recipientsOf(peer.messages)).toEqual(["stays@example.com"]);
    const rows = await rowsOf(newsletter.id);
    expect(rows.map((row) => row.status).sort()).toEqual(["cancelled", "sent"]);
    expect((await newsletterProgress(database.db, [newsletter.id])).get(newsletter.id)).toMatchObject({
      status: "sent",
      sent: 1,
      failed: 0,
      queued: 0,
    });
  });

  it("sends a test as the newsletter is now, marked [Test], with the test unsubscribe token, not counted", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    const newsletter = await draft();
    expect(
      await queueTestSend(database.db, { newsletterId: newsletter.id, recipient: "staff@sabarmatigrid.example" }),
    ).toEqual({ ok: true });
    await database.db
      .update(newsletters)
      .set({ subject: "Edited after the test was asked" })
      .where(eq(newsletters.id, newsletter.id));
    expect(await queueTestSend(database.db, { newsletterId: crypto.randomUUID(), recipient: "x@example.com" })).toEqual(
      {
        ok: false,
        reason: "not-found",
      },
    );
    await sender(peer.url).sendDueBatch();
    const [mail] = peer.messages;
    expect(mail!.to).toEqual(["staff@sabarmatigrid.example"]);
    expect(mail!.headers.get("subject")).toEqual(["[Test] Edited after the test was asked"]);
    expect(unsubscribeAddresses(mail!).https).toBe(`${SITE}/newsletter/unsubscribe/test`);
    expect(partsOf(mail!).get("text/plain")).toContain("Our news this month.");
    expect((await newsletterProgress(database.db, [newsletter.id])).get(newsletter.id)).toEqual({
      status: "draft",
      recipients: 0,
      queued: 0,
      sent: 0,
      failed: 0,
    });
  });
});
