import { afterEach, describe, expect, it } from "vitest";
import { testAdminRenderer } from "../../../test/build-test-app.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { SmtpPeer } from "../../../test/smtp-peer.ts";
import { parseConfig } from "../config.ts";
import { newsletters, newsletterSubscribers, staff } from "../db/schema.ts";
import { generateSecret, sharedSetting } from "../db/settings.ts";
import { type Site, startSite } from "../site.ts";
import { sendNewsletter } from "./queue.ts";
import { subscriberOfUnsubscribeToken } from "./tokens.ts";

// The site starts the newsletter sender when mail is configured, signs the unsubscribe links with
// the same secret as the rest of the site (the one stored in the database when FORM_SECRET is
// not set), sends a queued newsletter, and stops it on close.

describe.each(testDrivers)("the site's newsletter sender on %s", (driver) => {
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
    "is started with mail, sends with the site's secret, and is not started without mail",
    { timeout: 60_000 },
    async () => {
      peer = await SmtpPeer.start();
      database = await createTestDatabase(driver, { from: "empty" });
      const siteUrl = "https://www.example.test";
      const mailConfig = { NODE_ENV: "test", SITE_URL: siteUrl, SMTP_URL: peer.url, MAIL_FROM: "site@example.test" };
      site = await startSite({
        config: parseConfig({ ...mailConfig, MAIL_TO: "firm@example.test", NEWSLETTER_PER_MINUTE: "600" }),
        database: { ...database, close: async () => {} },
        syncContent: false,
        adminRenderer: testAdminRenderer(),
        newsletterOptions: { pollIntervalMs: 100 },
      });
      expect(site.newsletterSender).toBeDefined();
      const [admin] = await database.db
        .insert(staff)
        .values({ email: "admin@example.test", name: "Admin", role: "admin", webauthnUserId: "site-sender-admin" })
        .returning({ id: staff.id });
      const [subscriber] = await database.db
        .insert(newsletterSubscribers)
        .values({ email: "reader@example.com", status: "confirmed" })
        .returning({ id: newsletterSubscribers.id });
      const [newsletter] = await database.db
        .insert(newsletters)
        .values({ subject: "Hello", introduction: "News.", campaign: "site-test" })
        .returning({ id: newsletters.id });
      await sendNewsletter(database.db, {
        newsletterId: newsletter!.id,
        expectedVersion: 1,
        actor: { id: admin!.id, label: "Admin" },
        now: new Date(),
      });
      site.newsletterSender!.wake();
      const [mail] = await peer.waitForMessages(1);
      const link = /<([^>]+)>/.exec(mail!.headers.get("list-unsubscribe")![0]!)![1]!;
      const secret = await sharedSetting(database.db, "form-secret", generateSecret);
      expect(subscriberOfUnsubscribeToken(secret, link.slice(`${siteUrl}/newsletter/unsubscribe/`.length))).toBe(
        subscriber!.id,
      );
      await site.close();

      site = await startSite({
        config: parseConfig({ NODE_ENV: "test", SITE_URL: siteUrl }),
        database: { ...database, close: async () => {} },
        syncContent: false,
        adminRenderer: testAdminRenderer(),
      });
      expect(site.newsletterSender).toBeUndefined();
    },
  );
});
