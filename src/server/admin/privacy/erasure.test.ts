import { readFile } from "node:fs/promises";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminTestApp, buildAdminTestApp, staffWithSession } from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { formBody } from "../../../../test/enquiry-fixtures.ts";
import { auditEvents, mailOutbox, newsletters, newsletterSubscribers } from "../../db/schema.ts";
import { addressHash, LEDGER_FILE } from "../../backup/erasure-ledger.ts";
import { eraseAddress, erasurePreview } from "./erasure.ts";

// Erasure and the newsletter: an address's subscription, its confirmation mail and each
// newsletter's mail to it (sent or not) are counted in the preview and deleted; another
// address's subscription and mail, and the newsletter itself, stay.

let people = 0;
const uniqueEmail = (name: string) => `${name}.erasure.${(people += 1)}@example.com`;

describe.each(testDrivers)("erasure of a newsletter subscriber on %s", (driver) => {
  let t: AdminTestApp;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A confirmed subscriber with a sent confirmation mail and a newsletter's mail (sent or pending). */
  async function subscriberWithMail(email: string, newsletterId: string, newsletterStatus: string) {
    const [subscriber] = await t.database.db
      .insert(newsletterSubscribers)
      .values({ email, status: "confirmed", confirmedAt: t.clock.now, consentPage: "/blog", consentText: "Yes." })
      .returning();
    const mail = await t.database.db
      .insert(mailOutbox)
      .values([
        {
          kind: "newsletter-confirmation",
          recipient: email,
          subscriberId: subscriber!.id,
          status: "sent",
          sentAt: t.clock.now,
        },
        // As the sender queues it: the subscriber's id, the address read from the subscription.
        { kind: "newsletter", newsletterId, subscriberId: subscriber!.id, status: newsletterStatus },
      ])
      .returning();
    return { subscriber: subscriber!, mail };
  }

  it("counts and deletes the subscription, its confirmation mail and the newsletter mail to it; other rows stay", async () => {
    const [newsletter] = await t.database.db
      .insert(newsletters)
      .values({ subject: "November", campaign: `november-${people}` })
      .returning();
    const [second] = await t.database.db
      .insert(newsletters)
      .values({ subject: "December", campaign: `december-${people}` })
      .returning();
    const email = uniqueEmail("reader");
    const gone = await subscriberWithMail(email, newsletter!.id, "sent");
    // A second newsletter, still queued to it.
    const [queued] = await t.database.db
      .insert(mailOutbox)
      .values({ kind: "newsletter", newsletterId: second!.id, subscriberId: gone.subscriber.id })
      .returning();
    const other = uniqueEmail("another.reader");
    const kept = await subscriberWithMail(other, newsletter!.id, "sent");

    const admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    const post = (url: string, fields: Record<string, string>) =>
      t.send({
        method: "POST",
        url,
        cookie: admin.cookie,
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
        payload: formBody(fields),
      });

    // The address given in capitals finds the same (stored lower-cased).
    const preview = await post("/admin/privacy/preview", { email: email.toUpperCase() });
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toMatch(
      /Queued or sent mail: 0<\/li><li>Newsletter subscriptions: 1<\/li><li>Newsletter mail: 3<\/li>/,
    );
    expect(await erasurePreview(t.database.db, email)).toEqual({
      enquiries: 0,
      notes: 0,
      mail: 0,
      subscriptions: 1,
      newsletterMail: 3,
    });
    // The preview deleted nothing.
    expect(
      await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.subscriberId, gone.subscriber.id)),
    ).toHaveLength(3);

    const erased = await post("/admin/privacy/erase", { email, confirm: email });
    expect(erased.statusCode).toBe(200);
    // The erasure is in the ledger beside the backups, as a hash: a restore erases it again.
    const ledger = await readFile(path.join(t.config.backup.dir, LEDGER_FILE), "utf8");
    expect(ledger).toContain(addressHash(email));
    expect(ledger).not.toContain(email);
    expect(erased.body).toMatch(/Newsletter subscriptions: 1<\/li><li>Newsletter mail: 3<\/li>/);
    const ids = [...gone.mail.map((row) => row.id), queued!.id];
    expect(await t.database.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids))).toHaveLength(0);
    expect(
      await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)),
    ).toHaveLength(0);
    // The other address keeps its subscription and mail; the newsletters stay.
    expect(
      await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, kept.subscriber.id)),
    ).toHaveLength(1);
    expect(
      await t.database.db
        .select()
        .from(mailOutbox)
        .where(
          inArray(
            mailOutbox.id,
            kept.mail.map((row) => row.id),
          ),
        ),
    ).toHaveLength(2);
    expect(
      await t.database.db
        .select()
        .from(newsletters)
        .where(inArray(newsletters.id, [newsletter!.id, second!.id])),
    ).toHaveLength(2);
    // The audit trail records the counts, never the address.
    const [event] = await t.database.db.select().from(auditEvents).where(eq(auditEvents.action, "erasure"));
    expect(event?.details).toEqual({ enquiries: 0, notes: 0, mail: 0, subscriptions: 1, newsletterMail: 3 });
    expect(JSON.stringify(event)).not.toContain(email);
  });

  it("counts a mail once: a confirmation row naming both the address and the subscription is newsletter mail", async () => {
    const [newsletter] = await t.database.db
      .insert(newsletters)
      .values({ subject: "Once", campaign: `once-${people}` })
      .returning();
    const email = uniqueEmail("once");
    await subscriberWithMail(email, newsletter!.id, "pending");
    // Mail to the address that is not the newsletter's (a staff mail, say) is counted as mail.
    await t.database.db.insert(mailOutbox).values({ kind: "staff-sign-in-link", recipient: email });
    const counts = await erasurePreview(t.database.db, email);
    expect(counts).toMatchObject({ mail: 1, subscriptions: 1, newsletterMail: 2 });
    expect(await eraseAddress(t.database.db, email)).toEqual(counts);
    expect(await erasurePreview(t.database.db, email)).toMatchObject({ mail: 0, subscriptions: 0, newsletterMail: 0 });
  });
});
