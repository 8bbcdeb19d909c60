import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  cookieFrom,
  freshClientAddress,
  heldTimer,
  joinByInvitation,
  type SignedIn,
  signInWithPasskey,
  staffWithSession,
  type StaffWithSession,
} from "../../../test/admin-fixtures.ts";
import { databaseFingerprint } from "../../../test/database-fingerprint.ts";
import { testDrivers } from "../../../test/databases.ts";
import {
  auditEvents,
  mailOutbox,
  passkeys,
  rateLimitWindows,
  staff,
  staffSessions,
  staffTokens,
} from "../db/schema.ts";
import { safeNextPath } from "./door/safe-next.ts";
import { hashSecret, SESSION_IDLE_MS, SESSION_MAX_MS } from "./door/sessions.ts";
import { createToken, inviteStaff } from "./staff/staff-repository.ts";

const HOUR = 3_600_000;

/** The actions recorded with one of these people as actor or target, in order. */
async function auditActions(t: AdminTestApp, ...people: StaffWithSession[]): Promise<string[]> {
  const ids = new Set(people.map((person) => person.staffId));
  const rows = await t.database.db.select().from(auditEvents).orderBy(auditEvents.id);
  return rows.filter((row) => ids.has(row.actorId ?? "") || ids.has(row.targetId ?? "")).map((row) => row.action);
}

let people = 0;
/** An address no other test of the file uses: the tests share one app and database. */
const uniqueEmail = (name: string) => `${name}.${(people += 1)}@example.com`;

