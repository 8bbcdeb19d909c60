import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  cookieFrom,
  heldTimer,
  joinByInvitation,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { databaseFingerprint } from "../../../../test/database-fingerprint.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { SoftAuthenticator } from "../../../../test/soft-authenticator.ts";
import { adminHref, type AdminRouteName, adminRoutes } from "#shared/admin/routes.ts";
import { EMPTY_CLIENT_LOGO } from "#shared/content/testimonials.ts";
import { appendTestimonialRevision } from "../../content/testimonials.ts";
import { STUDIO_DOCUMENT_BODY_LIMIT } from "#shared/content/documents.ts";
import {
  auditEvents,
  blogPosts,
  contactSubmissions,
  contentLinks,
  contentRevisions,
  mailOutbox,
  media,
  newsletters,
  newsletterSubscribers,
  passkeys,
  projects,
  staff,
  teamMembers,
  testimonials,
  clientLogos,
  backupRuns,
  searchSynonyms,
} from "../../db/schema.ts";
import { inviteStaff } from "../staff/staff-repository.ts";

// The door, walked from the route table: the one place where access to every area of the back
// office is tested. Every route of src/shared/admin/routes.ts answers a request without a session,
// from another site (six ways), from a member of staff on an admin route, from one without "Can
// publish" on a publisher route, and naming a malformed or unknown id or another kind's item,
// with a clear 4xx (or the sign-in page), and changes nothing in any table (a digest of every row
// before and after). A new route is walked by being in the table: no test to add, and no passkey
// registered for it. Then the review's findings about the door itself: attempts, not page views,
// are limited; a sign-in link cannot be silenced or timed; `next` cannot make a 500; a passkey
// cannot be registered twice; a role changes only by its own action.

const names = Object.keys(adminRoutes) as AdminRouteName[];
const someId = "00000000-0000-4000-8000-000000000000";
const someToken = "A".repeat(43);

/** The route's address with made-up parameters: it names nothing that exists. */
function sampleHref(name: AdminRouteName): string {
  const path = adminRoutes[name].path;
  return path
    .replace(":id", someId)
    .replace(":token", someToken)
    .replace(":linkId", someId)
    .replace(":revisionId", "1");
}

/**
 * What the `:id` of a path names: the path's segment before it ("/admin/articles/:id/publish" →
 * "articles"). The walk keeps one real item of each, so that "changes nothing" is about something.
 */
function kindOf(name: AdminRouteName): string {
  const segments = adminRoutes[name].path.split("/");
  const at = segments.indexOf(":id");
  if (at < 1) throw new Error(`${name} names no :id`);
  return segments[at - 1]!;
}

let people = 0;
const uniqueEmail = (name: string) => `${name}.door.${(people += 1)}@example.com`;

/** Every request the walk judges from another site, even with an admin's session. */
const otherSites = [
  { name: "another Origin", headers: { origin: "https://evil.example" } },
  { name: "Origin null", headers: { origin: "null" } },
  { name: "an empty Origin", headers: { origin: "" } },
  { name: "no Origin and no Sec-Fetch-Site", headers: {} },
  { name: "Sec-Fetch-Site: cross-site", headers: { "sec-fetch-site": "cross-site" } },
  {
    name: "Sec-Fetch-Site: same-site with the right Origin",
    headers: { "sec-fetch-site": "same-site", origin: "https://www.example.test" },
  },
];

