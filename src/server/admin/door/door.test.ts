import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  cookieFrom,
  joinByInvitation,
  type SignedIn,
} from "../../../../test/admin-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { SoftAuthenticator } from "../../../../test/soft-authenticator.ts";
import { adminHref, type AdminRouteName, adminRoutes } from "#shared/admin/routes.ts";
import { STUDIO_DOCUMENT_BODY_LIMIT } from "#shared/content/documents.ts";
import { auditEvents, mailOutbox, passkeys, staff } from "../../db/schema.ts";
import { inviteStaff } from "../staff/staff-repository.ts";

// The door, walked from the route table: every route of src/shared/admin/routes.ts answers a
// request without a session, from another site, from a member of staff on an admin route, or
// from one without "Can publish" on a publisher route with a clear 4xx (or the sign-in page) and
// changes nothing. Then the review's findings about
// the door itself: attempts, not page views, are limited; a sign-in link cannot be silenced or
// timed; `next` cannot make a 500; a passkey cannot be registered twice; a role changes only by
// its own action.

const names = Object.keys(adminRoutes) as AdminRouteName[];
const someId = "00000000-0000-4000-8000-000000000000";
const someToken = "A".repeat(43);

/** The route's address with made-up parameters. */
function sampleHref(name: AdminRouteName): string {
  const path = adminRoutes[name].path;
  return path
    .replace(":id", someId)
    .replace(":token", someToken)
    .replace(":linkId", someId)
    .replace(":revisionId", "1");
}

let people = 0;
const uniqueEmail = (name: string) => `${name}.door.${(people += 1)}@example.com`;

