import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { storeEnquiry } from "../db/contact-repository.ts";
import { mailOutbox } from "../db/schema.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { storedSubmission } from "../../../test/enquiry-fixtures.ts";
import { freePort, SmtpPeer } from "../../../test/smtp-peer.ts";
import { OutboxWorker } from "./outbox-worker.ts";
import { createSmtpTransport } from "./smtp-transport.ts";

const silent = pino({ level: "silent" });
const FIRM = ["enquiries@sabarmatigrid.example"];
const FROM = "website@sabarmatigrid.example";

const data = (overrides: Partial<Record<string, string>> = {}) => ({
  firstName: "Asha",
  lastName: "Patel",
  email: "asha.patel@example.com",
  company: "Kutch Solar Park Pvt Ltd",
  service: "renewable-energy" as const,
  message: "Grid connectivity study for a 120 MW solar plant.\nSecond line of details.",
  ...overrides,
});

describe.each(testDrivers)("the mail outbox on %s", (driver) => {
  let database: TestDatabase;
  let peer: SmtpPeer | undefined;
  const workers: OutboxWorker[] = [];

  async function setUp() {
    database = await createTestDatabase(driver, { from: "empty" });
  }
  function worker(smtpUrl: string, options: Partial<ConstructorParameters<typeof OutboxWorker>[0]> = {}) {
    const created = new OutboxWorker({
      db: database.db,
      transport: createSmtpTransport(smtpUrl),
      from: FROM,
      to: FIRM,
      log: silent,
      pollIntervalMs: 50,
      retryBaseMs: 100,
      retryMaxMs: 400,
      ...options,
    });
    workers.push(created);
    return created;
  }
  const queue = (
    overrides: Partial<Record<string, string>> = {},
    acknowledge = false,
    spamReason: string | null = null,
  ) =>
    storeEnquiry(database.db, {
      data: data(overrides),
      idempotencyKey: crypto.randomUUID(),
      spamReason,
      mail: { configured: true, acknowledge },
      acknowledgementKey: acknowledge ? crypto.randomUUID() : undefined,
    });

  afterEach(async () => {
    // stop() is safe to call twice; it also closes each worker's SMTP connections.
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await peer?.stop();
    peer = undefined;
    await database.drop();
  });

  it("emails the firm once per enquiry with the visitor's details, Reply-To and the time in IST", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    const stored = await queue();
    const w = worker(peer.url);
    w.start();
    const [mail] = await peer.waitForMessages(1);
    await w.stop();
    expect(mail!.to).toEqual(FIRM);
    expect(mail!.from).toBe(FROM);
    expect(mail!.headers.get("reply-to")).toEqual(["Asha Patel <asha.patel@example.com>"]);
    expect(mail!.headers.get("subject")?.[0]).toMatch(
      /^New enquiry ENQ-[0-9A-F]{8}: Renewable Energy Solutions from Asha Patel$/,
    );
    expect(mail!.body).toContain("Name:      Asha Patel");
    expect(mail!.body).toContain("Email:     asha.patel@example.com");
    expect(mail!.body).toContain("Company:   Kutch Solar Park Pvt Ltd");
    expect(mail!.body).toContain("Service:   Renewable Energy Solutions");
    expect(mail!.body).toContain("Grid connectivity study for a 120 MW solar plant.\r\nSecond line of details.");
    expect(mail!.body).toMatch(/Received: {2}\d{1,2} \w+ \d{4} at \d{1,2}:\d{2} (am|pm) IST/);
    const [row] = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.submissionId, storedSubmission(stored).id));
    expect(row).toMatchObject({ status: "sent", attempts: 1 });
    expect(peer.messages).toHaveLength(1);
  });

  it("also acknowledges to the visitor with a reference number when asked to", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    const stored = await queue({}, true);
    worker(peer.url).start();
    const mails = await peer.waitForMessages(2);
    const acknowledgement = mails.find((mail) => mail.to.includes("asha.patel@example.com"));
    expect(acknowledgement?.headers.get("subject")?.[0]).toMatch(/^We received your enquiry \(ENQ-[0-9A-F]{8}\)$/);
    expect(acknowledgement?.body).toMatch(/^Hello,\r\n/);
    expect(acknowledgement?.body).toContain(
      `ENQ-${storedSubmission(stored).id.replace(/-/g, "").slice(0, 8).toUpperCase()}`,
    );
    expect(acknowledgement?.body).toContain("an engineer will reply within 24 hours");
  });

  it("puts nothing the visitor wrote but the address into the acknowledgement, so it cannot carry chosen text to a third party", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    const chosen = {
      firstName: "Visit evil.example now",
      lastName: "Win a prize",
      company: "Prize Dept",
      message: "Claim it at evil.example today.",
    };
    await queue({ ...chosen, email: "third.party@example.com" }, true);
    worker(peer.url).start();
    const mails = await peer.waitForMessages(2);
    const acknowledgement = mails.find((mail) => mail.to.includes("third.party@example.com"));
    expect(acknowledgement?.headers.get("to")).toEqual(["third.party@example.com"]);
    for (const text of Object.values(chosen)) expect(acknowledgement?.raw).not.toContain(text);
  });

  it("sends no mail for spam", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    await queue({}, true, "honeypot");
    const w = worker(peer.url);
    expect(await w.sendDueBatch()).toBe(0);
    expect(peer.messages).toHaveLength(0);
  });

  it("keeps mail through an SMTP outage and delivers each message once when the server is back", async () => {
    await setUp();
    const port = await freePort();
    for (let i = 0; i < 3; i += 1) await queue({ firstName: `Visitor${i}` });
    const w = worker(`smtp://127.0.0.1:${port}`);
    w.start();
    // Every message has been tried and failed, and is still waiting.
    await vi.waitFor(
      async () => {
        const waiting = await database.db.select().from(mailOutbox);
        expect(waiting).toHaveLength(3);
        expect(waiting.every((row) => row.status === "pending" && row.attempts >= 1 && row.lastError)).toBe(true);
      },
      { timeout: 10_000, interval: 50 },
    );
    peer = await SmtpPeer.start(port);
    await peer.waitForMessages(3);
    await w.stop();
    expect(peer.messages.map((mail) => mail.headers.get("subject")?.[0]?.replace(/.* from /, "")).sort()).toEqual([
      "Visitor0 Patel",
      "Visitor1 Patel",
      "Visitor2 Patel",
    ]);
    expect((await database.db.select().from(mailOutbox)).every((row) => row.status === "sent")).toBe(true);
  });

  it("sends mail queued before it started (a restart resumes), and takes over mail whose lease ran out", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    await queue({ firstName: "Queued" });
    const abandoned = await queue({ firstName: "Abandoned" });
    // An instance claimed this one and died: its lease has expired.
    await database.db
      .update(mailOutbox)
      .set({ leaseOwner: "dead-instance", leaseUntil: sql`now() - interval '1 second'`, attempts: 1 })
      .where(eq(mailOutbox.submissionId, storedSubmission(abandoned).id));
    const w = worker(peer.url);
    w.start();
    await peer.waitForMessages(2);
    await w.stop();
    expect((await database.db.select().from(mailOutbox)).every((row) => row.status === "sent")).toBe(true);
  });

  it("never lets two workers send the same message", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    for (let i = 0; i < 40; i += 1) await queue({ firstName: `Visitor${i}` });
    const pair = [worker(peer.url, { batchSize: 5 }), worker(peer.url, { batchSize: 5 })];
    pair.forEach((w) => w.start());
    await peer.waitForMessages(40);
    await Promise.all(pair.map((w) => w.stop()));
    expect(peer.messages).toHaveLength(40);
    expect(new Set(peer.messages.map((mail) => mail.headers.get("message-id")?.[0])).size).toBe(40);
  });

  it("never sends a message twice when a slow batch outlasts its lease and another worker takes the rest", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    for (let i = 0; i < 8; i += 1) await queue({ firstName: `Slow${i}` });
    // The SMTP server takes 400 ms a message (well within the lease, even on a busy machine, so the
    // message in hand stays claimed: a 1 s lease once let a loaded run send one twice), so a batch
    // of 8 (3.2 s) claimed under a 2 s lease runs out midway, and the other worker claims the rest
    // while the first goes on.
    const slowTransport = () => {
      const smtp = createSmtpTransport(peer!.url);
      return {
        send: async (mail: Parameters<typeof smtp.send>[0]) => {
          await new Promise((resolve) => setTimeout(resolve, 400));
          await smtp.send(mail);
        },
        close: smtp.close,
      };
    };
    const first = worker(peer.url, { transport: slowTransport(), batchSize: 8, leaseMs: 2000 });
    const second = worker(peer.url, { transport: slowTransport(), batchSize: 8, leaseMs: 2000 });
    first.start();
    // The second starts once the first holds the whole batch.
    await vi.waitFor(
      async () => {
        const rows = await database.db.select().from(mailOutbox);
        expect(rows.filter((row) => row.leaseOwner === first.instanceId)).toHaveLength(8);
      },
      { timeout: 10_000, interval: 20 },
    );
    second.start();
    await vi.waitFor(
      async () =>
        expect((await database.db.select().from(mailOutbox)).every((row) => row.status === "sent")).toBe(true),
      { timeout: 20_000, interval: 50 },
    );
    await Promise.all([first.stop(), second.stop()]);
    expect(peer.messages).toHaveLength(8);
    expect(new Set(peer.messages.map((mail) => mail.headers.get("message-id")?.[0])).size).toBe(8);
    // The case this test is about happened: each worker sent part of the batch (a row keeps the
    // owner that recorded it as sent).
    const owners = new Set((await database.db.select().from(mailOutbox)).map((row) => row.leaseOwner));
    expect(owners).toEqual(new Set([first.instanceId, second.instanceId]));
  });

  it("marks a message the SMTP server rejects for good (5xx) as failed at once, says why without the address, and logs an error", async () => {
    await setUp();
    peer = await SmtpPeer.start(undefined, {
      rejectRecipients: { responseCode: 550, message: "5.1.1 mailbox unavailable" },
    });
    const lines: Record<string, unknown>[] = [];
    const log = pino(
      { level: "info" },
      new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) }),
    );
    const stored = await queue();
    const w = worker(peer.url, { log });
    expect(await w.sendDueBatch()).toBe(1);
    const [row] = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.submissionId, storedSubmission(stored).id));
    expect(row).toMatchObject({ status: "failed", attempts: 1, leaseUntil: null });
    expect(row!.lastError).toMatch(/^rejected by the SMTP server: .*550/);
    expect(row!.lastError).not.toContain("@");
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: "mail rejected by the SMTP server; not retried",
        responseCode: 550,
        attempts: 1,
      }),
    );
    // Never tried again.
    await database.db.update(mailOutbox).set({ nextAttemptAt: sql`now() - interval '1 second'` });
    expect(await w.sendDueBatch()).toBe(0);
    expect(peer.rejected).toEqual(FIRM);
    expect(peer.messages).toHaveLength(0);
  });

  it("keeps retrying a message the server defers (4xx) with backoff, and gives it up after the last attempt", async () => {
    await setUp();
    peer = await SmtpPeer.start(undefined, {
      rejectRecipients: { responseCode: 451, message: "4.7.1 try again later" },
    });
    const stored = await queue();
    worker(peer.url, { maxAttempts: 3, retryBaseMs: 50, retryMaxMs: 50 }).start();
    const row = () =>
      database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.submissionId, storedSubmission(stored).id));
    await vi.waitFor(async () => expect((await row())[0]?.status).toBe("failed"), { timeout: 10_000, interval: 50 });
    expect((await row())[0]).toMatchObject({
      attempts: 3,
      lastError: expect.stringMatching(/^gave up after 3 attempts: .*451/),
    });
    expect(peer.rejected).toHaveLength(3);
  });

  it("keeps every header on its line whatever an enquiry contains", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    // Stored directly, past validation, as if an older row or a bug let it through.
    await storeEnquiry(database.db, {
      data: {
        ...data(),
        firstName: "Asha\r\nBcc: victim@example.com",
        company: "X\nSubject: hi",
        email: "asha.patel@example.com",
      },
      idempotencyKey: crypto.randomUUID(),
      spamReason: null,
      mail: { configured: true, acknowledge: true },
      acknowledgementKey: crypto.randomUUID(),
    });
    worker(peer.url).start();
    const mails = await peer.waitForMessages(2);
    for (const mail of mails) {
      expect(mail.headers.has("bcc")).toBe(false);
      expect(mail.headers.get("subject")).toHaveLength(1);
      expect(mail.to.every((address) => !address.includes("victim"))).toBe(true);
    }
  });
});
