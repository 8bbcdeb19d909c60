import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../test/databases.ts";
import { formBody, storedSubmission } from "../../../test/enquiry-fixtures.ts";
import { enquiryReference, storeEnquiry } from "../db/contact-repository.ts";
import { auditEvents } from "../db/schema.ts";

// The audit trail keeps an event 24 months, longer than an enquiry may be kept: an event about an
// enquiry is labelled with its reference alone, never the visitor's name.

describe.each(testDrivers)("audit events about an enquiry on %s", (driver) => {
  let t: AdminTestApp;
  let member: StaffWithSession;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver);
    member = await staffWithSession(t, { email: "ravi@example.com", name: "Ravi Desai", role: "staff" });
  });
  afterAll(async () => t.close());

  const post = (url: string, fields: Record<string, string | number>) =>
    t.send({
      method: "POST",
      url,
      cookie: member.cookie,
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      payload: formBody(fields),
    });

  async function enquiry(spamReason: string | null = null) {
    const stored = await storeEnquiry(t.database.db, {
      data: {
        firstName: "Vasudha",
        lastName: "Kulkarni",
        email: "vasudha.kulkarni@example.com",
        company: null,
        service: "grid-integration",
        message: "A protection study, please.",
      },
      idempotencyKey: crypto.randomUUID(),
      spamReason,
      mail: { configured: true, acknowledge: false },
    });
    return storedSubmission(stored);
  }

  it("are labelled with the enquiry's reference, without the visitor's name", async () => {
    const genuine = await enquiry();
    const spam = await enquiry("honeypot");
    expect((await post(`/admin/enquiries/${genuine.id}/notes`, { note: "Called back." })).statusCode).toBe(303);
    expect((await post(`/admin/enquiries/${genuine.id}`, { status: "contacted", version: 1 })).statusCode).toBe(303);
    expect((await post(`/admin/enquiries/${spam.id}/not-spam`, { version: 1 })).statusCode).toBe(303);

    const events = await t.database.db.select().from(auditEvents).where(eq(auditEvents.targetType, "enquiry"));
    expect(events.map((event) => event.action).sort()).toEqual([
      "enquiry-not-spam",
      "enquiry-note-added",
      "enquiry-status-changed",
    ]);
    for (const event of events) {
      expect(event.targetLabel).toBe(enquiryReference(event.targetId!));
      expect(event.targetLabel).not.toMatch(/Vasudha|Kulkarni/);
    }
  });
});