describe.each(testDrivers)("the door, from the route table, on %s", (driver) => {
  let t: AdminTestApp;
  let admin: SignedIn;
  let member: SignedIn;
  const held: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, {
      env: { SMTP_URL: "smtp://127.0.0.1:1", MAIL_FROM: "site@example.com", MAIL_TO: "firm@example.com" },
      afterAnswer: (work) => held.push(work),
    });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    admin = await joinByInvitation(t, { email: uniqueEmail("meera"), name: "Meera Shah", role: "admin" });
    member = await joinByInvitation(t, { email: uniqueEmail("ravi"), name: "Ravi Desai", role: "staff" });
  });

  const auditCount = async () => (await t.database.db.select({ n: count() }).from(auditEvents))[0]!.n;

  it.each(names.filter((name) => adminRoutes[name].access !== "public"))(
    "%s without a session: the sign-in page (or 401 for JSON), nothing changed",
    async (name) => {
      const route = adminRoutes[name];
      const before = await auditCount();
      const response = await t.send({ method: route.method, url: sampleHref(name), payload: {} });
      if ("json" in route && route.json) expect(response.statusCode).toBe(401);
      else {
        expect(response.statusCode).toBe(303);
        expect(String(response.headers.location)).toMatch(/^\/admin\/sign-in/);
      }
      expect(await auditCount()).toBe(before);
    },
  );

  it.each(names.filter((name) => adminRoutes[name].access === "admin"))(
    "%s as a member of staff who is not an admin: 403, nothing changed",
    async (name) => {
      const route = adminRoutes[name];
      const before = await auditCount();
      const response = await t.send({
        method: route.method,
        url: sampleHref(name),
        cookie: member.cookie,
        payload: {},
      });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain("This part of the back office is for admins.");
      expect(await auditCount()).toBe(before);
    },
  );

  it.each(names.filter((name) => adminRoutes[name].access === "publisher"))(
    "%s as a member of staff without Can publish: 403, nothing changed; with it, past the door",
    async (name) => {
      const route = adminRoutes[name];
      const before = await auditCount();
      const response = await t.send({
        method: route.method,
        url: sampleHref(name),
        cookie: member.cookie,
        payload: {},
      });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain(
        "Publishing needs an admin, or a member of staff an admin has allowed to publish.",
      );
      expect(await auditCount()).toBe(before);
      // Allowed to publish (from their next request), the same request reaches the route: no such
      // item where the path names one; else the route's own answer to an empty form (a form page,
      // a refused form), never the door's refusal.
      const pastTheDoor = (statusCode: number) => {
        if (route.path.includes("/:")) expect(statusCode).toBe(404);
        else {
          expect(statusCode).not.toBe(403);
          expect(statusCode).toBeLessThan(500);
        }
      };
      await t.database.db.update(staff).set({ canPublish: true }).where(eq(staff.id, member.staffId));
      const allowed = await t.send({ method: route.method, url: sampleHref(name), cookie: member.cookie, payload: {} });
      pastTheDoor(allowed.statusCode);
      const byAdmin = await t.send({ method: route.method, url: sampleHref(name), cookie: admin.cookie, payload: {} });
      pastTheDoor(byAdmin.statusCode);
      expect(await auditCount()).toBe(before);
    },
  );

  it.each(names.filter((name) => adminRoutes[name].method === "POST"))(
    "%s posted from another site, even by an admin: 403, nothing changed",
    async (name) => {
      const before = await auditCount();
      for (const headers of [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }, { origin: "" }]) {
        const response = await t.app.inject({
          method: "POST",
          url: sampleHref(name),
          headers: { ...headers, cookie: admin.cookie },
          payload: {},
        });
        expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      }
      expect(await auditCount()).toBe(before);
    },
  );

  it.each(names.filter((name) => adminRoutes[name].path.includes(":id") && adminRoutes[name].access !== "public"))(
    "%s naming nobody (a malformed or unknown id): a clear 4xx, never a 500",
    async (name) => {
      const route = adminRoutes[name];
      const cookie = route.access === "admin" || route.access === "publisher" ? admin.cookie : member.cookie;
      for (const id of [someId, "not-a-uuid", "1 or 1=1", "%00"]) {
        const url = route.path.replace(":id", id).replace(":linkId", id).replace(":revisionId", id);
        const response = await t.send({ method: route.method, url, cookie, payload: { version: "1", role: "staff" } });
        expect(response.statusCode, `${url}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${url}`).toBeLessThan(500);
      }
    },
  );

  it("turns away a client without the right before reading its body: a large studio body without Can publish is not a 413", async () => {
    const body = `title=x&body=${"x".repeat(STUDIO_DOCUMENT_BODY_LIMIT)}`;
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const refused = await t.send({
      method: "POST",
      url: sampleHref("articlePublish"),
      cookie: member.cookie,
      headers,
      payload: body,
    });
    expect(refused.statusCode).toBe(403);
    const admitted = await t.send({
      method: "POST",
      url: sampleHref("articlePublish"),
      cookie: admin.cookie,
      headers,
      payload: body,
    });
    expect(admitted.statusCode).toBe(413);
    expect(admitted.json().message).toBe(`The body is larger than the limit of ${STUDIO_DOCUMENT_BODY_LIMIT} bytes.`);
  });

  it("turns away a client without the right before reading its body: no session or a staff role is not a 413", async () => {
    const body = `note=${"x".repeat(200_000)}`;
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const signedOut = await t.send({ method: "POST", url: sampleHref("enquiryNote"), headers, payload: body });
    expect(signedOut.statusCode).toBe(303);
    const notAdmin = await t.send({
      method: "POST",
      url: sampleHref("staffInvite"),
      cookie: member.cookie,
      headers,
      payload: body,
    });
    expect(notAdmin.statusCode).toBe(403);
    // With the right, the same body is read and refused for its size.
    const admitted = await t.send({
      method: "POST",
      url: sampleHref("staffInvite"),
      cookie: admin.cookie,
      headers,
      payload: body,
    });
    expect(admitted.statusCode).toBe(413);
  });

  it("registers every route of the table, and nothing answers a path that is not in it", async () => {
    const unknown = await t.send({ method: "GET", url: "/admin/not-in-the-table", cookie: admin.cookie });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain("There is no such page in the back office.");
    // Signing out last would end the session the others need.
    for (const name of names.filter((route) => route !== "signOut")) {
      const route = adminRoutes[name];
      const response = await t.send({ method: route.method, url: sampleHref(name), cookie: admin.cookie, payload: {} });
      expect(response.body, name).not.toContain("There is no such page in the back office.");
    }
  });

  it("counts failed attempts, not page views: 25 people behind one address accept their invitations at the defaults", async () => {
    const office = "198.51.100.25";
    for (let person = 0; person < 25; person += 1) {
      const { token } = await inviteStaff(
        t.database.db,
        { email: uniqueEmail(`office${person}`), name: `Person ${person}`, role: "staff" },
        t.clock.now,
      );
      // Opening the link twice (a mail scanner, then the person) is not an attempt.
      for (let look = 0; look < 2; look += 1) {
        expect(
          (await t.send({ method: "GET", url: adminHref("invitation", { token }), remoteAddress: office })).statusCode,
        ).toBe(200);
      }
      const authenticator = new SoftAuthenticator({ origin: t.origin, rpId: new URL(t.origin).hostname });
      const options = await t.send({
        method: "POST",
        url: adminHref("registrationOptions"),
        payload: { invitation: token },
        remoteAddress: office,
      });
      expect(options.statusCode, `person ${person}`).toBe(200);
      const registered = await t.send({
        method: "POST",
        url: adminHref("registration"),
        payload: { invitation: token, response: authenticator.register(options.json()) },
        remoteAddress: office,
      });
      expect(registered.statusCode, `person ${person}`).toBe(200);
    }
    // Failures still count: ten unknown links from one address, then 429.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      statuses.push(
        (
          await t.send({
            method: "GET",
            url: adminHref("invitation", { token: someToken }),
            remoteAddress: "198.51.100.26",
          })
        ).statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((status) => status === 410)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("answers a sign-in link request at once, the same for anyone, and sends the link after the answer", async () => {
    held.length = 0;
    const mailBefore = (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, admin.email)))
      .length;
    const known = await t.send({ method: "POST", url: adminHref("signInEmail"), payload: { email: admin.email } });
    const unknown = await t.send({
      method: "POST",
      url: adminHref("signInEmail"),
      payload: { email: "nobody@example.com" },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    // Nothing was looked up or queued before the answer: its time says nothing about the address.
    expect((await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, admin.email))).length).toBe(
      mailBefore,
    );
    expect(held).toHaveLength(2);
    for (const work of held.splice(0)) await work();
    expect((await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, admin.email))).length).toBe(
      mailBefore + 1,
    );
  });

  it("cannot be silenced from elsewhere: three requests from another address leave the person's own to be sent", async () => {
    held.length = 0;
    const mail = async () =>
      (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, member.email))).length;
    for (let request = 0; request < 4; request += 1) {
      await t.send({
        method: "POST",
        url: adminHref("signInEmail"),
        payload: { email: member.email },
        remoteAddress: "203.0.113.66",
      });
    }
    for (const work of held.splice(0)) await work();
    expect(await mail()).toBe(3);
    await t.send({
      method: "POST",
      url: adminHref("signInEmail"),
      payload: { email: member.email },
      remoteAddress: "192.0.2.10",
    });
    for (const work of held.splice(0)) await work();
    expect(await mail()).toBe(4);
  });

  it("holds `next` to a plain path of the back office: a tab, a line break or U+2028 is no 500", async () => {
    for (const next of [
      "/admin/staff\u2028x",
      "/admin/staff\tx",
      "/admin/staff\nx",
      "/admin/staff\r\nSet-Cookie: a=b",
      "/admin/\u00e9",
    ]) {
      const url = `${adminHref("signIn")}?next=${encodeURIComponent(next)}`;
      const signedIn = await t.send({ method: "GET", url, cookie: member.cookie });
      expect(signedIn.statusCode, JSON.stringify(next)).toBe(303);
      expect(signedIn.headers.location).toBe("/admin");
      const signedOut = await t.send({ method: "GET", url });
      expect(signedOut.statusCode, JSON.stringify(next)).toBe(200);
      expect(signedOut.body).not.toContain("\u2028");
    }
  });

  it("refuses a passkey whose credential ID is already registered with 409, changing nothing", async () => {
    const [existing] = await t.database.db.select().from(passkeys).where(eq(passkeys.staffId, admin.staffId));
    const options = await t.send({
      method: "POST",
      url: adminHref("registrationOptions"),
      cookie: member.cookie,
      payload: {},
    });
    const response = member.authenticator.register(options.json(), {
      credentialId: Buffer.from(existing!.id, "base64url"),
    });
    const answer = await t.send({
      method: "POST",
      url: adminHref("registration"),
      cookie: member.cookie,
      payload: { response },
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ error: "Conflict" });
    const [after] = await t.database.db.select().from(passkeys).where(eq(passkeys.id, existing!.id));
    expect(after!.staffId).toBe(admin.staffId);
  });

  it("changes a role only by its own audited action: inviting an existing member again leaves it", async () => {
    const again = await t.send({
      method: "POST",
      url: adminHref("staffInvite"),
      cookie: admin.cookie,
      payload: { email: member.email, name: "Someone Else", role: "admin" },
    });
    expect(again.statusCode).toBe(200);
    const [unchanged] = await t.database.db.select().from(staff).where(eq(staff.id, member.staffId));
    expect(unchanged).toMatchObject({ role: "staff", name: "Ravi Desai" });
    // Their open session is still a member of staff's.
    expect((await t.send({ method: "GET", url: adminHref("staff"), cookie: member.cookie })).statusCode).toBe(403);

    const changed = await t.send({
      method: "POST",
      url: adminHref("staffRole", { id: member.staffId }),
      cookie: admin.cookie,
      payload: { role: "admin" },
    });
    expect(changed.statusCode).toBe(303);
    expect(changed.headers.location).toBe("/admin/staff?notice=role-changed");
    expect((await t.send({ method: "GET", url: adminHref("staff"), cookie: member.cookie })).statusCode).toBe(200);
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "staff-role-changed"))
      .orderBy(auditEvents.id);
    expect(event).toMatchObject({
      actorId: admin.staffId,
      targetId: member.staffId,
      details: { from: "staff", to: "admin" },
    });

    const bad = await t.send({
      method: "POST",
      url: adminHref("staffRole", { id: member.staffId }),
      cookie: admin.cookie,
      payload: { role: "owner" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("Choose a role: admin or staff.");
  });
});

describe.each(testDrivers)("the last admin on %s", (driver) => {
  it("cannot be made staff or disabled", async () => {
    const t = await buildAdminTestApp(driver);
    try {
      const only = await joinByInvitation(t, { email: "only@example.com", name: "Only Admin", role: "admin" });
      const other = await joinByInvitation(t, { email: "other@example.com", name: "Other", role: "admin" });
      // One admin disables the other; the last one left cannot be demoted by anyone.
      expect(
        (
          await t.send({
            method: "POST",
            url: adminHref("staffDisable", { id: other.staffId }),
            cookie: only.cookie,
            payload: {},
          })
        ).statusCode,
      ).toBe(303);
      const demoted = await t.send({
        method: "POST",
        url: adminHref("staffRole", { id: only.staffId }),
        cookie: only.cookie,
        payload: { role: "staff" },
      });
      expect(demoted.statusCode).toBe(409);
      expect(demoted.body).toContain("That is the only admin");
      const [row] = await t.database.db.select().from(staff).where(eq(staff.id, only.staffId));
      expect(row!.role).toBe("admin");
      expect(cookieFrom).toBeTypeOf("function");
    } finally {
      await t.close();
    }
  });
});
