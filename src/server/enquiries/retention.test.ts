import { asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config.ts";
import { recordAudit } from "../admin/audit/audit.ts";
import { enquiryReference, storeEnquiry } from "../db/contact-repository.ts";
import { auditEvents, contactSubmissions, mailOutbox } from "../db/schema.ts";
import { type Site, startSite } from "../site.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { storedSubmission } from "../../../test/enquiry-fixtures.ts";
import { deleteExpiredEnquiries } from "./retention.ts";

const now = new Date("2026-11-22T12:00:00Z");
const day = 86_400_000;

/** Stores an enquiry (with its queued mail) as if it had been sent at `createdAt`. */
async function enquiryAt(database: TestDatabase, firstName: string, createdAt: Date, spamReason: string | null = null) {
  const stored = await storeEnquiry(database.db, {
    data: {
      firstName,
      lastName: "Patel",
      email: "asha@example.com",
      company: null,
      service: "grid-integration",
      message: "Study, please.",
    },
    idempotencyKey: crypto.randomUUID(),
    spamReason,
    mail: { configured: true, acknowledge: false },
  });
  const { id } = storedSubmission(stored);
  await database.db.update(contactSubmissions).set({ createdAt }).where(eq(contactSubmissions.id, id));
  return { id, firstName };
}

describe.each(testDrivers)("the retention rule on %s", (driver) => {
  let database: TestDatabase | undefined;
  let site: Site | undefined;
  afterEach(async () => {
    await site?.close();
    await database?.drop();
    site = database = undefined;
  });

  it("deletes enquiries older than 24 months and spam older than 30 days, with their mail, and nothing else", async () => {
    database = await createTestDatabase(driver, { from: "empty" });
    await enquiryAt(database, "Expired", new Date("2024-11-22T11:59:59Z"));
    await enquiryAt(database, "Kept", new Date("2024-11-22T12:00:01Z"));
    await enquiryAt(database, "Recent", new Date(now.getTime() - day));
    await enquiryAt(database, "OldSpam", new Date(now.getTime() - 30 * day - 1000), "honeypot");
    await enquiryAt(database, "NewSpam", new Date(now.getTime() - 29 * day), "too-fast");

    expect(await deleteExpiredEnquiries(database.db, now)).toEqual({ enquiries: 1, spam: 1 });
    const left = await database.db
      .select({ firstName: contactSubmissions.firstName })
      .from(contactSubmissions)
      .orderBy(asc(contactSubmissions.createdAt));
    expect(left.map((row) => row.firstName)).toEqual(["Kept", "NewSpam", "Recent"]);
    // Spam queues no mail; the three genuine enquiries did, and the expired one's went with it.
    expect(await database.db.select().from(mailOutbox)).toHaveLength(2);
    // Running it again, as every instance does, deletes nothing more.
    expect(await deleteExpiredEnquiries(database.db, now)).toEqual({ enquiries: 0, spam: 0 });
  });

  // Audit events about an enquiry outlive it (24 months): written before 2026-11-25 their label
  // named the visitor, which the purge must not leave behind for an erasure that can no longer
  // find the enquiry.
  it("blanks the audit labels of the enquiries it deletes, and only theirs", async () => {
    database = await createTestDatabase(driver, { from: "empty" });
    const expired = await enquiryAt(database, "Vanishing", new Date("2024-01-01T00:00:00Z"));
    const spam = await enquiryAt(database, "Spammy", new Date(now.getTime() - 31 * day), "honeypot");
    const kept = await enquiryAt(database, "Staying", new Date(now.getTime() - day));
    const actor = { id: null, label: "Meera Shah" };
    for (const enquiry of [expired, spam, kept]) {
      const label = `${enquiryReference(enquiry.id)} ${enquiry.firstName} Patel`;
      await recordAudit(database.db, {
        actor,
        action: "enquiry-note-added",
        target: { type: "enquiry", id: enquiry.id, label },
      });
    }
    await recordAudit(database.db, {
      actor,
      action: "staff-disabled",
      target: { type: "staff", id: "x", label: "Vanishing" },
    });

    expect(await deleteExpiredEnquiries(database.db, now)).toEqual({ enquiries: 1, spam: 1 });
    const events = await database.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
    expect(events.map((event) => [event.targetId, event.targetLabel])).toEqual([
      [expired.id, null],
      [spam.id, null],
      [kept.id, `${enquiryReference(kept.id)} Staying Patel`],
      ["x", "Vanishing"],
    ]);
    const enquiryLabels = events.filter((event) => event.targetType === "enquiry").map((event) => event.targetLabel);
    expect(enquiryLabels.join(" ")).not.toMatch(/Vanishing|Spammy/);
  });

  it("is applied by the running site", async () => {
    database = await createTestDatabase(driver, { from: "empty" });
    await enquiryAt(database, "Expired", new Date(Date.now() - 3 * 365 * day));
    await enquiryAt(database, "Recent", new Date());
    // The test drops the database itself, after the site has stopped.
    const keptOpen = { ...database, close: async () => {} };
    site = await startSite({
      config: parseConfig({ NODE_ENV: "test", DATA_DIR: "memory://" }),
      database: keptOpen,
      syncContent: false,
    });
    const names = async () =>
      (await database!.db.select({ firstName: contactSubmissions.firstName }).from(contactSubmissions)).map(
        (row) => row.firstName,
      );
    await expect.poll(names, { timeout: 5000 }).toEqual(["Recent"]);
  });
});
