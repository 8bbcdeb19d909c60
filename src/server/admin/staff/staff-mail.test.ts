import { afterEach, describe, expect, it } from "vitest";
import { cookieFrom, freshClientAddress, heldTimer } from "../../../../test/admin-fixtures.ts";
import { testAdminRenderer } from "../../../../test/build-test-app.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../../test/databases.ts";
import { SmtpPeer } from "../../../../test/smtp-peer.ts";
import { SoftAuthenticator } from "../../../../test/soft-authenticator.ts";
import { eq } from "drizzle-orm";
import { parseConfig } from "../../config.ts";
import { auditEvents, mailOutbox } from "../../db/schema.ts";
import { type Site, startSite } from "../../site.ts";
import { inviteStaff } from "./staff-repository.ts";

// Staff mail through the real outbox and a real SMTP peer: a sign-in link asked for on the
// sign-in page, and an invitation made on the Staff page, arrive with a link that works; asks for
// a person's link from other addresses leave the person's own ask to be sent.

describe.each(testDrivers)("staff mail on %s", (driver) => {
  let site: Site | undefined;
  let peer: SmtpPeer | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await site?.close();
    await peer?.stop();
    await database?.drop();
    site = peer = database = undefined;
  });

  it(
    "sends a sign-in link asked for by email, and an invitation made by an admin; the links work and are not kept",
    { timeout: 60_000 },
    async () => {
      peer = await SmtpPeer.start();
      database = await createTestDatabase(driver, { from: "empty" });
      const siteUrl = "https://www.example.test";
      const config = parseConfig({
        NODE_ENV: "test",
        SITE_URL: siteUrl,
        SMTP_URL: peer.url,
        MAIL_FROM: "site@example.test",
        MAIL_TO: "firm@example.test",
      });
      site = await startSite({
        config,
        database: { ...database, close: async () => {} },
        syncContent: false,
        adminRenderer: testAdminRenderer(),
        outboxOptions: { pollIntervalMs: 100 },
      });
      const headers = { origin: siteUrl };

      const { token, member } = await inviteStaff(
        database.db,
        { email: "meera@example.com", name: "Meera Shah", role: "admin" },
        new Date(),
      );
      const authenticator = new SoftAuthenticator({ origin: siteUrl, rpId: "www.example.test" });
      const options = await site.app.inject({
        method: "POST",
        url: "/admin/api/passkeys/registration-options",
        headers,
        payload: { invitation: token },
        remoteAddress: freshClientAddress(),
      });
      const joined = await site.app.inject({
        method: "POST",
        url: "/admin/api/passkeys/registration",
        headers,
        payload: { invitation: token, response: authenticator.register(options.json()) },
        remoteAddress: freshClientAddress(),
      });
      const cookie = cookieFrom(joined.headers["set-cookie"]);

      const asked = await site.app.inject({
        method: "POST",
        url: "/admin/sign-in/email",
        headers,
        payload: { email: "meera@example.com" },
        remoteAddress: freshClientAddress(),
      });
      expect(asked.statusCode).toBe(200);
      await expect.poll(() => peer!.messages.length, { timeout: 10_000 }).toBe(1);
      const linkMail = peer.messages[0]!;
      expect(linkMail.to).toEqual(["meera@example.com"]);
      expect(linkMail.headers.get("subject")?.[0]).toContain("sign-in link");
      const link = /https:\/\/www\.example\.test(\/admin\/sign-in-link\/[A-Za-z0-9_-]{43})/.exec(linkMail.body)?.[1];
      expect(link).toBeDefined();
      expect(
        (await site.app.inject({ method: "GET", url: link!, remoteAddress: freshClientAddress() })).statusCode,
      ).toBe(200);

      const invited = await site.app.inject({
        method: "POST",
        url: "/admin/staff/invite",
        headers: { ...headers, cookie },
        payload: { email: "ravi@example.com", name: "Ravi Desai", role: "staff" },
      });
      expect(invited.statusCode).toBe(200);
      expect(invited.body).toContain("Invitation created");
      expect(invited.body).toContain("It has been emailed to them.");
      await expect.poll(() => peer!.messages.length, { timeout: 10_000 }).toBe(2);
      const invitation = peer.messages[1]!;
      expect(invitation.to).toEqual(["ravi@example.com"]);
      expect(invitation.body).toContain("Hello Ravi Desai");
      const invitationLink = /https:\/\/www\.example\.test(\/admin\/invite\/[A-Za-z0-9_-]{43})/.exec(
        invitation.body,
      )?.[1];
      expect(
        (await site.app.inject({ method: "GET", url: invitationLink!, remoteAddress: freshClientAddress() })).body,
      ).toContain("Welcome, Ravi Desai");

      // Once sent, a link is a credential nobody needs to keep: the outbox forgets it.
      await expect
        .poll(async () => (await database!.db.select().from(mailOutbox)).map((row) => [row.status, row.payload]))
        .toEqual([
          ["sent", null],
          ["sent", null],
        ]);
      expect(member.email).toBe("meera@example.com");
    },
  );

  it(
    "sends the person the link they ask for from their own address after others asked for it from four addresses",
    { timeout: 60_000 },
    async () => {
      peer = await SmtpPeer.start();
      database = await createTestDatabase(driver, { from: "empty" });
      const siteUrl = "https://www.example.test";
      const timer = heldTimer();
      site = await startSite({
        config: parseConfig({
          NODE_ENV: "test",
          SITE_URL: siteUrl,
          SMTP_URL: peer.url,
          MAIL_FROM: "site@example.test",
          MAIL_TO: "firm@example.test",
        }),
        database: { ...database, close: async () => {} },
        syncContent: false,
        adminRenderer: testAdminRenderer(),
        outboxOptions: { pollIntervalMs: 100 },
        queuedWorkTimer: timer.start,
      });
      const app = site.app;
      const ask = (remoteAddress: string) =>
        app.inject({
          method: "POST",
          url: "/admin/sign-in/email",
          headers: { origin: siteUrl },
          payload: { email: "meera@example.com" },
          remoteAddress,
        });
      const linksQueued = async () =>
        (await database!.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "staff-sign-in-link"))).length;
      await inviteStaff(database.db, { email: "meera@example.com", name: "Meera Shah", role: "admin" }, new Date());

      // Someone who knows her address asks for her link from four addresses, as often as each may.
      const attackers = ["198.51.100.1", "198.51.100.2", "198.51.100.3", "2001:db8:66::1"];
      for (const address of attackers) {
        for (let request = 0; request < 4; request += 1) expect((await ask(address)).statusCode).toBe(200);
      }
      await timer.turn();
      // At most three an hour from each address: the form floods no inbox from one address.
      const theirs = await linksQueued();
      expect(theirs).toBeLessThanOrEqual(3 * attackers.length);
      await expect.poll(() => peer!.messages.length, { timeout: 10_000 }).toBe(theirs);

      // Meera, at home, asks for one: it is sent, and it signs her in.
      expect((await ask("192.0.2.44")).statusCode).toBe(200);
      await timer.turn();
      expect(await linksQueued()).toBe(theirs + 1);
      await expect.poll(() => peer!.messages.length, { timeout: 10_000 }).toBe(theirs + 1);
      const mail = peer.messages[theirs]!;
      expect(mail.to).toEqual(["meera@example.com"]);
      const link = /https:\/\/www\.example\.test(\/admin\/sign-in-link\/[A-Za-z0-9_-]{43})/.exec(mail.body)?.[1];
      expect(link).toBeDefined();
      const used = await app.inject({
        method: "POST",
        url: link!,
        headers: { origin: siteUrl },
        remoteAddress: "192.0.2.44",
      });
      expect(used.statusCode).toBe(303);
      expect(used.headers.location).toBe("/admin/account?notice=signed-in-by-link");
      // The audit trail says which address asked for each link.
      const created = await database.db
        .select({ clientAddress: auditEvents.clientAddress })
        .from(auditEvents)
        .where(eq(auditEvents.action, "sign-in-link-created"));
      expect(created.filter((event) => event.clientAddress === "192.0.2.44")).toHaveLength(1);
    },
  );
});