describe.each(testDrivers)("the door, from the route table, on %s", (driver) => {
  let t: AdminTestApp;
  // Made once for the file, signed in as a sign-in would (no passkey ceremony): the walk below
  // costs a request per route, not a registration. Nothing in the walk changes them.
  let admin: StaffWithSession;
  let member: StaffWithSession;
  let publisher: StaffWithSession;
  /** One real item of each kind a path's :id names, and the article's and project's link and revision. */
  const real: Record<string, string> = {};
  const links: Record<string, string> = {};
  const revisions: Record<string, string> = {};
  const timer = heldTimer();
  beforeAll(async () => {
    t = await buildAdminTestApp(driver, {
      content: true,
      env: { SMTP_URL: "smtp://127.0.0.1:1", MAIL_FROM: "site@example.com", MAIL_TO: "firm@example.com" },
      queuedWorkTimer: timer.start,
    });
    admin = await staffWithSession(t, { name: "Meera Shah", role: "admin" });
    member = await staffWithSession(t, { name: "Ravi Desai", role: "staff" });
    publisher = await staffWithSession(t, { name: "Asha Patel", role: "staff", canPublish: true });
    const db = t.database.db;
    const [article] = await db.select({ id: blogPosts.id }).from(blogPosts).limit(1);
    const [project] = await db.select({ id: projects.id }).from(projects).limit(1);
    const [teamMember] = await db.select({ id: teamMembers.id }).from(teamMembers).limit(1);
    const [testimonial] = await db.select({ id: testimonials.id }).from(testimonials).limit(1);
    // The seed has no client logo: one made as the back office makes one, with a first revision.
    const [clientLogo] = await db.insert(clientLogos).values({ status: "draft" }).returning({ id: clientLogos.id });
    await appendTestimonialRevision(db, {
      kind: "client-logo",
      itemId: clientLogo!.id,
      document: EMPTY_CLIENT_LOGO,
      source: "studio",
      author: { id: null, label: "door walk" },
    });
    const [picture] = await db.select({ id: media.id }).from(media).limit(1);
    const [enquiry] = await db
      .insert(contactSubmissions)
      .values({ firstName: "Asha", lastName: "Patel", email: "asha@example.com", message: "A grid study, please." })
      .returning({ id: contactSubmissions.id });
    const [subscriber] = await db
      .insert(newsletterSubscribers)
      .values({ email: "reader@example.com", status: "bouncing" })
      .returning({ id: newsletterSubscribers.id });
    const [newsletter] = await db
      .insert(newsletters)
      .values({ subject: "November", campaign: "2026-11-november-door", createdBy: admin.staffId })
      .returning({ id: newsletters.id });
    await db.insert(passkeys).values({
      id: "door-walk-passkey",
      staffId: member.staffId,
      publicKey: Buffer.from("not a key"),
      deviceType: "singleDevice",
      label: "Chrome on Linux",
    });
    // A finished backup whose archive is not on the disk: the download answers 404 even to an admin.
    const [backup] = await db
      .insert(backupRuns)
      .values({
        trigger: "command",
        requestedBy: "door walk",
        status: "done",
        fileName: "site-2026-11-01T000000Z.tar.gz",
      })
      .returning({ id: backupRuns.id });
    const [synonyms] = await db
      .insert(searchSynonyms)
      .values({ terms: ["door walk", "walk of the door"], createdByLabel: "door walk" })
      .returning({ id: searchSynonyms.id });
    Object.assign(real, {
      "search-synonyms": synonyms!.id,
      backups: String(backup!.id),
      articles: article!.id,
      projects: project!.id,
      team: teamMember!.id,
      testimonials: testimonial!.id,
      "client-logos": clientLogo!.id,
      media: picture!.id,
      enquiries: enquiry!.id,
      subscribers: subscriber!.id,
      newsletters: newsletter!.id,
      staff: member.staffId,
      passkeys: "door-walk-passkey",
    });
    for (const kind of ["articles", "projects"] as const) {
      const item = kind === "articles" ? { articleId: real.articles } : { projectId: real.projects };
      const [link] = await db
        .insert(contentLinks)
        .values({
          ...item,
          tokenHash: `door-walk-${kind}`,
          kind: "share",
          createdByLabel: "Meera Shah",
          expiresAt: new Date(t.clock.now.getTime() + 86_400_000),
        })
        .returning({ id: contentLinks.id });
      links[kind] = link!.id;
      const [revision] = await db
        .select({ id: contentRevisions.id })
        .from(contentRevisions)
        .where(eq(kind === "articles" ? contentRevisions.articleId : contentRevisions.projectId, real[kind]!))
        .limit(1);
      revisions[kind] = String(revision!.id);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  /** The route's address naming the walk's real items (those of `kind`, when given: another kind's). */
  function realHref(name: AdminRouteName, kind?: string): string {
    const path = adminRoutes[name].path;
    if (!path.includes(":")) return path;
    const own = path.includes(":id") ? kindOf(name) : "";
    const named = kind ?? own;
    const id = real[named];
    if (path.includes(":id") && !id) throw new Error(`the walk has no ${named} for ${name}: add one to \`real\``);
    return path
      .replace(":id", id ?? "")
      .replace(":token", someToken)
      .replace(":linkId", links[own] ?? someId)
      .replace(":revisionId", revisions[own] ?? "1");
  }

  /**
   * A form that passes every area's validation where it can (zod keeps the fields a form names and
   * drops the rest): a refusal is then the door's or the id's, not a missing field's.
   */
  const completeForm = () => ({
    title: "Harmonic study for a 40 MW plant",
    slug: "",
    excerpt: "What we found.",
    category: "Utilities",
    body: "A paragraph.",
    description: "A project.",
    year: "2025",
    name: "Kiran Rao",
    role: "staff",
    email: "kiran@example.com",
    note: "Called back.",
    status: "contacted",
    subject: "Hijacked",
    introduction: "Nothing.",
    alt: "A substation at dusk.",
    direction: "up",
    canPublish: "true",
    when: "now",
    version: "1",
    recipients: "1",
    baseRevisionId: revisions.articles ?? "1",
  });

  const fingerprint = () => databaseFingerprint(t.database.db);

  /**
   * The answer of a route the door let a request through to, naming nothing (sampleHref): no such
   * item where the path names one; else the route's own answer to an empty form (a form page, a
   * refused form), never the door's refusal.
   */
  const pastTheDoor = (name: AdminRouteName, response: { statusCode: number }) => {
    if (adminRoutes[name].path.includes("/:")) expect(response.statusCode, name).toBe(404);
    else {
      expect(response.statusCode, name).not.toBe(403);
      expect(response.statusCode, name).toBeLessThan(500);
    }
  };

  it.each(names.filter((name) => adminRoutes[name].access !== "public"))(
    "%s without a session: the sign-in page (or 401 for JSON), nothing changed",
    async (name) => {
      const route = adminRoutes[name];
      const before = await fingerprint();
      const url = realHref(name);
      const response = await t.send({ method: route.method, url, payload: completeForm() });
      if ("json" in route && route.json) expect(response.statusCode).toBe(401);
      else {
        expect(response.statusCode).toBe(303);
        const location = String(response.headers.location);
        expect(location).toMatch(/^\/admin\/sign-in/);
        // A page asked for comes back after signing in; a post goes to the back office's start.
        if (route.method === "GET" && url !== "/admin")
          expect(new URL(location, t.origin).searchParams.get("next")).toBe(url);
      }
      if (route.method === "GET") {
        const json = await t.app.inject({ method: "GET", url, headers: { accept: "application/json" } });
        expect(json.statusCode).toBe(401);
        expect(json.json()).toMatchObject({ error: "Unauthorized" });
      }
      expect(await fingerprint()).toEqual(before);
    },
  );

  it.each(names.filter((name) => adminRoutes[name].access === "admin"))(
    "%s as a member of staff, or one who may publish, who is not an admin: 403, nothing changed",
    async (name) => {
      const route = adminRoutes[name];
      const before = await fingerprint();
      for (const person of [member, publisher]) {
        const response = await t.send({
          method: route.method,
          url: realHref(name),
          cookie: person.cookie,
          payload: completeForm(),
        });
        expect(response.statusCode).toBe(403);
        expect(response.body).toContain("This part of the back office is for admins.");
      }
      expect(await fingerprint()).toEqual(before);
      // An admin is let past the door (naming nothing, so that nothing changes).
      pastTheDoor(
        name,
        await t.send({ method: route.method, url: sampleHref(name), cookie: admin.cookie, payload: {} }),
      );
    },
  );

  it.each(names.filter((name) => adminRoutes[name].access === "publisher"))(
    "%s as a member of staff without Can publish: 403, nothing changed; with it, past the door",
    async (name) => {
      const route = adminRoutes[name];
      const before = await fingerprint();
      const response = await t.send({
        method: route.method,
        url: realHref(name),
        cookie: member.cookie,
        payload: completeForm(),
      });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain(
        "Publishing needs an admin, or a member of staff an admin has allowed to publish.",
      );
      expect(await fingerprint()).toEqual(before);
      // Allowed to publish, the same request reaches the route.
      for (const person of [publisher, admin])
        pastTheDoor(
          name,
          await t.send({ method: route.method, url: sampleHref(name), cookie: person.cookie, payload: {} }),
        );
      expect(await fingerprint()).toEqual(before);
    },
  );

  it.each(names.filter((name) => adminRoutes[name].access === "staff" && adminRoutes[name].method === "GET"))(
    "%s lets any member of staff in: the page for the walk's items (or its own 4xx), never the door's refusal or a 500",
    async (name) => {
      const response = await t.send({ method: "GET", url: realHref(name), cookie: member.cookie });
      expect(response.statusCode).toBeLessThan(500);
      expect([401, 403]).not.toContain(response.statusCode);
      expect(String(response.headers.location ?? "")).not.toMatch(/^\/admin\/sign-in/);
    },
  );

  it.each(names.filter((name) => adminRoutes[name].access !== "public" && adminRoutes[name].method === "GET"))(
    "%s with a control character in any filter it could read: a clear 4xx or the page, never a 500",
    async (name) => {
      // PostgreSQL refuses a NUL in text: a filter passed on to a query answered 500 (the review's
      // /admin/articles?q=%00). Every field a back-office GET form has, each given a NUL.
      const fields = [
        "q",
        "status",
        "owner",
        "service",
        "from",
        "to",
        "action",
        "actor",
        "page",
        "show",
        "focus",
        "state",
        "range",
        "refused",
        "publishedAt",
      ];
      // One field at a time: a form refused for another field would not reach the query.
      for (const field of fields) {
        const url = `${realHref(name)}?${field}=a%00b`;
        const response = await t.send({ method: "GET", url, cookie: admin.cookie });
        expect(response.statusCode, url).toBeLessThan(500);
      }
    },
  );

  it.each(names.filter((name) => adminRoutes[name].method === "POST"))(
    "%s posted from another site, even by an admin: 403, nothing changed",
    async (name) => {
      const before = await fingerprint();
      for (const { name: how, headers } of otherSites) {
        const response = await t.app.inject({
          method: "POST",
          url: realHref(name),
          headers: { ...headers, cookie: admin.cookie },
          payload: completeForm(),
        });
        expect(response.statusCode, how).toBe(403);
      }
      expect(await fingerprint()).toEqual(before);
    },
  );

  it("accepts a change with Sec-Fetch-Site: same-origin alone", async () => {
    const leaving = await staffWithSession(t, { name: "Leaving Soon", role: "staff" });
    const response = await t.app.inject({
      method: "POST",
      url: adminHref("signOut"),
      headers: { cookie: leaving.cookie, "sec-fetch-site": "same-origin" },
    });
    expect(response.statusCode).toBe(303);
    expect((await t.app.inject({ method: "GET", url: "/admin", headers: { cookie: leaving.cookie } })).statusCode).toBe(
      303,
    );
  });

  it.each(names.filter((name) => adminRoutes[name].path.includes(":id") && adminRoutes[name].access !== "public"))(
    "%s naming nothing it may name (a malformed or unknown id, or another kind's item): a clear 4xx, nothing changed",
    async (name) => {
      const route = adminRoutes[name];
      const cookie = route.access === "staff" ? member.cookie : admin.cookie;
      const own = kindOf(name);
      const before = await fingerprint();
      const wrongIds = ["not-a-uuid", "1 or 1=1", "%00", `${real[own]}x`, someId];
      const urls = [
        ...wrongIds.map((id) => realHref(name).replace(real[own]!, id)),
        // Another kind's real item: an article's id is no project, nor a member of staff.
        ...Object.keys(real)
          .filter((kind) => kind !== own)
          .map((kind) => realHref(name, kind)),
      ];
      for (const url of urls) {
        const response = await t.send({ method: route.method, url, cookie, payload: completeForm() });
        expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, url).toBeLessThan(500);
      }
      expect(await fingerprint()).toEqual(before);
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

  it("answers a sign-in link request at once, the same for anyone, and sends the link at the timer's turn", async () => {
    await timer.turn();
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
    // Nothing was looked up or queued before the timer's turn: no time says anything about the address.
    expect((await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, admin.email))).length).toBe(
      mailBefore,
    );
    await timer.turn();
    expect((await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, admin.email))).length).toBe(
      mailBefore + 1,
    );
  });

  it("cannot be silenced from elsewhere: three requests from another address leave the person's own to be sent", async () => {
    await timer.turn();
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
    await timer.turn();
    expect(await mail()).toBe(3);
    await t.send({
      method: "POST",
      url: adminHref("signInEmail"),
      payload: { email: member.email },
      remoteAddress: "192.0.2.10",
    });
    await timer.turn();
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
    // Two people with passkeys made by the real ceremony.
    const first = await joinByInvitation(t, { email: uniqueEmail("neha"), name: "Neha Joshi", role: "admin" });
    const second = await joinByInvitation(t, { email: uniqueEmail("vikram"), name: "Vikram Rao", role: "staff" });
    const [existing] = await t.database.db.select().from(passkeys).where(eq(passkeys.staffId, first.staffId));
    const options = await t.send({
      method: "POST",
      url: adminHref("registrationOptions"),
      cookie: second.cookie,
      payload: {},
    });
    const response = second.authenticator.register(options.json(), {
      credentialId: Buffer.from(existing!.id, "base64url"),
    });
    const answer = await t.send({
      method: "POST",
      url: adminHref("registration"),
      cookie: second.cookie,
      payload: { response },
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ error: "Conflict" });
    const [after] = await t.database.db.select().from(passkeys).where(eq(passkeys.id, existing!.id));
    expect(after!.staffId).toBe(first.staffId);
  });

  it("changes a role only by its own audited action: inviting an existing member again leaves it", async () => {
    // People of its own: the walk's member of staff must stay one.
    const member = await staffWithSession(t, { name: "Ravi Desai", role: "staff" });
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
