import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { formBody } from "../../../../test/enquiry-fixtures.ts";
import { SUBSCRIBER_STATES } from "#shared/admin/subscriber-states.ts";
import { auditEvents, newsletterSubscribers, SUBSCRIBER_STATUSES, type SubscriberStatus } from "../../db/schema.ts";

// /admin/subscribers with the newsletter's states: each address's state and when it changed (in
// India time), the counts per state, the state filter in the URL (with the search, the pages and
// the export), the proof of consent and the bounce's reason, and lifting a bounce (admins only;
// every refusal changes nothing).

let people = 0;
const uniqueEmail = (name: string) => `${name}.subs.${(people += 1)}@example.com`;
let words = 0;
/** A word only one test's addresses carry, so that a search finds just them. */
const uniqueWord = () => `zs${(words += 1).toString(36)}y${Math.random().toString(36).slice(2, 7)}`;

it("names the same states as the database's check", () => {
  expect([...SUBSCRIBER_STATES]).toEqual([...SUBSCRIBER_STATUSES]);
});

describe.each(testDrivers)("the subscribers page on %s", (driver) => {
  let t: AdminTestApp;
  let admin: StaffWithSession;
  let member: StaffWithSession;
  beforeAll(async () => {
    t = await buildAdminTestApp(driver);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    admin = await staffWithSession(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
  });

  const get = (url: string, who: StaffWithSession = member) =>
    t.send({ method: "GET", url, cookie: who.cookie, headers: { accept: "text/html" } });
  const post = (url: string, who: StaffWithSession | undefined, headers: Record<string, string> = {}) =>
    t.send({
      method: "POST",
      url,
      cookie: who?.cookie,
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
      payload: formBody({}),
    });
  const stored = async (id: string) =>
    (await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id)))[0];

  /** An address in a state, changed at a given time. */
  async function subscriber(
    email: string,
    status: SubscriberStatus,
    changedAt: Date,
    extra: Partial<typeof newsletterSubscribers.$inferInsert> = {},
  ) {
    const [row] = await t.database.db
      .insert(newsletterSubscribers)
      .values({ email, status, statusChangedAt: changedAt, ...extra })
      .returning();
    return row!;
  }

  /** The counts the page shows at the top, by state label. */
  function countsOf(html: string): Record<string, number> {
    const nav = /<nav aria-label="Subscribers by state"[^]*?<\/nav>/.exec(html)?.[0] ?? "";
    return Object.fromEntries(
      [...nav.matchAll(/>(All|Pending|Confirmed|Unsubscribed|Bouncing): (\d+)</g)].map((m) => [m[1], Number(m[2])]),
    );
  }

  /** The table's row of an address. */
  function rowOf(html: string, email: string): string {
    const row = [...html.matchAll(/<tr>[^]*?<\/tr>/g)].map((m) => m[0]).find((each) => each.includes(email));
    if (!row) throw new Error(`no row for ${email}`);
    return row;
  }

  it("shows each address's state as a word, when it changed in India time, and the counts per state", async () => {
    const before = countsOf((await get("/admin/subscribers")).body);
    const word = uniqueWord();
    const at = (iso: string) => new Date(iso);
    await subscriber(`${word}.pending@example.com`, "pending", at("2026-11-20T04:00:00Z"));
    await subscriber(`${word}.confirmed@example.com`, "confirmed", at("2026-11-21T09:15:00Z"), {
      confirmedAt: at("2026-11-21T09:15:00Z"),
      consentPage: "/blog",
      consentText: "Send me the Insights newsletter. I can unsubscribe at any time.",
    });
    await subscriber(`${word}.gone@example.com`, "unsubscribed", at("2026-11-22T18:40:00Z"));
    await subscriber(`${word}.bounce@example.com`, "bouncing", at("2026-11-22T20:00:00Z"), {
      bounceReason: "550 5.1.1 No such user here",
    });

    const page = await get(`/admin/subscribers?q=${word}`);
    expect(page.statusCode).toBe(200);
    const after = countsOf(page.body);
    expect(after).toEqual({
      All: before.All! + 4,
      Pending: before.Pending! + 1,
      Confirmed: before.Confirmed! + 1,
      Unsubscribed: before.Unsubscribed! + 1,
      Bouncing: before.Bouncing! + 1,
    });
    const pending = rowOf(page.body, `${word}.pending@`);
    expect(pending).toContain('data-state="pending"');
    expect(pending).toContain("Pending");
    expect(pending).toContain("since 20 Nov 2026, 09:30 IST");
    expect(pending).toContain("Not confirmed yet.");
    const confirmed = rowOf(page.body, `${word}.confirmed@`);
    expect(confirmed).toContain(">Confirmed<");
    expect(confirmed).toContain("since 21 Nov 2026, 14:45 IST");
    expect(confirmed).toContain("Consent given 21 Nov 2026, 14:45 IST on /blog.");
    // The wording is there on demand, in a disclosure.
    expect(confirmed).toMatch(/<details>[^]*Wording shown[^]*Send me the Insights newsletter/);
    const gone = rowOf(page.body, `${word}.gone@`);
    expect(gone).toContain(">Unsubscribed<");
    expect(gone).toContain("since 23 Nov 2026, 00:10 IST");
    const bouncing = rowOf(page.body, `${word}.bounce@`);
    expect(bouncing).toContain(">Bouncing<");
    expect(bouncing).toContain("Bounced: 550 5.1.1 No such user here");
    // Staff see no "Lift bounce"; an admin does, on the bouncing row alone.
    expect(page.body).not.toContain("Lift bounce");
    const asAdmin = await get(`/admin/subscribers?q=${word}`, admin);
    expect(rowOf(asAdmin.body, `${word}.bounce@`)).toContain("Lift bounce");
    expect(asAdmin.body.match(/>Lift bounce</g)).toHaveLength(1);
  });

  it("filters by state in the URL, with the search, the pages and the export", async () => {
    const word = uniqueWord();
    const now = t.clock.now;
    await subscriber(`${word}.a@example.com`, "confirmed", now);
    await subscriber(`${word}.b@example.com`, "confirmed", now);
    await subscriber(`${word}.c@example.com`, "pending", now);
    await subscriber(`other.${uniqueWord()}@example.com`, "confirmed", now);

    const confirmed = await get(`/admin/subscribers?state=confirmed&q=${word}`);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain(`${word}.a@example.com`);
    expect(confirmed.body).toContain(`${word}.b@example.com`);
    expect(confirmed.body).not.toContain(`${word}.c@example.com`);
    expect(confirmed.body).not.toContain("other.");
    // The filter is kept by the export link, and the chosen state is marked as the current one.
    expect(confirmed.body).toContain(`href="/admin/subscribers/export.csv?q=${word}&amp;state=confirmed"`);
    expect(confirmed.body).toMatch(/aria-current="page"[^>]*>Confirmed: \d+</);
    const pending = await get(`/admin/subscribers?state=pending&q=${word}`);
    expect(pending.body).toContain(`${word}.c@example.com`);
    expect(pending.body).not.toContain(`${word}.a@example.com`);
    expect((await get(`/admin/subscribers?state=bouncing&q=${word}`)).body).toContain("No subscribers match.");

    const csv = await get(`/admin/subscribers/export.csv?state=pending&q=${word}`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe('"Email","State","Changed","Subscribed","Confirmed","Consent page"');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      `"${word}.c@example.com","Pending","${now.toISOString()}","${(
        await t.database.db
          .select()
          .from(newsletterSubscribers)
          .where(eq(newsletterSubscribers.email, `${word}.c@example.com`))
      )[0]!.createdAt.toISOString()}","",""`,
    );
    const [exported] = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, member.staffId), eq(auditEvents.action, "subscribers-exported")));
    expect(exported?.details).toEqual({ rows: 1, searched: true, state: "pending" });
  });

  it("answers 400 naming an unknown state, a repeated one, in the page and the export", async () => {
    for (const [query, message] of [
      ["state=lapsed", /State &quot;lapsed&quot; is not one of pending, confirmed, unsubscribed, bouncing/],
      ["state=Confirmed", /State &quot;Confirmed&quot; is not one of/],
      ["state=confirmed&state=pending", /Give state once/],
      [`state=${"x".repeat(500)}`, new RegExp(`State &quot;${"x".repeat(40)}&quot; is not one of`)],
      ["state=%1B%5B31m", /State &quot;\\u001b\[31m&quot; is not one of/],
    ] as const) {
      const page = await get(`/admin/subscribers?${query}`);
      expect(page.statusCode, query).toBe(400);
      expect(page.body, query).toMatch(message);
      expect((await get(`/admin/subscribers/export.csv?${query}`)).statusCode, query).toBe(400);
    }
  });

  it("lets an admin lift a bounce: confirmed again, the reason cleared, the time set, audited, a notice", async () => {
    const email = uniqueEmail("bounced");
    const bounced = await subscriber(email, "bouncing", new Date("2026-11-01T00:00:00Z"), {
      confirmedAt: new Date("2026-10-01T00:00:00Z"),
      bounceReason: "550 mailbox unavailable",
    });
    t.clock.advance(60_000);
    const lifted = await post(`/admin/subscribers/${bounced.id}/lift`, admin);
    expect(lifted.statusCode).toBe(303);
    expect(lifted.headers.location).toBe("/admin/subscribers?notice=subscriber-bounce-lifted");
    expect(await stored(bounced.id)).toMatchObject({
      status: "confirmed",
      bounceReason: null,
      statusChangedAt: t.clock.now,
      // The proof of consent stays.
      confirmedAt: new Date("2026-10-01T00:00:00Z"),
    });
    const notice = await get(String(lifted.headers.location), admin);
    expect(notice.body).toContain("The bounce was lifted: the address is confirmed and gets the next newsletter.");
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetType, "subscriber"), eq(auditEvents.targetId, bounced.id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: "subscriber-bounce-lifted", actorId: admin.staffId, targetLabel: email });
    // A second lift finds nothing to lift.
    const again = await post(`/admin/subscribers/${bounced.id}/lift`, admin);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain("This address is confirmed, not bouncing: there is no bounce to lift.");
  });

  it("refuses a lift by staff (403), without a session, from another site (403), a malformed id (400), an unknown one (404) and a row not bouncing (409), changing nothing", async () => {
    const changedAt = new Date("2026-11-02T00:00:00Z");
    const bouncing = await subscriber(uniqueEmail("still.bouncing"), "bouncing", changedAt, {
      bounceReason: "550 no such user",
    });
    const unchanged = { status: "bouncing", bounceReason: "550 no such user", statusChangedAt: changedAt };
    const url = `/admin/subscribers/${bouncing.id}/lift`;

    expect((await post(url, member)).statusCode).toBe(403);
    const anonymous = await post(url, undefined);
    expect(anonymous.statusCode).toBe(303);
    expect(String(anonymous.headers.location)).toMatch(/^\/admin\/sign-in/);
    for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }] as Record<
      string,
      string
    >[]) {
      expect((await post(url, admin, headers)).statusCode, JSON.stringify(headers)).toBe(403);
    }
    for (const id of ["not-a-uuid", "'%20or%201=1", "1".repeat(90)]) {
      const malformed = await post(`/admin/subscribers/${id}/lift`, admin);
      expect(malformed.statusCode, id).toBe(400);
      expect(malformed.body).toContain("The subscriber&#x27;s id is malformed");
    }
    // A parameter longer than the router takes (100 characters) is a 404 before any handler.
    expect((await post(`/admin/subscribers/${"1".repeat(500)}/lift`, admin)).statusCode).toBe(404);
    expect((await post("/admin/subscribers/00000000-0000-4000-8000-000000000000/lift", admin)).statusCode).toBe(404);
    expect(await stored(bouncing.id)).toMatchObject(unchanged);

    for (const status of ["pending", "confirmed", "unsubscribed"] as const) {
      const row = await subscriber(uniqueEmail(status), status, changedAt);
      const refused = await post(`/admin/subscribers/${row.id}/lift`, admin);
      expect(refused.statusCode, status).toBe(409);
      expect(refused.body).toContain(`This address is ${status}, not bouncing`);
      expect(await stored(row.id), status).toMatchObject({ status, statusChangedAt: changedAt });
    }
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "subscriber-bounce-lifted"));
    expect(events.filter((row) => row.targetId === bouncing.id)).toHaveLength(0);
  });
});
