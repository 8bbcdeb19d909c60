import { and, eq } from "drizzle-orm";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { storeEnquiry } from "../db/contact-repository.ts";
import { appSettings, contactSubmissions, enquiryNotes, mailOutbox } from "../db/schema.ts";
import { inviteStaff, setStaffDisabled } from "../admin/staff/staff-repository.ts";
import { OutboxWorker } from "../mail/outbox-worker.ts";
import { createSmtpTransport } from "../mail/smtp-transport.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { storedSubmission } from "../../../test/enquiry-fixtures.ts";
import { SmtpPeer } from "../../../test/smtp-peer.ts";
import { queueReplyReminders, REMINDER_KIND } from "./reply-reminders.ts";
import { claimDailyRun, dailyRetentionPurge } from "./retention.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MINUTE = 60_000;
const SITE = "https://www.example.test";
const FIRM = ["enquiries@sabarmatigrid.example"];
const silent = pino({ level: "silent" });

describe.each(testDrivers)("reply reminders and retention on %s", (driver) => {
  let database: TestDatabase;
  let second: DatabaseHandle | undefined;
  let peer: SmtpPeer | undefined;
  const workers: OutboxWorker[] = [];

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await peer?.stop();
    peer = undefined;
    await second?.close();
    second = undefined;
    await database.drop();
  });

  async function setUp() {
    database = await createTestDatabase(driver, { from: "empty" });
  }

  /** A second instance's connection to the same database (PostgreSQL), or the same one (PGlite, one process). */
  async function otherInstance(): Promise<DatabaseHandle["db"]> {
    if (!database.url) return database.db;
    second = await openDatabase({ databaseUrl: database.url, dataDir: "unused" });
    return second.db;
  }

  async function enquiry(receivedAt: Date, overrides: { firstName?: string; spamReason?: string } = {}) {
    const stored = storedSubmission(
      await storeEnquiry(database.db, {
        data: {
          firstName: overrides.firstName ?? "Asha",
          lastName: "Patel",
          email: "asha@example.com",
          company: null,
          service: "grid-integration",
          message: "A study, please.",
        } as never,
        idempotencyKey: crypto.randomUUID(),
        spamReason: overrides.spamReason ?? null,
        // No notification goes out in these tests: only reminders.
        mail: { configured: false, acknowledge: false },
      }),
    );
    await database.db
      .update(contactSubmissions)
      .set({ createdAt: receivedAt })
      .where(eq(contactSubmissions.id, stored.id));
    return stored.id;
  }
  const reminders = () => database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, REMINDER_KIND));
  const worker = (db: DatabaseHandle["db"], smtpUrl: string) => {
    const created = new OutboxWorker({
      db,
      transport: createSmtpTransport(smtpUrl),
      from: "website@sabarmatigrid.example",
      to: FIRM,
      log: silent,
      pollIntervalMs: 50,
    });
    workers.push(created);
    return created;
  };

  it("queues one reminder 4 hours before the due time, to the owner or else to nobody in particular (MAIL_TO)", async () => {
    await setUp();
    const received = new Date("2026-11-23T06:00:00Z");
    const { member } = await inviteStaff(
      database.db,
      { email: "ravi@sabarmatigrid.example", name: "Ravi", role: "staff" },
      received,
    );
    const owned = await enquiry(received);
    const unowned = await enquiry(received);
    await database.db.update(contactSubmissions).set({ ownerId: member.id }).where(eq(contactSubmissions.id, owned));

    expect(
      await queueReplyReminders(database.db, { now: new Date(received.getTime() + 20 * HOUR - 1), siteUrl: SITE }),
    ).toBe(0);
    expect(
      await queueReplyReminders(database.db, { now: new Date(received.getTime() + 20 * HOUR), siteUrl: SITE }),
    ).toBe(2);
    expect(
      await queueReplyReminders(database.db, { now: new Date(received.getTime() + 21 * HOUR), siteUrl: SITE }),
    ).toBe(0);
    const rows = await reminders();
    expect(rows.find((row) => row.submissionId === owned)).toMatchObject({
      recipient: "ravi@sabarmatigrid.example",
      status: "pending",
      payload: { link: `${SITE}/admin/enquiries/${owned}` },
    });
    expect(rows.find((row) => row.submissionId === unowned)).toMatchObject({ recipient: null, status: "pending" });
  });

  it("queues none for a replied, closed or spam enquiry, one already past due, or one whose owner is disabled (MAIL_TO instead)", async () => {
    await setUp();
    const received = new Date("2026-11-23T06:00:00Z");
    const at21 = new Date(received.getTime() + 21 * HOUR);
    const replied = await enquiry(received);
    await database.db
      .update(contactSubmissions)
      .set({ firstReplyAt: new Date(received.getTime() + HOUR) })
      .where(eq(contactSubmissions.id, replied));
    const won = await enquiry(received);
    await database.db
      .update(contactSubmissions)
      .set({ status: "won", closedAt: received })
      .where(eq(contactSubmissions.id, won));
    await enquiry(received, { spamReason: "honeypot" });
    await enquiry(new Date(at21.getTime() - 24 * HOUR)); // due exactly now: too late for a reminder
    const { member } = await inviteStaff(
      database.db,
      { email: "gone@sabarmatigrid.example", name: "Gone", role: "staff" },
      received,
    );
    const ownedByGone = await enquiry(received);
    await database.db
      .update(contactSubmissions)
      .set({ ownerId: member.id })
      .where(eq(contactSubmissions.id, ownedByGone));
    await setStaffDisabled(database.db, member.id, true, received);

    expect(await queueReplyReminders(database.db, { now: at21, siteUrl: SITE })).toBe(1);
    expect((await reminders()).map((row) => [row.submissionId, row.recipient])).toEqual([[ownedByGone, null]]);
  });

  it("two instances looking at once queue each reminder once", async () => {
    await setUp();
    const received = new Date("2026-11-23T06:00:00Z");
    for (let i = 0; i < 20; i += 1) await enquiry(new Date(received.getTime() + i * MINUTE));
    const other = await otherInstance();
    const now = new Date(received.getTime() + 21 * HOUR);
    const counts = await Promise.all([
      queueReplyReminders(database.db, { now, siteUrl: SITE }),
      queueReplyReminders(other, { now, siteUrl: SITE }),
      queueReplyReminders(database.db, { now, siteUrl: SITE }),
      queueReplyReminders(other, { now, siteUrl: SITE }),
    ]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(20);
    expect(await reminders()).toHaveLength(20);
  });

  it("mails the reminder through SMTP once, with two workers, and not once the enquiry is replied", async () => {
    await setUp();
    peer = await SmtpPeer.start();
    const received = new Date(Date.now() - 21 * HOUR);
    const { member } = await inviteStaff(
      database.db,
      { email: "ravi@sabarmatigrid.example", name: "Ravi", role: "staff" },
      received,
    );
    const answered = await enquiry(received, { firstName: "Answered" });
    const waiting = await enquiry(received, { firstName: "Waiting" });
    await database.db.update(contactSubmissions).set({ ownerId: member.id }).where(eq(contactSubmissions.id, waiting));
    await enquiry(received, { firstName: "Unowned" });
    expect(await queueReplyReminders(database.db, { now: new Date(), siteUrl: SITE })).toBe(3);
    // Replied after the reminder was queued, before it went out.
    await database.db
      .update(contactSubmissions)
      .set({ firstReplyAt: new Date() })
      .where(eq(contactSubmissions.id, answered));

    const other = await otherInstance();
    worker(database.db, peer.url).start();
    worker(other, peer.url).start();
    const mails = await peer.waitForMessages(2);
    // Wait until nothing is pending any more, then look: nothing more came.
    for (let i = 0; i < 400 && (await reminders()).some((row) => row.status === "pending"); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(peer.messages).toHaveLength(2);
    const toOwner = mails.find((mail) => mail.to.includes("ravi@sabarmatigrid.example"));
    expect(toOwner?.headers.get("subject")?.[0]).toMatch(
      /^Reply due in 4 hours: enquiry ENQ-[0-9A-F]{8} from Waiting Patel$/,
    );
    expect(toOwner?.body).toContain(`${SITE}/admin/enquiries/${waiting}`);
    expect(mails.find((mail) => mail.to.includes(FIRM[0]!))?.headers.get("subject")?.[0]).toContain("Unowned Patel");
    expect(mails.some((mail) => mail.raw.includes("Answered"))).toBe(false);
    const cancelled = await database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.submissionId, answered), eq(mailOutbox.kind, REMINDER_KIND)));
    expect(cancelled[0]).toMatchObject({ status: "cancelled" });
  });

  it("the daily purge runs once a day on one instance, deleting spam after SPAM_RETENTION_DAYS and closed enquiries ENQUIRY_RETENTION_DAYS after closing", async () => {
    await setUp();
    const now = new Date("2026-11-23T06:00:00Z");
    const oldSpam = await enquiry(new Date(now.getTime() - 10 * DAY - MINUTE), { spamReason: "honeypot" });
    const newSpam = await enquiry(new Date(now.getTime() - 10 * DAY + MINUTE), { spamReason: "too-fast" });
    const closedLongAgo = await enquiry(new Date(now.getTime() - 400 * DAY));
    const closedRecently = await enquiry(new Date(now.getTime() - 400 * DAY));
    const openOld = await enquiry(new Date(now.getTime() - 400 * DAY));
    await database.db
      .update(contactSubmissions)
      .set({ status: "lost", closedAt: new Date(now.getTime() - 100 * DAY - MINUTE) })
      .where(eq(contactSubmissions.id, closedLongAgo));
    await database.db
      .update(contactSubmissions)
      .set({ status: "won", closedAt: new Date(now.getTime() - 100 * DAY + MINUTE) })
      .where(eq(contactSubmissions.id, closedRecently));
    await database.db
      .insert(enquiryNotes)
      .values({ submissionId: closedLongAgo, authorLabel: "Ravi", body: "Lost to a cheaper bid." });

    const periods = { spamDays: 10, closedEnquiryDays: 100 };
    const other = await otherInstance();
    const results = await Promise.all([
      dailyRetentionPurge(database.db, now, periods),
      dailyRetentionPurge(other, now, periods),
    ]);
    expect(results.filter((result) => result !== null)).toEqual([
      {
        enquiries: 1,
        spam: 1,
        articlesPurged: 0,
        autosavesThinned: 0,
        unconfirmedSubscribers: 0,
        legacySubscribersAsked: 0,
      },
    ]);
    const left = (await database.db.select({ id: contactSubmissions.id }).from(contactSubmissions))
      .map((row) => row.id)
      .sort();
    expect(left).toEqual([newSpam, closedRecently, openOld].sort());
    expect(left).not.toContain(oldSpam);
    expect(await database.db.select().from(enquiryNotes)).toHaveLength(0);
    // Later the same day: nothing runs. The next day: it runs again.
    expect(await dailyRetentionPurge(database.db, new Date(now.getTime() + 17 * HOUR), periods)).toBeNull();
    expect(
      await dailyRetentionPurge(other, new Date(now.getTime() + DAY), { spamDays: 10, closedEnquiryDays: 98 }),
    ).toEqual({
      enquiries: 1,
      spam: 1,
      articlesPurged: 0,
      autosavesThinned: 0,
      unconfirmedSubscribers: 0,
      legacySubscribersAsked: 0,
    });
  });

  it("claims a day for exactly one of many callers", async () => {
    await setUp();
    const other = await otherInstance();
    const day = new Date("2026-11-23T10:00:00Z");
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) => claimDailyRun(i % 2 ? other : database.db, "test-job", day)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimDailyRun(database.db, "test-job", new Date("2026-11-23T23:59:59Z"))).toBe(false);
    expect(await claimDailyRun(database.db, "test-job", new Date("2026-11-24T00:00:00Z"))).toBe(true);
    expect(await database.db.select().from(appSettings).where(eq(appSettings.key, "daily:test-job"))).toEqual([
      { key: "daily:test-job", value: "2026-11-24" },
    ]);
  });
});
