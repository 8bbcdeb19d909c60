import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { formBody, storedSubmission } from "../../../../test/enquiry-fixtures.ts";
import { enquiryReference, storeEnquiry } from "../../db/contact-repository.ts";
import { queryRows } from "../../db/client.ts";
import { auditEvents, contactSubmissions, enquiryNotes, mailOutbox, newsletterSubscribers } from "../../db/schema.ts";
import { setStaffDisabled } from "../staff/staff-repository.ts";
import { EXPORT_BATCH_ROWS } from "./inbox-queries.ts";

const HOUR = 3_600_000;
const MINUTE = 60_000;

let people = 0;
const uniqueEmail = (name: string) => `${name}.${(people += 1)}@example.com`;
let visitors = 0;
/** A word only one test's enquiries carry, so that a search finds just them. */
const uniqueWord = () => `zq${(visitors += 1).toString(36)}x${Math.random().toString(36).slice(2, 7)}`;

describe.each(testDrivers)("the enquiry inbox on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let member: StaffWithSession;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, { env: { SPAM_RETENTION_DAYS: "30", ENQUIRY_RETENTION_DAYS: "365" } });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
  });

  /** An enquiry as the contact form stores it, received at the test clock's now (or `at`). */
  async function enquiryAt(
    overrides: Record<string, string | null> = {},
    options: { at?: Date; spamReason?: string } = {},
  ) {
    const stored = await storeEnquiry(t.database.db, {
      data: {
        firstName: "Asha",
        lastName: "Patel",
        email: uniqueEmail("asha"),
        company: "Kutch Solar Park Pvt Ltd",
        service: "grid-integration",
        message: "A grid connectivity study for a 120 MW solar plant.",
        ...overrides,
      } as never,
      idempotencyKey: crypto.randomUUID(),
      spamReason: options.spamReason ?? null,
      mail: { configured: true, acknowledge: false },
    });
    const { id } = storedSubmission(stored);
    await t.database.db
      .update(contactSubmissions)
      .set({ createdAt: options.at ?? t.clock.now })
      .where(eq(contactSubmissions.id, id));
    const [row] = await t.database.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id));
    return row!;
  }

  const get = (url: string, who: StaffWithSession = member) =>
    t.send({ method: "GET", url, cookie: who.cookie, headers: { accept: "text/html" } });
  const post = (url: string, fields: Record<string, string | number>, who: StaffWithSession = member) =>
    t.send({
      method: "POST",
      url,
      cookie: who.cookie,
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      payload: formBody(fields),
    });
  const current = async (id: string) =>
    (await t.database.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id)))[0]!;
  const auditOf = async (id: string) =>
    (
      await t.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.targetType, "enquiry"), eq(auditEvents.targetId, id)))
        .orderBy(auditEvents.id)
    ).map((row) => row.action);

  describe("access and hostile requests", () => {
    it("needs a session for every inbox page: a 303 to the sign-in, or 401 for JSON", async () => {
      const enquiry = await enquiryAt();
      for (const url of [
        "/admin",
        `/admin/enquiries/${enquiry.id}`,
        "/admin/enquiries/export.csv",
        "/admin/subscribers",
        "/admin/subscribers/export.csv",
        "/admin/privacy",
      ]) {
        const html = await t.app.inject({ method: "GET", url, headers: { accept: "text/html" } });
        expect(html.statusCode, url).toBe(303);
        expect(String(html.headers.location)).toMatch(/^\/admin\/sign-in/);
        const json = await t.app.inject({ method: "GET", url, headers: { accept: "application/json" } });
        expect(json.statusCode, url).toBe(401);
      }
      const change = await t.send({
        method: "POST",
        url: `/admin/enquiries/${enquiry.id}`,
        payload: formBody({ status: "won", version: 1 }),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(change.statusCode).toBe(303);
      expect((await current(enquiry.id)).status).toBe("new");
    });

    it("refuses a change posted from another site with 403 and changes nothing", async () => {
      const enquiry = await enquiryAt();
      const spam = await enquiryAt({}, { spamReason: "honeypot" });
      const [subscriber] = await t.database.db
        .insert(newsletterSubscribers)
        .values({ email: uniqueEmail("reader") })
        .returning();
      for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }]) {
        for (const [url, fields] of [
          [`/admin/enquiries/${enquiry.id}`, { status: "won", version: 1 }],
          [`/admin/enquiries/${enquiry.id}/notes`, { note: "forged" }],
          [`/admin/enquiries/${enquiry.id}/replied`, { version: 1 }],
          [`/admin/enquiries/${spam.id}/not-spam`, { version: 1 }],
          [`/admin/subscribers/${subscriber!.id}/remove`, {}],
          ["/admin/privacy/erase", { email: enquiry.email, confirm: enquiry.email }],
        ] as const) {
          const response = await t.send({
            method: "POST",
            url,
            cookie: admin.cookie,
            headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
            payload: formBody(fields),
          });
          expect(response.statusCode, url).toBe(403);
        }
      }
      const after = await current(enquiry.id);
      expect(after).toMatchObject({ status: "new", version: 1, firstReplyAt: null });
      expect(
        await t.database.db.select().from(enquiryNotes).where(eq(enquiryNotes.submissionId, enquiry.id)),
      ).toHaveLength(0);
      expect(await current(spam.id)).toMatchObject({ status: "spam", version: 1 });
      expect(await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, spam.id))).toHaveLength(0);
      expect(
        await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, subscriber!.id)),
      ).toHaveLength(1);
    });

    it("answers 404 for a malformed or unknown enquiry id", async () => {
      for (const id of ["not-a-uuid", "00000000-0000-0000-0000-000000000000", "'%20or%201=1", "1".repeat(500)]) {
        expect((await get(`/admin/enquiries/${id}`)).statusCode, id).toBe(404);
        expect((await post(`/admin/enquiries/${id}`, { status: "won", version: 1 })).statusCode, id).toBe(404);
        expect((await post(`/admin/enquiries/${id}/notes`, { note: "x" })).statusCode, id).toBe(404);
      }
    });

    it("answers 400 for an invalid status, owner, version or note, and changes nothing", async () => {
      const enquiry = await enquiryAt();
      const other = await staffWithSession(t, { email: uniqueEmail("gone"), name: "Gone Person", role: "staff" });
      await setStaffDisabled(t.database.db, other.staffId, true, t.clock.now);
      const cases: [string, Record<string, string | number>, RegExp][] = [
        [`/admin/enquiries/${enquiry.id}`, { status: "archived", version: 1 }, /Status must be one of New, Contacted/],
        [
          `/admin/enquiries/${enquiry.id}`,
          { status: "new", owner: "00000000-0000-0000-0000-000000000000", version: 1 },
          /Owner must be an active member of staff/,
        ],
        [
          `/admin/enquiries/${enquiry.id}`,
          { status: "new", owner: other.staffId, version: 1 },
          /Owner must be an active member of staff/,
        ],
        [
          `/admin/enquiries/${enquiry.id}`,
          { status: "new", owner: "x'; drop table staff; --", version: 1 },
          /Owner must be/,
        ],
        [`/admin/enquiries/${enquiry.id}`, { status: "contacted" }, /did not say which version/],
        [`/admin/enquiries/${enquiry.id}`, { status: "contacted", version: "1e9" }, /did not say which version/],
        [`/admin/enquiries/${enquiry.id}/notes`, { note: "   " }, /Note is required/],
        [`/admin/enquiries/${enquiry.id}/notes`, { note: "x".repeat(5001) }, /Note must be at most 5000 characters/],
        [`/admin/enquiries/${enquiry.id}/notes`, { note: "bell\u0007" }, /Note must not contain control characters/],
        [`/admin/enquiries/${enquiry.id}/replied`, { version: "" }, /did not say which version/],
      ];
      for (const [url, fields, message] of cases) {
        const response = await post(url, fields);
        expect(response.statusCode, JSON.stringify(fields)).toBe(400);
        expect(response.body).toMatch(message);
      }
      expect(await current(enquiry.id)).toMatchObject({ status: "new", ownerId: null, version: 1, firstReplyAt: null });
      expect(
        await t.database.db.select().from(enquiryNotes).where(eq(enquiryNotes.submissionId, enquiry.id)),
      ).toHaveLength(0);
    });

    it("answers 400 naming the filter for a malformed one", async () => {
      for (const [query, message] of [
        ["status=archived", /Status must be one of/],
        ["owner=bob", /Owner must be/],
        ["service=nuclear", /Service must be one of/],
        ["from=2026-02-30", /From must be a date/],
        ["to=yesterday", /To must be a date/],
        // Years outside 2000-2099 once reached the database as year 0 and answered 500.
        ["from=0000-01-01", /From must be a date/],
        ["to=9999-12-31", /To must be a date/],
        [`q=${"a".repeat(201)}`, /Search must be one line/],
        ["q=%1B%5D0%3Bx", /Search must be one line/],
        ["status=new&status=won", /Give status once/],
      ] as const) {
        const response = await get(`/admin?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.body).toMatch(message);
        expect((await get(`/admin/enquiries/export.csv?${query}`)).statusCode, query).toBe(400);
      }
    });
  });

  describe("the list", () => {
    it("shows enquiries newest first, 50 a page, with name, company, service, time in India, status, owner and reply state", async () => {
      const word = uniqueWord();
      const start = t.clock.now;
      for (let i = 0; i < 52; i += 1)
        await enquiryAt(
          { lastName: `${word}-${String(i).padStart(2, "0")}` },
          { at: new Date(start.getTime() - (52 - i) * MINUTE) },
        );
      const first = await get(`/admin?q=${word}`);
      expect(first.statusCode).toBe(200);
      const names = [...first.body.matchAll(new RegExp(`Asha ${word}-(\\d\\d)`, "g"))].map((match) => match[1]);
      expect(names).toHaveLength(50);
      expect(names[0]).toBe("51");
      expect(names[49]).toBe("02");
      expect(first.body).toContain("Kutch Solar Park Pvt Ltd");
      expect(first.body).toContain("Grid Integration");
      expect(first.body).toContain("Older");
      const second = await get(`/admin?q=${word}&page=2`);
      expect([...second.body.matchAll(new RegExp(`Asha ${word}-(\\d\\d)`, "g"))].map((match) => match[1])).toEqual([
        "01",
        "00",
      ]);
      // 06:00 UTC less 52 minutes is 10:38 in India.
      expect(second.body).toContain("23 Nov 2026, 10:38 IST");
    });

    it("filters by status, owner, service, date range and search, and keeps the filter in the links", async () => {
      const word = uniqueWord();
      const a = await enquiryAt({ lastName: word, company: `${word} Power`, service: "system-design" });
      const b = await enquiryAt(
        { lastName: `${word}b`, service: "grid-integration" },
        { at: new Date(t.clock.now.getTime() - 3 * 86_400_000) },
      );
      await enquiryAt({ lastName: `${word}c`, message: `Mentions ${word.toUpperCase()} in the message` });
      await post(`/admin/enquiries/${a.id}`, { status: "contacted", owner: member.staffId, version: 1 });
      const count = async (query: string) =>
        (await get(`/admin?q=${word}&${query}`)).body.match(/href="\/admin\/enquiries\/[0-9a-f-]{36}"/g)?.length ?? 0;
      expect(await count("")).toBe(3);
      expect(await count("status=contacted")).toBe(1);
      expect(await count(`owner=${member.staffId}`)).toBe(1);
      expect(await count("owner=none")).toBe(2);
      expect(await count("service=system-design")).toBe(1);
      expect(await count("from=2026-11-22")).toBe(2);
      expect(await count("to=2026-11-21")).toBe(1);
      expect((await get(`/admin?q=${word}b`)).body).toContain(b.id);
      // The search looks at company and message too, ignoring case; % and _ are plain characters.
      expect(await count("status=new")).toBe(2);
      expect((await get(`/admin?q=${word.toUpperCase()}%20Power`)).body).toContain(a.id);
      expect((await get("/admin?q=%25%25%25")).body).toContain("No enquiries match");
      const page = await get(`/admin?q=${word}&status=contacted&service=system-design`);
      expect(page.body).toContain(
        `/admin/enquiries/export.csv?status=contacted&amp;service=system-design&amp;q=${word}`,
      );
    });

    it("keeps spam out of the list unless asked, and shows its reason under Spam", async () => {
      const word = uniqueWord();
      const spam = await enquiryAt({ lastName: word }, { spamReason: "honeypot" });
      expect(spam.status).toBe("spam");
      expect((await get(`/admin?q=${word}`)).body).not.toContain(spam.id);
      const view = await get(`/admin?q=${word}&status=spam`);
      expect(view.body).toContain(spam.id);
      expect(view.body).toContain("honeypot");
    });
  });

  describe("the reply promise", () => {
    it("computes due and overdue at the boundaries as the clock moves, in the list, the counts and the page", async () => {
      const word = uniqueWord();
      const start = t.clock.now;
      // Received a little after every other test's enquiries, so that it alone crosses each boundary.
      const received = new Date(start.getTime() + 7 * MINUTE + 13_000);
      const enquiry = await enquiryAt({ lastName: word }, { at: received });
      // Sessions end after 12 idle hours: look as someone signed in at the clock's time.
      const fresh = () => staffWithSession(t, { email: uniqueEmail("late"), name: "Late Shift", role: "staff" });
      const state = async () => {
        const body = (await get(`/admin?q=${word}`, await fresh())).body;
        return /(Due in [^<]+|Overdue by [^<]+|Replied in [^<]+)</.exec(body)?.[1];
      };
      const overdueCount = async () =>
        Number(/data-count="overdue">(\d+)</.exec((await get("/admin", await fresh())).body)?.[1]);
      try {
        t.clock.now = new Date(received.getTime() + 19 * HOUR);
        expect(await state()).toBe("Due in 5 h");
        t.clock.now = new Date(received.getTime() + 24 * HOUR - MINUTE);
        expect(await state()).toBe("Due in 1 min");
        const overdueBefore = await overdueCount();
        t.clock.now = new Date(received.getTime() + 24 * HOUR);
        expect(await state()).toBe("Overdue by 0 min");
        expect(await overdueCount()).toBe(overdueBefore + 1);
        t.clock.now = new Date(received.getTime() + 27 * HOUR + 59 * MINUTE);
        expect(await state()).toBe("Overdue by 3 h");
        const late = await fresh();
        expect((await get(`/admin/enquiries/${enquiry.id}`, late)).body).toContain("Overdue by 3 h");
        // Replied late: the clock stops, and the list says how long it took.
        expect((await post(`/admin/enquiries/${enquiry.id}/replied`, { version: 1 }, late)).statusCode).toBe(303);
        expect(await state()).toBe("Replied in 27 h");
        expect(await overdueCount()).toBe(overdueBefore);
      } finally {
        t.clock.now = start;
      }
    });

    it("Mark replied records the time and who, once, and the page offers Reply by email", async () => {
      const enquiry = await enquiryAt();
      const start = t.clock.now;
      t.clock.advance(2 * HOUR);
      try {
        const page = await get(`/admin/enquiries/${enquiry.id}`);
        const reference = enquiryReference(enquiry.id);
        expect(page.body).toContain(`href="mailto:${enquiry.email}?subject=Re%3A%20your%20enquiry%20${reference}"`);
        expect(page.body).toContain("Reply by email");
        expect((await post(`/admin/enquiries/${enquiry.id}/replied`, { version: 1 })).statusCode).toBe(303);
        expect(await current(enquiry.id)).toMatchObject({
          firstReplyAt: t.clock.now,
          firstReplyById: member.staffId,
          version: 2,
        });
        const after = await get(`/admin/enquiries/${enquiry.id}`);
        expect(after.body).toContain("Replied in 2 h");
        expect(after.body).toContain("by Ravi Desai");
        expect(after.body).not.toContain(">Mark replied<");
        expect((await post(`/admin/enquiries/${enquiry.id}/replied`, { version: 2 }, admin)).statusCode).toBe(409);
        expect((await current(enquiry.id)).firstReplyById).toBe(member.staffId);
      } finally {
        t.clock.now = start;
      }
    });

    it("shows the 30 days' share answered within 24 hours and the median reply time", async () => {
      const t2 = await buildAdminTestApp(driver);
      try {
        const who = await staffWithSession(t2, { email: uniqueEmail("kiran"), name: "Kiran", role: "staff" });
        const at = (hoursAgo: number) => new Date(t2.clock.now.getTime() - hoursAgo * HOUR);
        const store = async (createdAt: Date, replyAfterHours: number | null) => {
          const stored = storedSubmission(
            await storeEnquiry(t2.database.db, {
              data: {
                firstName: "A",
                lastName: "B",
                email: "a@example.com",
                company: null,
                service: null,
                message: "Hello there, a study.",
              } as never,
              idempotencyKey: crypto.randomUUID(),
              spamReason: null,
              mail: { configured: false, acknowledge: false },
            }),
          );
          await t2.database.db
            .update(contactSubmissions)
            .set({
              createdAt,
              firstReplyAt: replyAfterHours === null ? null : new Date(createdAt.getTime() + replyAfterHours * HOUR),
            })
            .where(eq(contactSubmissions.id, stored.id));
        };
        await store(at(100), 2); // answered in 2 h
        await store(at(90), 4); // in 4 h
        await store(at(80), 30); // late: 30 h
        await store(at(50), null); // overdue, unanswered
        await store(at(3), null); // not yet due: not counted
        await store(at(31 * 24), 1); // older than 30 days: not counted
        const body = (await t2.send({ method: "GET", url: "/admin", cookie: who.cookie })).body;
        expect(body).toMatch(/data-figure="share">50%<span[^>]*>2 of 4; 1 not yet due</);
        expect(body).toContain('data-figure="median">4 h<');
      } finally {
        await t2.close();
      }
    });
  });

  describe("the enquiry page", () => {
    it("shows every field, the reference, and each mail's delivery state from the outbox", async () => {
      const enquiry = await enquiryAt({ company: null, message: "Line one.\nLine <two>." });
      const db = t.database.db;
      const page = async () => (await get(`/admin/enquiries/${enquiry.id}`)).body;
      let body = await page();
      for (const text of [
        enquiryReference(enquiry.id),
        "Asha Patel",
        enquiry.email,
        "Not given",
        "Grid Integration",
        "Line one.\nLine &lt;two&gt;.",
        "23 Nov 2026, 11:30 IST",
        "24 Nov 2026, 11:30 IST",
      ]) {
        expect(body).toContain(text);
      }
      expect(body).toMatch(/Notification to the firm<\/span>: Pending: next attempt \d+ Nov 2026, \d\d:\d\d IST/);
      await db
        .update(mailOutbox)
        .set({ status: "failed", lastError: "rejected by the SMTP server: 550 mailbox unavailable", attempts: 1 })
        .where(eq(mailOutbox.submissionId, enquiry.id));
      body = await page();
      expect(body).toContain("Failed: rejected by the SMTP server: 550 mailbox unavailable");
      await db
        .update(mailOutbox)
        .set({ status: "sent", sentAt: new Date("2026-11-23T06:01:00Z"), lastError: null })
        .where(eq(mailOutbox.submissionId, enquiry.id));
      expect(await page()).toContain("Sent 23 Nov 2026, 11:31 IST");
    });
  });

  describe("changes", () => {
    it("saves status and owner, audits each change, and keeps them after a reload", async () => {
      const enquiry = await enquiryAt();
      const response = await post(`/admin/enquiries/${enquiry.id}`, {
        status: "contacted",
        owner: member.staffId,
        version: 1,
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/admin/enquiries/${enquiry.id}?notice=saved`);
      expect(await current(enquiry.id)).toMatchObject({
        status: "contacted",
        ownerId: member.staffId,
        version: 2,
        updatedByLabel: "Ravi Desai",
      });
      const page = await get(`/admin/enquiries/${enquiry.id}`);
      expect(page.body).toMatch(/<option value="contacted" selected="">Contacted<\/option>/);
      expect(page.body).toContain(`<option value="${member.staffId}" selected="">Ravi Desai</option>`);
      expect(
        (
          await post(`/admin/enquiries/${enquiry.id}/notes`, {
            note: "Called, <b>sends</b> SLD tomorrow.\r\nSecond line.",
          })
        ).statusCode,
      ).toBe(303);
      const withNote = await get(`/admin/enquiries/${enquiry.id}`);
      expect(withNote.body).toContain("Called, &lt;b&gt;sends&lt;/b&gt; SLD tomorrow.\nSecond line.");
      expect(withNote.body).toMatch(/Ravi Desai, 23 Nov 2026, 11:30 IST/);
      expect(await auditOf(enquiry.id)).toEqual(["enquiry-status-changed", "enquiry-assigned", "enquiry-note-added"]);
      // The audit log shows it to an admin, with the note's size, never its text.
      const log = await get("/admin/audit?action=enquiry-note-added", admin);
      expect(log.body).toContain(enquiryReference(enquiry.id));
      expect(log.body).not.toContain("sends");
    });

    it("closing sets the closed time; reopening clears it", async () => {
      const enquiry = await enquiryAt();
      await post(`/admin/enquiries/${enquiry.id}`, { status: "won", version: 1 });
      expect((await current(enquiry.id)).closedAt).toEqual(t.clock.now);
      await post(`/admin/enquiries/${enquiry.id}`, { status: "qualified", version: 2 });
      expect((await current(enquiry.id)).closedAt).toBeNull();
    });

    it("refuses the second of two conflicting edits with 'changed by X meanwhile', keeping the first", async () => {
      const enquiry = await enquiryAt();
      // Both open the page at version 1.
      expect((await get(`/admin/enquiries/${enquiry.id}`)).body).toContain('name="version" value="1"');
      const first = await post(`/admin/enquiries/${enquiry.id}`, { status: "qualified", owner: "", version: 1 }, admin);
      expect(first.statusCode).toBe(303);
      const second = await post(`/admin/enquiries/${enquiry.id}`, {
        status: "contacted",
        owner: member.staffId,
        version: 1,
      });
      expect(second.statusCode).toBe(409);
      expect(second.body).toContain("This enquiry was changed by Meera Shah meanwhile");
      // The page shows the current state, at the version to post next.
      expect(second.body).toContain('name="version" value="2"');
      expect(await current(enquiry.id)).toMatchObject({ status: "qualified", ownerId: null, version: 2 });
      const replied = await post(`/admin/enquiries/${enquiry.id}/replied`, { version: 1 });
      expect(replied.statusCode).toBe(409);
      expect((await current(enquiry.id)).firstReplyAt).toBeNull();
      expect(await auditOf(enquiry.id)).toEqual(["enquiry-status-changed"]);
    });

    it("two edits racing at the same version: exactly one is saved", async () => {
      const enquiry = await enquiryAt();
      const answers = await Promise.all([
        post(`/admin/enquiries/${enquiry.id}`, { status: "won", version: 1 }, admin),
        post(`/admin/enquiries/${enquiry.id}`, { status: "lost", version: 1 }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 409]);
      expect((await current(enquiry.id)).version).toBe(2);
    });
  });

  describe("spam", () => {
    it('"Not spam" moves it to New and queues its notification once', async () => {
      const enquiry = await enquiryAt({}, { spamReason: "too-fast" });
      expect(await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, enquiry.id))).toHaveLength(
        0,
      );
      const page = await get(`/admin/enquiries/${enquiry.id}`);
      expect(page.body).toContain("too-fast");
      expect(page.body).toContain(">Not spam<");
      expect((await post(`/admin/enquiries/${enquiry.id}/not-spam`, { version: 1 })).statusCode).toBe(303);
      expect(await current(enquiry.id)).toMatchObject({ status: "new", isSpam: false, spamReason: null, version: 2 });
      expect((await post(`/admin/enquiries/${enquiry.id}/not-spam`, { version: 2 })).statusCode).toBe(409);
      // Marked spam again by hand and released again: still one notification.
      expect((await post(`/admin/enquiries/${enquiry.id}`, { status: "spam", version: 2 })).statusCode).toBe(303);
      expect((await current(enquiry.id)).isSpam).toBe(true);
      expect((await post(`/admin/enquiries/${enquiry.id}/not-spam`, { version: 3 })).statusCode).toBe(303);
      const mail = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, enquiry.id));
      expect(mail.map((row) => row.kind)).toEqual(["notification"]);
      expect(await auditOf(enquiry.id)).toEqual(["enquiry-not-spam", "enquiry-status-changed", "enquiry-not-spam"]);
    });

    it('two "Not spam" presses at once queue one notification', async () => {
      const enquiry = await enquiryAt({}, { spamReason: "honeypot" });
      const answers = await Promise.all([
        post(`/admin/enquiries/${enquiry.id}/not-spam`, { version: 1 }),
        post(`/admin/enquiries/${enquiry.id}/not-spam`, { version: 1 }, admin),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 409]);
      expect(await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.submissionId, enquiry.id))).toHaveLength(
        1,
      );
    });

    it('a spam enquiry\'s status cannot be changed except by "Not spam"', async () => {
      const enquiry = await enquiryAt({}, { spamReason: "honeypot" });
      expect((await post(`/admin/enquiries/${enquiry.id}`, { status: "won", version: 1 })).statusCode).toBe(409);
      expect((await current(enquiry.id)).status).toBe("spam");
    });
  });

  describe("export", () => {
    it("downloads exactly the filtered rows as spreadsheet-safe CSV, and audits it", async () => {
      const word = uniqueWord();
      await enquiryAt({ lastName: word, company: '=HYPERLINK("http://evil.example")', service: "system-design" });
      await enquiryAt({ lastName: word, service: "grid-integration" });
      await enquiryAt({ lastName: word, service: "system-design" }, { spamReason: "honeypot" });
      const response = await get(`/admin/enquiries/export.csv?q=${word}&service=system-design`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="enquiries-2026-11-23\.csv"$/);
      const lines = response.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n");
      expect(lines[0]).toBe(
        '"Reference","Received","First name","Last name","Email","Company","Service","Status","Owner","First reply","Reply state","Message"',
      );
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
      const [event] = await t.database.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, "enquiries-exported"))
        .orderBy(auditEvents.id);
      expect(event).toBeDefined();
      const events = await t.database.db.select().from(auditEvents).where(eq(auditEvents.actorId, member.staffId));
      expect(events.find((row) => row.action === "enquiries-exported")?.details).toMatchObject({
        rows: 1,
        filter: { service: "system-design" },
        searched: true,
      });
    });
    it(`reads ${EXPORT_BATCH_ROWS} enquiries at a time, each once and in the list's order, many at the same moment included`, async () => {
      const word = uniqueWord();
      const count = 2 * EXPORT_BATCH_ROWS + 201;
      // Half of them at one and the same moment: the batches go on after the last one read by its
      // time and id, and none is lost or read twice at a batch's edge.
      await queryRows(
        t.database.db,
        sql`insert into contact_submissions (first_name, last_name, email, company, service, message, created_at)
            select 'Batch', ${word}, 'batch' || i || '@example.com', 'Plant ' || i, 'system-design', 'Message ' || i,
              case when i % 2 = 0 then timestamptz '2026-11-20 10:00:00+00'
                   else timestamptz '2026-11-20 10:00:00+00' - (i || ' seconds')::interval end
            from generate_series(1, ${count}::int) as i`,
      );
      const expected = await t.database.db
        .select({ id: contactSubmissions.id })
        .from(contactSubmissions)
        .where(eq(contactSubmissions.lastName, word))
        .orderBy(desc(contactSubmissions.createdAt), desc(contactSubmissions.id));
      const response = await get(`/admin/enquiries/export.csv?q=${word}`);
      expect(response.statusCode).toBe(200);
      const references = response.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n")
        .slice(1)
        .map((line) => line.split(",")[0]!.replaceAll('"', ""));
      expect(references).toEqual(expected.map((row) => enquiryReference(row.id)));
      expect(new Set(references).size).toBe(count);
    });
  });

  describe("subscribers", () => {
    it("answers 400 naming the search for a malformed one, in the page and the export", async () => {
      for (const [query, message] of [
        [`q=${"a".repeat(255)}`, /Search must be one line of at most 254 characters/],
        ["q=%1B%5D0%3Bx", /Search must be one line/],
        ["q=a&q=b", /Give q once/],
      ] as const) {
        const response = await get(`/admin/subscribers?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(response.body).toMatch(message);
        expect((await get(`/admin/subscribers/export.csv?${query}`)).statusCode, query).toBe(400);
      }
    });

    it("lists, searches, removes with an audit event, and exports the search's rows", async () => {
      const word = uniqueWord();
      const [one] = await t.database.db
        .insert(newsletterSubscribers)
        .values({ email: `${word}.one@example.com` })
        .returning();
      await t.database.db.insert(newsletterSubscribers).values({ email: `=cmd|${word}@example.com` });
      await t.database.db.insert(newsletterSubscribers).values({ email: `someone.else.${uniqueWord()}@example.com` });
      const page = await get(`/admin/subscribers?q=${word}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`${word}.one@example.com`);
      expect(page.body).not.toContain("someone.else");
      const csv = await get(`/admin/subscribers/export.csv?q=${word}`);
      const lines = csv.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n");
      expect(lines).toHaveLength(3);
      expect(lines.some((line) => line.startsWith(`"'=cmd|${word}`))).toBe(true);
      const removed = await post(`/admin/subscribers/${one!.id}/remove`, {});
      expect(removed.statusCode).toBe(303);
      expect(
        await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, one!.id)),
      ).toHaveLength(0);
      expect((await post(`/admin/subscribers/${one!.id}/remove`, {})).statusCode).toBe(404);
      expect((await post("/admin/subscribers/nonsense/remove", {})).statusCode).toBe(404);
      const events = (
        await t.database.db
          .select()
          .from(auditEvents)
          .where(eq(auditEvents.actorId, member.staffId))
          .orderBy(auditEvents.id)
      ).filter((row) => row.action.startsWith("subscriber"));
      expect(events.map((row) => row.action)).toEqual(["subscribers-exported", "subscriber-removed"]);
      expect(events[1]).toMatchObject({ targetType: "subscriber", targetId: one!.id });
    });
  });

  describe("privacy", () => {
    it("is for admins: staff gets 403 and erases nothing", async () => {
      const enquiry = await enquiryAt();
      expect((await get("/admin/privacy")).statusCode).toBe(403);
      expect((await post("/admin/privacy/preview", { email: enquiry.email })).statusCode).toBe(403);
      expect((await post("/admin/privacy/erase", { email: enquiry.email, confirm: enquiry.email })).statusCode).toBe(
        403,
      );
      expect(await current(enquiry.id)).toBeDefined();
      // The navigation shows Privacy to admins alone.
      expect((await get("/admin")).body).not.toContain('href="/admin/privacy"');
      expect((await get("/admin", admin)).body).toContain('href="/admin/privacy"');
    });

    it("previews, then erases every enquiry, note, mail and subscription of an address, scrubbing the audit trail", async () => {
      const email = uniqueEmail("erase.me");
      const a = await enquiryAt({ email, firstName: "Erin", lastName: "Erasable" });
      const b = await enquiryAt({ email: email.toUpperCase(), firstName: "Erin", lastName: "Erasable" });
      const kept = await enquiryAt();
      await post(`/admin/enquiries/${a.id}/notes`, { note: "first" });
      await post(`/admin/enquiries/${b.id}/notes`, { note: "second" });
      await post(`/admin/enquiries/${a.id}`, { status: "contacted", version: 1 });
      const [subscriber] = await t.database.db.insert(newsletterSubscribers).values({ email }).returning();
      await post(`/admin/subscribers/${subscriber!.id}/remove`, {});
      await t.database.db.insert(newsletterSubscribers).values({ email });

      expect((await post("/admin/privacy/preview", { email: "not-an-address" }, admin)).statusCode).toBe(400);
      // The address travels in the body alone: a lookup in the URL is refused and finds nothing.
      const inUrl = await get(`/admin/privacy?email=${encodeURIComponent(email)}`, admin);
      expect(inUrl.statusCode).toBe(400);
      expect(inUrl.body).not.toContain("Enquiries: 2");
      const preview = await post("/admin/privacy/preview", { email }, admin);
      expect(preview.statusCode).toBe(200);
      expect(preview.body).toMatch(
        /Enquiries: 2<\/li><li>Notes: 2<\/li><li>Queued or sent mail: 2<\/li><li>Newsletter subscriptions: 1</,
      );
      // Preview deletes nothing; an erase without the preview's confirmation is refused.
      expect(await current(a.id)).toBeDefined();
      expect((await post("/admin/privacy/erase", { email }, admin)).statusCode).toBe(400);
      expect(await current(a.id)).toBeDefined();

      const erased = await post("/admin/privacy/erase", { email, confirm: email }, admin);
      expect(erased.statusCode).toBe(200);
      expect(erased.body).toMatch(
        /Enquiries: 2<\/li><li>Notes: 2<\/li><li>Queued or sent mail: 2<\/li><li>Newsletter subscriptions: 1</,
      );
      const db = t.database.db;
      expect(await db.select().from(contactSubmissions).where(eq(contactSubmissions.id, a.id))).toHaveLength(0);
      expect(await db.select().from(contactSubmissions).where(eq(contactSubmissions.id, b.id))).toHaveLength(0);
      expect(await db.select().from(contactSubmissions).where(eq(contactSubmissions.id, kept.id))).toHaveLength(1);
      expect(await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email))).toHaveLength(
        0,
      );
      expect(await db.select().from(enquiryNotes).where(eq(enquiryNotes.submissionId, a.id))).toHaveLength(0);
      // Nothing in the audit trail names the person any more; the events are still there.
      const events = await db.select().from(auditEvents).orderBy(auditEvents.id);
      const text = JSON.stringify(events).toLowerCase();
      expect(text).not.toContain(email);
      expect(text).not.toContain("erasable");
      const about = events.filter((row) => row.targetId === a.id || row.targetId === subscriber!.id);
      expect(about.map((row) => row.action)).toEqual([
        "enquiry-note-added",
        "enquiry-status-changed",
        "subscriber-removed",
      ]);
      expect(about.every((row) => row.targetLabel === null)).toBe(true);
      const erasure = events.find((row) => row.action === "erasure");
      expect(erasure).toMatchObject({
        actorId: admin.staffId,
        details: { enquiries: 2, notes: 2, mail: 2, subscriptions: 1 },
      });
      // A second erasure finds nothing.
      const again = await post("/admin/privacy/erase", { email, confirm: email }, admin);
      expect(again.body).toMatch(/Enquiries: 0</);
    });
  });
});