describe("safeNextPath", () => {
  it.each([
    ["/admin/staff", "/admin/staff"],
    ["/admin/audit?action=sign-in", "/admin/audit?action=sign-in"],
    ["/admin", "/admin"],
    ["https://evil.example/admin", "/admin"],
    ["//evil.example/admin", "/admin"],
    ["/admin//evil.example", "/admin"],
    ["/\\evil.example", "/admin"],
    ["/adminx", "/admin"],
    ["/about", "/admin"],
    ["/admin/sign-in", "/admin"],
    ["javascript:alert(1)", "/admin"],
    ["/admin/\u0000", "/admin"],
  ])("%s gives %s", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});

describe.each(testDrivers)("the back office's door on %s", (driver) => {
  // One app and database for the file; each test has people of its own, signed in as a sign-in
  // would. The parts about passkeys and sessions make theirs by the real ceremony (withPasskeys).
  // Access to every route is walked from the route table in door/door.test.ts.
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
  /** An admin and a member of staff who joined by invitation with a software passkey, for each test of the block. */
  function withPasskeys(): { admin: SignedIn; member: SignedIn } {
    const people = {} as { admin: SignedIn; member: SignedIn };
    beforeEach(async () => {
      people.admin = await joinByInvitation(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
      people.member = await joinByInvitation(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
    });
    return people;
  }

  describe("access rules", () => {
    it("sends a visitor without a session from a page that does not exist to the sign-in page, with a local `next`", async () => {
      const html = await t.app.inject({ method: "GET", url: "/admin/no-such-page", headers: { accept: "text/html" } });
      expect(html.statusCode).toBe(303);
      expect(new URL(String(html.headers.location), t.origin).searchParams.get("next")).toBe("/admin/no-such-page");
    });

    it("answers the API without a session with 401, never a redirect", async () => {
      const response = await t.send({ method: "POST", url: "/admin/api/passkeys/registration-options", payload: {} });
      expect(response.statusCode).toBe(401);
    });

    it("a forged or unknown session cookie is no session", async () => {
      for (const cookie of [
        "staff_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "staff_session=../../etc",
        "staff_session=",
      ]) {
        expect((await t.app.inject({ method: "GET", url: "/admin", headers: { cookie } })).statusCode).toBe(303);
      }
      // The hash from the table is no cookie either: only the random ID is.
      const [row] = await t.database.db.select().from(staffSessions).limit(1);
      expect(
        (await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: `staff_session=${row!.idHash}` } }))
          .statusCode,
      ).toBe(303);
    });

    it("lets a signed-in member of staff in, and shows their name, the navigation and Sign out", async () => {
      const page = await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: member.cookie } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("Ravi Desai");
      expect(page.body).toContain(">Sign out</button>");
      for (const label of ["Enquiries", "Articles", "Subscribers", "Analytics"])
        expect(page.body).toContain(`>${label}</a>`);
      expect(page.body).not.toContain(">Staff</a>");
      expect(page.body).not.toContain(">Audit log</a>");
      const adminPage = await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: admin.cookie } });
      expect(adminPage.body).toContain(">Staff</a>");
      expect(adminPage.body).toContain(">Audit log</a>");
    });

    it("marks every answer private and unindexed, the sign-in page and redirects included", async () => {
      for (const request of [
        { url: "/admin/sign-in" },
        { url: "/admin" },
        { url: "/admin", headers: { cookie: admin.cookie } },
        { url: "/admin/staff", headers: { cookie: member.cookie } },
      ]) {
        const response = await t.app.inject({ method: "GET", ...request });
        expect(response.headers["cache-control"], request.url).toBe("no-store");
        expect(response.headers["x-robots-tag"], request.url).toContain("noindex");
        expect(response.headers["content-security-policy"], request.url).toContain("script-src 'self'");
      }
    });

    it("keeps /admin out of robots' reach and the sitemap", async () => {
      expect((await t.app.inject({ method: "GET", url: "/robots.txt" })).body).toContain("Disallow: /admin");
      expect((await t.app.inject({ method: "GET", url: "/sitemap.xml" })).body).not.toContain("/admin");
    });
  });

  describe("the session cookie", () => {
    const people = withPasskeys();

    it("is HttpOnly, SameSite=Strict, Path=/admin and Secure on https, holding a random ID whose SHA-256 alone is stored", async () => {
      const response = await signInWithPasskey(t, people.admin.authenticator);
      const setCookie = String(response.headers["set-cookie"]);
      expect(setCookie).toMatch(/^staff_session=[A-Za-z0-9_-]{43};/);
      for (const attribute of ["HttpOnly", "SameSite=Strict", "Path=/admin", "Secure"])
        expect(setCookie).toContain(attribute);
      expect(setCookie).not.toMatch(/Domain=/i);
      const id = cookieFrom(response.headers["set-cookie"]).split("=")[1]!;
      // 43 base64url characters: 256 random bits.
      expect(Buffer.from(id, "base64url")).toHaveLength(32);
      const rows = await t.database.db.select({ idHash: staffSessions.idHash }).from(staffSessions);
      expect(rows.map((row) => row.idHash)).toContain(hashSecret(id));
      expect(rows.map((row) => row.idHash)).not.toContain(id);
    });

    it("is not Secure when the site is served over http", async () => {
      const plain = await buildAdminTestApp(driver, { env: { SITE_URL: "http://localhost:3999" } });
      try {
        const joined = await joinByInvitation(plain, { email: "a@example.com", name: "A", role: "admin" });
        expect(joined.cookie).toMatch(/^staff_session=/);
        const response = await signInWithPasskey(plain, joined.authenticator);
        expect(String(response.headers["set-cookie"])).not.toContain("Secure");
      } finally {
        await plain.close();
      }
    });

    it("makes a new session at every sign-in", async () => {
      const first = cookieFrom((await signInWithPasskey(t, people.admin.authenticator)).headers["set-cookie"]);
      const second = cookieFrom((await signInWithPasskey(t, people.admin.authenticator)).headers["set-cookie"]);
      expect(first).not.toBe(second);
      expect(first).not.toBe(people.admin.cookie);
    });
  });

  describe("expiry", () => {
    it("ends a session after 12 hours without a request", async () => {
      t.clock.advance(SESSION_IDLE_MS - 60_000);
      expect((await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: admin.cookie } })).statusCode).toBe(
        200,
      );
      // The request just made counts as activity: 12 hours from it, not from the sign-in.
      t.clock.advance(SESSION_IDLE_MS - 60_000);
      expect((await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: admin.cookie } })).statusCode).toBe(
        200,
      );
      t.clock.advance(SESSION_IDLE_MS + 1000);
      expect((await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: admin.cookie } })).statusCode).toBe(
        303,
      );
    });

    it("ends a session 7 days after sign-in however active it is", async () => {
      for (let elapsed = 0; elapsed < SESSION_MAX_MS - 11 * HOUR; elapsed += 11 * HOUR) {
        t.clock.advance(11 * HOUR);
        expect(
          (await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: admin.cookie } })).statusCode,
        ).toBe(200);
      }
      t.clock.advance(11 * HOUR);
      expect((await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: admin.cookie } })).statusCode).toBe(
        303,
      );
    });
  });

  describe("signing out and disabling", () => {
    const people = withPasskeys();

    it("signing out ends the session on the server: the old cookie no longer works", async () => {
      const response = await t.send({ method: "POST", url: "/admin/sign-out", cookie: people.member.cookie });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe("/admin/sign-in?notice=signed-out");
      expect(String(response.headers["set-cookie"])).toContain("Max-Age=0");
      expect(
        (await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: people.member.cookie } })).statusCode,
      ).toBe(303);
      expect(await auditActions(t, people.member)).toContain("sign-out");
    });

    it("disabling a person ends every session of theirs at once, and their passkey no longer signs in", async () => {
      const second = cookieFrom((await signInWithPasskey(t, people.member.authenticator)).headers["set-cookie"]);
      const response = await t.send({
        method: "POST",
        url: `/admin/staff/${people.member.staffId}/disable`,
        cookie: people.admin.cookie,
      });
      expect(response.statusCode).toBe(303);
      for (const cookie of [people.member.cookie, second]) {
        expect((await t.app.inject({ method: "GET", url: "/admin", headers: { cookie } })).statusCode).toBe(303);
      }
      expect(
        await t.database.db.select().from(staffSessions).where(eq(staffSessions.staffId, people.member.staffId)),
      ).toEqual([]);
      expect((await signInWithPasskey(t, people.member.authenticator)).statusCode).toBe(401);
      const [event] = await t.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "staff-disabled"), eq(auditEvents.targetId, people.member.staffId)));
      expect(event).toMatchObject({
        actorId: people.admin.staffId,
        targetId: people.member.staffId,
        details: { sessionsEnded: 2 },
      });
    });

    it("an admin cannot disable themselves or the last admin", async () => {
      const response = await t.send({
        method: "POST",
        url: `/admin/staff/${people.admin.staffId}/disable`,
        cookie: people.admin.cookie,
      });
      expect(response.statusCode).toBe(409);
      expect(
        (await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: people.admin.cookie } })).statusCode,
      ).toBe(200);
    });

    it("an admin ends another person's sessions", async () => {
      const response = await t.send({
        method: "POST",
        url: `/admin/staff/${people.member.staffId}/end-sessions`,
        cookie: people.admin.cookie,
      });
      expect(response.statusCode).toBe(303);
      expect(
        (await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: people.member.cookie } })).statusCode,
      ).toBe(303);
      expect(await auditActions(t, people.member)).toContain("sessions-ended");
    });

    it("an unknown or malformed staff ID is a 404 that changes nothing", async () => {
      for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "' or 1=1 --"]) {
        const response = await t.send({
          method: "POST",
          url: `/admin/staff/${encodeURIComponent(id)}/disable`,
          cookie: people.admin.cookie,
        });
        expect(response.statusCode, id).toBe(404);
      }
    });
  });

  describe("one-time links", () => {
    it("an invitation works once: a second use gets a clear page (410) and creates nothing", async () => {
      const asha = uniqueEmail("asha");
      const { token } = await inviteStaff(
        t.database.db,
        { email: asha, name: "Asha Patel", role: "staff" },
        t.clock.now,
      );
      const page = await t.send({ method: "GET", url: `/admin/invite/${token}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("Asha Patel");
      expect(page.body).toMatch(/<button[^>]*>Create a passkey and sign in<\/button>/);
      const joined = await joinAgain(t, token);
      expect(joined.statusCode).toBe(200);
      const again = await t.send({ method: "GET", url: `/admin/invite/${token}` });
      expect(again.statusCode).toBe(410);
      expect(again.body).toContain("This invitation cannot be used");
      const replay = await joinAgain(t, token);
      expect(replay.statusCode).toBe(410);
      const [invited] = await t.database.db.select().from(staff).where(eq(staff.email, asha));
      expect(await t.database.db.select().from(passkeys).where(eq(passkeys.staffId, invited!.id))).toHaveLength(1);
    });

    it("an invitation expires after 24 hours", async () => {
      const { token } = await inviteStaff(
        t.database.db,
        { email: uniqueEmail("late"), name: "Late", role: "staff" },
        t.clock.now,
      );
      t.clock.advance(24 * HOUR + 1000);
      expect((await t.send({ method: "GET", url: `/admin/invite/${token}` })).statusCode).toBe(410);
      expect((await joinAgain(t, token)).statusCode).toBe(410);
    });

    it("a sign-in link works once, within 15 minutes, and signs in its person", async () => {
      const token = await createToken(t.database.db, member.staffId, "sign-in", t.clock.now);
      const page = await t.send({ method: "GET", url: `/admin/sign-in-link/${token}` });
      expect(page.statusCode).toBe(200);
      // Opening the link signs nobody in: a mail scanner may open it.
      expect(page.headers["set-cookie"]).toBeUndefined();
      const used = await t.send({ method: "POST", url: `/admin/sign-in-link/${token}` });
      expect(used.statusCode).toBe(303);
      expect(used.headers.location).toBe("/admin/account?notice=signed-in-by-link");
      const cookie = cookieFrom(used.headers["set-cookie"]);
      expect((await t.app.inject({ method: "GET", url: "/admin/account", headers: { cookie } })).body).toContain(
        "Ravi Desai",
      );
      const twice = await t.send({ method: "POST", url: `/admin/sign-in-link/${token}` });
      expect(twice.statusCode).toBe(410);
      expect(twice.headers["set-cookie"]).toBeUndefined();

      const late = await createToken(t.database.db, member.staffId, "sign-in", t.clock.now);
      t.clock.advance(15 * 60_000 + 1000);
      const expired = await t.send({ method: "POST", url: `/admin/sign-in-link/${late}` });
      expect(expired.statusCode).toBe(410);
      expect(expired.headers["set-cookie"]).toBeUndefined();
      const actions = await auditActions(t, member);
      expect(actions.filter((action) => action === "sign-in-link-used")).toHaveLength(1);
    });

    it("an invitation cannot be used as a sign-in link, nor a sign-in link as an invitation", async () => {
      const { token } = await inviteStaff(
        t.database.db,
        { email: uniqueEmail("mixed"), name: "Mixed", role: "staff" },
        t.clock.now,
      );
      expect((await t.send({ method: "POST", url: `/admin/sign-in-link/${token}` })).statusCode).toBe(410);
      const link = await createToken(t.database.db, member.staffId, "sign-in", t.clock.now);
      expect((await t.send({ method: "GET", url: `/admin/invite/${link}` })).statusCode).toBe(410);
    });

    it("stores only the hash of a link's token", async () => {
      const token = await createToken(t.database.db, member.staffId, "sign-in", t.clock.now);
      const hashes = (await t.database.db.select({ tokenHash: staffTokens.tokenHash }).from(staffTokens)).map(
        (row) => row.tokenHash,
      );
      expect(hashes).toContain(hashSecret(token));
      expect(hashes).not.toContain(token);
    });
  });

  describe("passkeys", () => {
    const people = withPasskeys();

    it("signs in with a registered passkey and records it", async () => {
      const response = await signInWithPasskey(t, people.member.authenticator);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ redirect: "/admin" });
      const [ravi] = await t.database.db.select().from(staff).where(eq(staff.id, people.member.staffId));
      expect(ravi!.lastSignInAt).toEqual(t.clock.now);
    });

    it("refuses an answer made for another origin, a replayed answer, a counter that went back, and no user verification", async () => {
      const options = (await t.send({ method: "POST", url: "/admin/api/sign-in/options", payload: {} })).json();
      const forged = people.member.authenticator.authenticate(options, { origin: "https://evil.example" });
      expect(
        (await t.send({ method: "POST", url: "/admin/api/sign-in", payload: { response: forged } })).statusCode,
      ).toBe(401);

      const fresh = (await t.send({ method: "POST", url: "/admin/api/sign-in/options", payload: {} })).json();
      const good = people.member.authenticator.authenticate(fresh);
      expect(
        (await t.send({ method: "POST", url: "/admin/api/sign-in", payload: { response: good } })).statusCode,
      ).toBe(200);
      const replayed = await t.send({ method: "POST", url: "/admin/api/sign-in", payload: { response: good } });
      expect(replayed.statusCode).toBe(401);
      expect(replayed.headers["set-cookie"]).toBeUndefined();

      const cloned = people.member.authenticator.authenticate(
        (await t.send({ method: "POST", url: "/admin/api/sign-in/options", payload: {} })).json(),
        { counter: 1 },
      );
      expect(
        (await t.send({ method: "POST", url: "/admin/api/sign-in", payload: { response: cloned } })).statusCode,
      ).toBe(401);

      const unverified = people.member.authenticator.authenticate(
        (await t.send({ method: "POST", url: "/admin/api/sign-in/options", payload: {} })).json(),
        { userVerified: false },
      );
      expect(
        (await t.send({ method: "POST", url: "/admin/api/sign-in", payload: { response: unverified } })).statusCode,
      ).toBe(401);

      const failures = await t.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "sign-in-failed"), eq(auditEvents.actorId, people.member.staffId)));
      expect(failures.length).toBe(4);
    });

    it("answers a malformed sign-in with 400 or 401, never 500", async () => {
      for (const payload of [
        {},
        { response: "x" },
        { response: { id: 5 } },
        { response: { id: "AAAA", response: {} } },
        { response: { id: "x".repeat(5000) } },
      ]) {
        const response = await t.send({ method: "POST", url: "/admin/api/sign-in", payload });
        expect([400, 401], JSON.stringify(payload).slice(0, 60)).toContain(response.statusCode);
      }
    });

    it("a person adds a second passkey and removes one, but not their last, nor anyone else's", async () => {
      const options = await t.send({
        method: "POST",
        url: "/admin/api/passkeys/registration-options",
        cookie: people.member.cookie,
        payload: {},
      });
      expect(options.statusCode).toBe(200);
      const added = await t.send({
        method: "POST",
        url: "/admin/api/passkeys/registration",
        cookie: people.member.cookie,
        payload: { response: people.member.authenticator.register(options.json()) },
      });
      expect(added.statusCode).toBe(200);
      const keys = await t.database.db.select().from(passkeys).where(eq(passkeys.staffId, people.member.staffId));
      expect(keys).toHaveLength(2);

      const adminKey = (
        await t.database.db.select().from(passkeys).where(eq(passkeys.staffId, people.admin.staffId))
      )[0]!;
      const theirs = await t.send({
        method: "POST",
        url: `/admin/account/passkeys/${encodeURIComponent(adminKey.id)}/remove`,
        cookie: people.member.cookie,
      });
      expect(theirs.statusCode).toBe(404);
      expect(
        await t.database.db.select().from(passkeys).where(eq(passkeys.staffId, people.admin.staffId)),
      ).toHaveLength(1);

      const removed = await t.send({
        method: "POST",
        url: `/admin/account/passkeys/${encodeURIComponent(keys[0]!.id)}/remove`,
        cookie: people.member.cookie,
      });
      expect(removed.statusCode).toBe(303);
      const last = await t.send({
        method: "POST",
        url: `/admin/account/passkeys/${encodeURIComponent(keys[1]!.id)}/remove`,
        cookie: people.member.cookie,
      });
      expect(last.statusCode).toBe(409);
      expect(
        await t.database.db.select().from(passkeys).where(eq(passkeys.staffId, people.member.staffId)),
      ).toHaveLength(1);
      const actions = await auditActions(t, people.member);
      expect(actions.filter((action) => action === "passkey-added")).toHaveLength(2);
      expect(actions.filter((action) => action === "passkey-removed")).toHaveLength(1);
    });
  });

  describe("staff management and the audit log", () => {
    const people = withPasskeys();

    it("an admin invites someone: the link is shown once, and the invitation is recorded", async () => {
      const email = uniqueEmail("asha");
      const response = await t.send({
        method: "POST",
        url: "/admin/staff/invite",
        cookie: people.admin.cookie,
        payload: { email: email.toUpperCase(), name: "Asha Patel", role: "staff" },
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(`Invitation created for ${email}`);
      expect(response.body).toContain("Mail is not configured: give them this link yourself.");
      const link = /value="(https:\/\/www\.example\.test\/admin\/invite\/[A-Za-z0-9_-]{43})"/.exec(response.body)?.[1];
      expect(link).toBeDefined();
      expect((await t.send({ method: "GET", url: new URL(link!).pathname })).body).toContain("Welcome, Asha Patel");
      // Shown once: the staff page afterwards has no link in it.
      expect(
        (await t.app.inject({ method: "GET", url: "/admin/staff", headers: { cookie: people.admin.cookie } })).body,
      ).not.toContain("/admin/invite/");
      const [event] = await t.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "invitation-created"), eq(auditEvents.targetLabel, email)));
      expect(event).toMatchObject({
        actorId: people.admin.staffId,
        actorLabel: "Meera Shah",
        clientAddress: expect.any(String),
      });
    });

    it.each([
      [{ email: "not-an-address", name: "X", role: "staff" }, "Enter a valid email address"],
      [{ email: "x@example.com", name: "", role: "staff" }, "Name is required"],
      [{ email: "x@example.com", name: "Line\nbreak", role: "staff" }, "Name must be a single line of text"],
      [{ email: "x@example.com", name: "Nul\u0000", role: "staff" }, "Name must not contain control characters"],
      [{ email: "x@example.com", name: "X", role: "owner" }, "Choose a role: admin or staff."],
    ])("refuses an invitation with %j: 400 naming the problem, nothing stored", async (payload, message) => {
      const response = await t.send({
        method: "POST",
        url: "/admin/staff/invite",
        cookie: people.admin.cookie,
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(message);
      expect(await t.database.db.select().from(staff).where(eq(staff.email, "x@example.com"))).toEqual([]);
    });

    it("an admin disables and enables someone again; both are in the audit log, which filters by action and person", async () => {
      await t.send({
        method: "POST",
        url: `/admin/staff/${people.member.staffId}/disable`,
        cookie: people.admin.cookie,
      });
      const enabled = await t.send({
        method: "POST",
        url: `/admin/staff/${people.member.staffId}/enable`,
        cookie: people.admin.cookie,
      });
      expect(enabled.statusCode).toBe(303);
      expect((await signInWithPasskey(t, people.member.authenticator)).statusCode).toBe(200);
      expect(await auditActions(t, people.member)).toEqual(expect.arrayContaining(["staff-disabled", "staff-enabled"]));

      const log = await t.app.inject({
        method: "GET",
        url: `/admin/audit?action=staff-enabled&actor=${people.admin.staffId}`,
        headers: { cookie: people.admin.cookie },
      });
      expect(log.statusCode).toBe(200);
      const rows = [...log.body.matchAll(/<tr><td[^>]*>[^<]+<\/td><td[^>]*>([^<]+)<\/td><td[^>]*>([^<]+)<\/td>/g)].map(
        (match) => [match[1], match[2]],
      );
      expect(rows).toEqual([["Meera Shah", "staff-enabled"]]);
      // An unknown action, person or page is ignored; a date that is not one is named.
      const odd = await t.app.inject({
        method: "GET",
        url: "/admin/audit?action=%3Cscript%3E&actor=x&page=-3",
        headers: { cookie: people.admin.cookie },
      });
      expect(odd.statusCode).toBe(200);
      expect(odd.body).not.toContain("<script>");
      for (const date of ["2026-02-30", "0000-01-01", "9999-12-31", "20261-01-01"]) {
        const bad = await t.app.inject({
          method: "GET",
          url: `/admin/audit?from=${date}`,
          headers: { cookie: people.admin.cookie },
        });
        expect(bad.statusCode, date).toBe(400);
        expect(bad.body).toContain("From must be a date like 2026-11-23.");
      }
    });
  });

  describe("rate limits", () => {
    const people = withPasskeys();

    it("limits sign-in attempts per client address", async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 12; attempt += 1) {
        const response = await t.send({
          method: "POST",
          url: "/admin/api/sign-in",
          payload: { response: { id: "unknown" } },
          remoteAddress: "203.0.113.7",
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
      // Another client is not held back by it.
      const other = await signInWithPasskey(t, people.member.authenticator);
      expect(other.statusCode).toBe(200);
    });

    it("limits sign-in attempts per account, from any number of addresses", async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 11; attempt += 1) {
        const options = (
          await t.send({
            method: "POST",
            url: "/admin/api/sign-in/options",
            payload: {},
            remoteAddress: `198.51.100.${attempt}`,
          })
        ).json();
        const response = people.member.authenticator.authenticate(options, { origin: "https://evil.example" });
        statuses.push(
          (
            await t.send({
              method: "POST",
              url: "/admin/api/sign-in",
              payload: { response },
              remoteAddress: `198.51.100.${attempt}`,
            })
          ).statusCode,
        );
      }
      expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
      expect(statuses[10]).toBe(429);
      // The account's owner is held back too until the window passes: that is the point.
      expect((await signInWithPasskey(t, people.member.authenticator)).statusCode).toBe(429);
    });

    it("limits attempts at one-time links per client address", async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 11; attempt += 1) {
        statuses.push(
          (
            await t.app.inject({
              method: "GET",
              url: `/admin/sign-in-link/${"A".repeat(43)}`,
              remoteAddress: "203.0.113.9",
            })
          ).statusCode,
        );
      }
      expect(statuses.slice(0, 10).every((status) => status === 410)).toBe(true);
      expect(statuses[10]).toBe(429);
    });
  });
});

describe.each(testDrivers)("sign-in links by email on %s", (driver) => {
  let t: AdminTestApp;
  afterEach(async () => {
    await t.close();
  });

  const withMail = { SMTP_URL: "smtp://127.0.0.1:1", MAIL_FROM: "site@example.com", MAIL_TO: "firm@example.com" };

  it("answers the same whether or not the address belongs to anyone, and queues a mail only for staff", async () => {
    const timer = heldTimer();
    t = await buildAdminTestApp(driver, { env: withMail, queuedWorkTimer: timer.start });
    const joined = await joinByInvitation(t, { email: "meera@example.com", name: "Meera Shah", role: "admin" });
    const page = await t.app.inject({ method: "GET", url: "/admin/sign-in" });
    expect(page.body).toMatch(/<button[^>]*>Email me a sign-in link<\/button>/);
    expect(page.body).toMatch(/<button[^>]*>Sign in with a passkey<\/button>/);
    const known = await t.send({
      method: "POST",
      url: "/admin/sign-in/email",
      payload: { email: "Meera@Example.com" },
    });
    const unknown = await t.send({
      method: "POST",
      url: "/admin/sign-in/email",
      payload: { email: "nobody@example.com" },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    const notice = (body: string) => /<p role="status"[^>]*>([^<]+)<\/p>/.exec(body)?.[1];
    expect(notice(known.body)).toBe(notice(unknown.body));
    expect(notice(known.body)).toContain("If that address belongs to a member of staff");
    await timer.turn();
    const mail = await t.database.db.select().from(mailOutbox);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: "staff-sign-in-link", recipient: "meera@example.com", submissionId: null });
    expect(mail[0]!.payload?.link).toMatch(/^https:\/\/www\.example\.test\/admin\/sign-in-link\/[A-Za-z0-9_-]{43}$/);
    expect(joined.cookie).toBeTruthy();
  });

  it("leaves the work to the timer: a staff address's ask and the asker's next request write what an unknown's do", async () => {
    const timer = heldTimer();
    t = await buildAdminTestApp(driver, { env: withMail, queuedWorkTimer: timer.start });
    const member = await staffWithSession(t, { name: "Meera Shah", role: "admin" });
    const db = t.database.db;
    const windows = async () => (await db.select().from(rateLimitWindows)).length;
    const before = { tables: await databaseFingerprint(db), windows: await windows() };
    // Each asker, as the review measured, asks and then sends its next request at once.
    for (const email of [member.email, "nobody@example.com"]) {
      const asker = freshClientAddress();
      const asked = await t.send({
        method: "POST",
        url: "/admin/sign-in/email",
        payload: { email },
        remoteAddress: asker,
      });
      expect(asked.statusCode).toBe(200);
      expect((await t.app.inject({ method: "GET", url: "/healthz", remoteAddress: asker })).statusCode).toBe(200);
    }
    // Longer than the work takes when it follows its answer; the timer's work waits for its turn.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The same for both askers: the route's limit counted each ask (a window per client), and
    // nothing was looked up, limited, made, queued or recorded for the staff address.
    expect(await windows()).toBe(before.windows + 2);
    expect(await databaseFingerprint(db)).toEqual(before.tables);
    // The timer's turn does the work: the staff address's link is made, queued and recorded.
    await timer.turn();
    expect(await db.select({ recipient: mailOutbox.recipient }).from(mailOutbox)).toEqual([
      { recipient: member.email },
    ]);
    expect(await db.select().from(staffTokens).where(eq(staffTokens.staffId, member.staffId))).toHaveLength(1);
    expect(await db.select().from(auditEvents).where(eq(auditEvents.action, "sign-in-link-created"))).toHaveLength(1);
    expect(await windows()).toBe(before.windows + 4);
  });

  it("is not offered, and answers 404, when the site sends no mail", async () => {
    t = await buildAdminTestApp(driver);
    expect((await t.app.inject({ method: "GET", url: "/admin/sign-in" })).body).not.toContain(
      "Email me a sign-in link",
    );
    expect(
      (await t.send({ method: "POST", url: "/admin/sign-in/email", payload: { email: "a@example.com" } })).statusCode,
    ).toBe(404);
  });
});

/** Accepts an invitation with a new software passkey; the registration's answer. */
async function joinAgain(t: AdminTestApp, token: string) {
  const { SoftAuthenticator } = await import("../../../test/soft-authenticator.ts");
  const authenticator = new SoftAuthenticator({ origin: t.origin, rpId: new URL(t.origin).hostname });
  const options = await t.send({
    method: "POST",
    url: "/admin/api/passkeys/registration-options",
    payload: { invitation: token },
  });
  if (options.statusCode !== 200) return options;
  return t.send({
    method: "POST",
    url: "/admin/api/passkeys/registration",
    payload: { invitation: token, response: authenticator.register(options.json()) },
  });
}
