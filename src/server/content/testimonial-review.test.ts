import { eq } from "drizzle-orm";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { inviteStaff, setStaffDisabled } from "../admin/staff/staff-repository.ts";
import { type DatabaseHandle, openDatabase } from "../db/client.ts";
import { clientLogos, mailOutbox, testimonials } from "../db/schema.ts";
import { OutboxWorker } from "../mail/outbox-worker.ts";
import { createSmtpTransport } from "../mail/smtp-transport.ts";
import { TESTIMONIAL_REVIEW_KIND } from "../mail/testimonial-review-email.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { SmtpPeer } from "../../../test/smtp-peer.ts";
import { queueMonthlyPermissionReview, testimonialAdminPath } from "./testimonial-review.ts";

// The permissions' monthly review (decision 061): once a month across instances, one mail to each
// admin listing what is due; none due, none. The clock is moved by the `now` each call is given.

const SITE = "https://www.example.test";
const silent = pino({ level: "silent" });
const PERMISSION = { permissionBy: "By email", permissionOn: "2025-11-01", permissionUses: ["website"] };

describe.each(testDrivers)("the permissions' monthly review on %s", (driver) => {
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

  /** A second instance's connection to the same database (PostgreSQL), or the same one (PGlite, one process). */
  async function otherInstance(): Promise<DatabaseHandle["db"]> {
    if (!database.url) return database.db;
    second = await openDatabase({ databaseUrl: database.url, dataDir: "unused" });
    return second.db;
  }

  async function setUp() {
    database = await createTestDatabase(driver, { from: "empty" });
    const db = database.db;
    const at = new Date("2026-10-01T00:00:00Z");
    await inviteStaff(db, { email: "meera@sabarmatigrid.example", name: "Meera", role: "admin" }, at);
    await inviteStaff(db, { email: "vikram@sabarmatigrid.example", name: "Vikram", role: "admin" }, at);
    await inviteStaff(db, { email: "ravi@sabarmatigrid.example", name: "Ravi", role: "staff" }, at);
    const { member: gone } = await inviteStaff(
      db,
      { email: "gone@sabarmatigrid.example", name: "Gone", role: "admin" },
      at,
    );
    await setStaffDisabled(db, gone.id, true, at);
    const [named, anonymised, trashed] = await db
      .insert(testimonials)
      .values([
        {
          quote: "Q1",
          personName: "Kiran Desai",
          organisation: "Gujarat Test Transco",
          ...PERMISSION,
          permissionReview: "2026-11-15",
          status: "published",
        },
        {
          quote: "Q2",
          personName: "Anita Rao",
          organisation: "Hidden Utility",
          anonymised: true,
          description: "Head of protection, a state utility",
          ...PERMISSION,
          permissionReview: "2026-12-10",
          status: "unpublished",
        },
        {
          quote: "Q3",
          personName: "Trashed Person",
          organisation: "Trashed Org",
          ...PERMISSION,
          permissionReview: "2026-01-01",
          status: "published",
          deletedAt: at,
        },
        // A draft never published: no permission yet, nothing to review.
        { status: "draft" },
      ])
      .returning({ id: testimonials.id });
    const [logo] = await db
      .insert(clientLogos)
      .values({
        organisation: "Alpha Grid",
        logoUrl: "/media/0300ae1725bd317b/original.png",
        ...PERMISSION,
        permissionReview: "2026-10-31",
        status: "published",
      })
      .returning({ id: clientLogos.id });
    return { named: named!.id, anonymised: anonymised!.id, trashed: trashed!.id, logo: logo!.id };
  }
  const queued = () => database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, TESTIMONIAL_REVIEW_KIND));

  it("queues one mail per admin once a month, on one instance of many, listing what is due; the next month what has come due since", async () => {
    const ids = await setUp();
    const other = await otherInstance();
    const november = new Date("2026-11-20T06:00:00Z");
    const runs = await Promise.all([
      queueMonthlyPermissionReview(database.db, { now: november, siteUrl: SITE }),
      queueMonthlyPermissionReview(other, { now: november, siteUrl: SITE }),
      queueMonthlyPermissionReview(other, { now: november, siteUrl: SITE }),
    ]);
    expect(runs.filter((run) => run !== null)).toEqual([2]);
    const rows = await queued();
    expect(rows.map((row) => row.recipient).sort()).toEqual([
      "meera@sabarmatigrid.example",
      "vikram@sabarmatigrid.example",
    ]);
    const items = JSON.parse(rows[0]!.payload!.items!) as { link: string; review: string }[];
    expect(items.map((item) => [item.link, item.review])).toEqual([
      [`${SITE}${testimonialAdminPath("testimonial", ids.named)}`, "2026-11-15"],
      [`${SITE}${testimonialAdminPath("client-logo", ids.logo)}`, "2026-10-31"],
    ]);
    expect(testimonialAdminPath("testimonial", ids.named)).toBe(`/admin/testimonials/${ids.named}`);
    expect(testimonialAdminPath("client-logo", ids.logo)).toBe(`/admin/client-logos/${ids.logo}`);

    // Later the same month: nothing more, whatever is due.
    expect(await queueMonthlyPermissionReview(other, { now: new Date("2026-11-30T18:00:00Z"), siteUrl: SITE })).toBe(
      null,
    );
    expect(await queued()).toHaveLength(2);
    // The 1st of December in India (30 Nov, 18:30 UTC): a new month, and the anonymised one not due yet.
    expect(
      await queueMonthlyPermissionReview(database.db, { now: new Date("2026-11-30T18:45:00Z"), siteUrl: SITE }),
    ).toBe(2);
    // January: it has come due (10 December) as well.
    expect(await queueMonthlyPermissionReview(other, { now: new Date("2027-01-02T06:00:00Z"), siteUrl: SITE })).toBe(3);
    expect(await queued()).toHaveLength(6);
  });

  it("sends no mail in a month with nothing due", async () => {
    await setUp();
    await database.db.update(testimonials).set({ permissionReview: "2028-01-01" });
    await database.db.update(clientLogos).set({ permissionReview: "2028-01-01" });
    expect(
      await queueMonthlyPermissionReview(database.db, { now: new Date("2026-11-20T06:00:00Z"), siteUrl: SITE }),
    ).toBe(0);
    expect(await queued()).toHaveLength(0);
  });

  it("delivers the mail through SMTP to each admin once, with two workers: who, the organisation or description, the date and the link", async () => {
    const ids = await setUp();
    peer = await SmtpPeer.start();
    expect(
      await queueMonthlyPermissionReview(database.db, { now: new Date("2027-01-02T06:00:00Z"), siteUrl: SITE }),
    ).toBe(3);
    const other = await otherInstance();
    for (const db of [database.db, other]) {
      const worker = new OutboxWorker({
        db,
        transport: createSmtpTransport(peer.url),
        from: "website@sabarmatigrid.example",
        to: ["enquiries@sabarmatigrid.example"],
        log: silent,
        pollIntervalMs: 50,
      });
      workers.push(worker);
      worker.start();
    }
    const mails = await peer.waitForMessages(2);
    // Wait until nothing is pending any more, then look: nothing more came.
    for (let i = 0; i < 400 && (await queued()).some((row) => row.status === "pending"); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(peer.messages).toHaveLength(2);
    expect(mails.flatMap((mail) => mail.to).sort()).toEqual([
      "meera@sabarmatigrid.example",
      "vikram@sabarmatigrid.example",
    ]);
    const mail = mails[0]!;
    expect(mail.headers.get("subject")?.[0]).toBe("3 client permissions to review on the Sabarmati Grid website");
    const body = mail.body.replace(/\r?\n/g, "\n");
    expect(body).toContain("Testimonial: Kiran Desai, Gujarat Test Transco\n  Review date: 2026-11-15");
    expect(body).toContain(`${SITE}/admin/testimonials/${ids.named}`);
    expect(body).toContain("Testimonial: Anita Rao, Hidden Utility (shown as: Head of protection, a state utility)");
    expect(body).toContain(`${SITE}/admin/testimonials/${ids.anonymised}`);
    expect(body).toContain("Client logo: Alpha Grid\n  Review date: 2026-10-31");
    expect(body).toContain(`${SITE}/admin/client-logos/${ids.logo}`);
    expect(body).not.toContain("Trashed");
    expect((await queued()).map((row) => row.status)).toEqual(["sent", "sent"]);
  });
});
