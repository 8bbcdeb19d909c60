import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { addArticle, articleDocument } from "../../../../test/content-fixtures.ts";
import { testDrivers } from "../../../../test/databases.ts";
import { SmtpPeer } from "../../../../test/smtp-peer.ts";
import { publishRevision } from "../../content/publishing.ts";
import { appendRevision } from "../../content/revisions.ts";
import { type Database, openDatabase, queryRows } from "../../db/client.ts";
import { backupRuns, healthAlerts, mailOutbox, newsletters, projects, staff } from "../../db/schema.ts";
import { HEALTH_ALERT_KIND } from "../../mail/health-email.ts";
import { OutboxWorker } from "../../mail/outbox-worker.ts";
import { createSmtpTransport } from "../../mail/smtp-transport.ts";
import { recordHealthAlerts } from "./health-alerts.ts";
import { startHealthChecks } from "./health-checks.ts";
import { databaseClock, evaluateHealth, healthLines, type HealthSettings } from "./health-queries.ts";

// The Health page (/admin/health, admins) and its alerts, on both databases: each line's green and
// red as the rules say (a stale backup, a failed drill, no backup; mail waiting and refused; an
// article due but not public on an instance whose clock is behind; the disks), who may open it,
// the banner on every page while mail fails, and the alert mails: one per admin when a line turns
// red, none again within the day, one a day later, "all clear" on recovery, once however many
// instances record at the same moment. Then the SMTP peer refusing, through the real outbox worker.

const HOUR = 3_600_000;
const MINUTE = 60_000;
const silent = pino({ level: "silent" });

/** The page's text, tags dropped and entities read. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** A line's section of the page. */
function section(html: string, line: string): string {
  const found = new RegExp(`<section [^>]*data-health-line="${line}"[^]*?</section>`).exec(html)?.[0];
  if (!found) throw new Error(`no section for ${line}`);
  return found;
}
/** The state a section's badge says. */
const stateOf = (html: string, line: string) => /data-health-state="(\w+)"/.exec(section(html, line))?.[1];

describe.each(testDrivers)("the Health page on %s", (driver) => {
  const alertRows = async () =>
    (
      await t.database.db
        .select({ recipient: mailOutbox.recipient, payload: mailOutbox.payload })
        .from(mailOutbox)
        .where(eq(mailOutbox.kind, HEALTH_ALERT_KIND))
    ).map((row) => ({ to: row.recipient, state: row.payload?.state, line: row.payload?.line }));
  let t: AdminTestApp;
  let folder: string;
  let admin: StaffWithSession;
  let settings: HealthSettings;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "health-"));
    t = await buildAdminTestApp(driver, {
      startAt: new Date(),
      env: {
        DATA_DIR: path.join(folder, "data"),
        BACKUP_DIR: path.join(folder, "backups"),
        SMTP_URL: "smtp://127.0.0.1:2525",
        MAIL_FROM: "website@sabarmatigrid.example",
        MAIL_TO: "enquiries@sabarmatigrid.example",
      },
    });
    settings = {
      dataDir: folder,
      backupDir: path.join(folder, "backups"),
      backupTime: "02:30",
      backupScheduled: true,
      offsite: false,
      mailConfigured: true,
    };
  });
  afterAll(async () => {
    await t.close();
    await rm(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    // Each test's backups, mail and alerts alone; the clocks agree.
    t.clock.now = await databaseClock(t.database.db);
    await t.database.db.delete(backupRuns);
    await t.database.db.delete(mailOutbox);
    await t.database.db.delete(healthAlerts);
    await t.database.db.update(staff).set({ disabledAt: new Date() }).where(eq(staff.role, "admin"));
    admin = await staffWithSession(t, { name: "Meera Shah", role: "admin" });
  });

  const page = async (who: StaffWithSession = admin) => {
    const answer = await t.send({
      method: "GET",
      url: "/admin/health",
      cookie: who.cookie,
      headers: { accept: "text/html" },
    });
    expect(answer.statusCode).toBe(200);
    return answer.body;
  };
  const ago = (ms: number) => new Date(t.clock.now.getTime() - ms);

  /** A backup that ended `finishedAgo` ago, done (and drilled, unless said) or failed. */
  async function backup(finishedAgo: number, extra: Partial<typeof backupRuns.$inferInsert> = {}) {
    const finishedAt = ago(finishedAgo);
    await t.database.db.insert(backupRuns).values({
      trigger: "scheduled",
      requestedBy: "web-1",
      startedAt: new Date(finishedAt.getTime() - 2 * MINUTE),
      finishedAt,
      status: "done",
      fileName: "site-test.tar.gz",
      bytes: 14_200_000,
      drillStatus: "passed",
      drillAt: finishedAt,
      drillDetail: "restored: 31 tables, row counts match",
      ...extra,
    });
  }

  describe("Backups", () => {
    it("is red with no backup at all", async () => {
      const html = await page();
      expect(stateOf(html, "backups")).toBe("red");
      expect(text(section(html, "backups"))).toContain("No backup has been made yet.");
      expect(text(section(html, "backups"))).toContain("Needs attention");
    });

    it("is green for a verified backup of 2 hours ago, with its time in India, size, maker and the next one", async () => {
      await backup(2 * HOUR);
      const html = await page();
      expect(stateOf(html, "backups")).toBe("ok");
      const words = text(section(html, "backups"));
      expect(words).toContain("14.2 MB, made by the daily schedule, web-1");
      expect(words).toMatch(/Last backup\d+ \w{3} \d{4}, \d\d:\d\d IST \(2 h ago\)/);
      expect(words).toContain("Passed");
      expect(words).toContain("restored: 31 tables, row counts match");
      expect(words).toContain("Not set up (BACKUP_S3_URL)");
      expect(words).toMatch(/Next scheduled backup\d+ \w{3} \d{4}, 02:30 IST/);
      // The place for the backups' buttons, left for them.
      expect(section(html, "backups")).toContain("data-backup-actions");
    });

    it("is red when the last verified backup is 30 hours old", async () => {
      await backup(30 * HOUR);
      const html = await page();
      expect(stateOf(html, "backups")).toBe("red");
      expect(text(section(html, "backups"))).toMatch(
        /The last verified backup \(one whose restore drill passed\) is from .* IST, 30 h ago: more than 26 hours\./,
      );
    });

    it("is red when the newest backup's restore drill failed, even beside an older verified one", async () => {
      await backup(20 * HOUR);
      await backup(1 * HOUR, { drillStatus: "failed", drillDetail: "3 tables differ from the live database" });
      const html = await page();
      expect(stateOf(html, "backups")).toBe("red");
      expect(text(section(html, "backups"))).toContain(
        "The last backup's restore drill failed: 3 tables differ from the live database.",
      );
    });

    it("is red when the newest backup failed, or its copy off the machine did", async () => {
      await backup(3 * HOUR);
      await backup(1 * HOUR, {
        status: "failed",
        bytes: null,
        drillStatus: null,
        error: "disk full writing site-x.tar.gz",
      });
      let view = await evaluateHealth(t.database.db, settings, { now: t.clock.now });
      expect(view.backups.state).toBe("red");
      expect(view.backups.reasons).toEqual([
        expect.stringMatching(/^The last backup, started .* IST, failed: disk full writing site-x.tar.gz\.$/),
      ]);
      await backup(0.5 * HOUR, { copyStatus: "failed", copyAt: ago(0.4 * HOUR), copyDetail: "403 AccessDenied" });
      view = await evaluateHealth(t.database.db, { ...settings, offsite: true }, { now: t.clock.now });
      expect(view.backups.reasons).toEqual(["The last backup's copy off the machine failed: 403 AccessDenied."]);
    });

    it("gives a site's first backup 26 hours for its drill, then turns red", async () => {
      await backup(1 * HOUR, { drillStatus: null, drillAt: null, drillDetail: null });
      expect((await evaluateHealth(t.database.db, settings, { now: t.clock.now })).backups.state).toBe("ok");
      const later = new Date(t.clock.now.getTime() + 26 * HOUR);
      const view = await evaluateHealth(t.database.db, settings, { now: later, databaseNow: later });
      expect(view.backups.reasons).toEqual(["No backup has passed its restore drill yet."]);
    });
  });

  describe("Mail", () => {
    const message = (values: Partial<typeof mailOutbox.$inferInsert>) =>
      t.database.db.insert(mailOutbox).values({ kind: "staff-sign-in-link", recipient: "ravi@example.com", ...values });

    it("is green with nothing waiting, and says when the last message went out", async () => {
      await message({ status: "sent", sentAt: ago(3 * HOUR), createdAt: ago(3 * HOUR) });
      const html = await page();
      expect(stateOf(html, "mail")).toBe("ok");
      const words = text(section(html, "mail"));
      expect(words).toContain("Waiting to go outNothing");
      expect(words).toMatch(/Last message sent.* IST \(3 h ago\)/);
    });

    it("is red when a message has waited over an hour and its attempts fail", async () => {
      await message({ status: "sent", sentAt: ago(5 * HOUR), createdAt: ago(5 * HOUR) });
      await message({
        status: "pending",
        attempts: 9,
        createdAt: ago(65 * MINUTE),
        nextAttemptAt: new Date(t.clock.now.getTime() + 10 * MINUTE),
        lastError: "connect ECONNREFUSED 127.0.0.1:2525",
      });
      const html = await page();
      expect(stateOf(html, "mail")).toBe("red");
      expect(text(section(html, "mail"))).toContain(
        "A message (a sign-in link) has waited 1 h 5 min to go out; its last attempt failed: connect ECONNREFUSED 127.0.0.1:2525",
      );
      expect(text(section(html, "mail"))).toContain("tried 9 times");
      // Said prominently at the top of the page too.
      expect(text(html)).toContain("Mail is failing: alerts cannot reach anyone by mail until it works again.");
    });

    it("is green for a message that waited 50 minutes, and for a newsletter's mail waiting its turn", async () => {
      const [letter] = await t.database.db
        .insert(newsletters)
        .values({ campaign: `health-${Date.now()}` })
        .returning();
      await message({ status: "pending", attempts: 3, createdAt: ago(50 * MINUTE), lastError: "421 try later" });
      await message({ kind: "newsletter", status: "pending", createdAt: ago(3 * HOUR), newsletterId: letter!.id });
      const view = await evaluateHealth(t.database.db, settings, { now: t.clock.now });
      expect(view.mail).toMatchObject({ state: "ok", reasons: [], waiting: 2, retrying: 1 });
      expect(view.mail.oldestWaiting).toMatchObject({ kind: "newsletter" });
    });

    it("is red when a message due over an hour ago has not been tried (no instance sending)", async () => {
      await message({ status: "pending", createdAt: ago(2 * HOUR), nextAttemptAt: ago(2 * HOUR) });
      const view = await evaluateHealth(t.database.db, settings, { now: t.clock.now });
      expect(view.mail.reasons).toEqual([
        "A message (a sign-in link) has waited 2 h to go out and has not been tried: is the site sending mail?",
      ]);
    });

    it("is red when every message since the last one sent was refused, the first over an hour ago", async () => {
      await message({ status: "sent", sentAt: ago(3 * HOUR), createdAt: ago(3 * HOUR) });
      const refused = (minutes: number) =>
        message({
          status: "failed",
          attempts: 1,
          createdAt: ago(minutes * MINUTE),
          nextAttemptAt: ago(minutes * MINUTE),
          lastError: "rejected by the SMTP server: 535 5.7.8 Authentication failed",
        });
      await refused(70);
      await refused(10);
      // Given up for a reason of its own data, not the server's: not counted.
      await message({
        status: "failed",
        createdAt: ago(2 * HOUR),
        nextAttemptAt: ago(2 * HOUR),
        lastError: "nothing to send",
      });
      let view = await evaluateHealth(t.database.db, settings, { now: t.clock.now });
      expect(view.mail.state).toBe("red");
      expect(view.mail.reasons).toEqual([
        expect.stringMatching(
          /^No message has gone out since .* IST: 2 messages were refused or given up since .* IST; the last: rejected by the SMTP server: 535 5\.7\.8 Authentication failed$/,
        ),
      ]);
      expect(view.mail.failedLastDay).toBe(2);
      // A message that went out since: mail works again.
      await message({ status: "sent", sentAt: ago(1 * MINUTE), createdAt: ago(2 * MINUTE) });
      view = await evaluateHealth(t.database.db, settings, { now: t.clock.now });
      expect(view.mail.state).toBe("ok");
    });

    it("is green with one refusal of 50 minutes ago (not yet an hour), and 'not set up' without SMTP settings", async () => {
      await message({
        status: "failed",
        createdAt: ago(50 * MINUTE),
        nextAttemptAt: ago(50 * MINUTE),
        lastError: "rejected by the SMTP server: 550 no",
      });
      expect((await evaluateHealth(t.database.db, settings, { now: t.clock.now })).mail.state).toBe("ok");
      const off = await evaluateHealth(t.database.db, { ...settings, mailConfigured: false }, { now: t.clock.now });
      expect(off.mail).toMatchObject({ state: "off", configured: false });
    });
  });

  describe("Publishing", () => {
    /** A published project with a time (scheduled while it is to come). */
    async function addProject(title: string, at: Date) {
      const [row] = await t.database.db.insert(projects).values({}).returning({ id: projects.id });
      const saved = await appendRevision(t.database.db, {
        kind: "project",
        itemId: row!.id,
        document: {
          slug: `health-${row!.id.slice(0, 8)}`,
          title,
          description: "A 40 MW plant's connection study.",
          category: "Renewable Energy",
          imageUrl: "/images/projects/kutch-solar.svg",
          year: "2026",
          capacity: null,
          timeline: null,
        },
        source: "studio",
        author: { id: null, label: "Test Writer" },
      });
      if (saved.outcome !== "saved") throw new Error("not saved");
      await publishRevision(t.database.db, {
        kind: "project",
        itemId: row!.id,
        revisionId: saved.revision.id,
        publishedAt: at,
      });
      return row!.id;
    }

    it("lists an article and a project due 10 minutes ago but not public on an instance whose clock is 11 minutes behind", async () => {
      const databaseNow = await databaseClock(t.database.db);
      const due = new Date(databaseNow.getTime() - 10 * MINUTE);
      const slug = `due-${Date.now()}`;
      const { id } = await addArticle(t.database.db, articleDocument({ slug, title: "Harmonic limits for 2027" }), {
        state: "published",
        at: due,
      });
      const projectId = await addProject("Kutch solar connection", new Date(due.getTime() + MINUTE));
      const trashed = await addArticle(t.database.db, articleDocument({ slug: `${slug}-t`, title: "Trashed one" }), {
        state: "trashed",
        at: due,
      });
      try {
        // On an instance whose clock agrees, they are public: nothing to say.
        let view = await evaluateHealth(t.database.db, settings, { now: databaseNow, databaseNow });
        expect(view.publishing.state).toBe("ok");
        expect(view.publishing.late).toEqual([]);

        // The instance's clock 11 minutes behind the database's: still scheduled here.
        t.clock.now = new Date(databaseNow.getTime() - 11 * MINUTE);
        const html = await page();
        expect(stateOf(html, "publishing")).toBe("red");
        const publishing = section(html, "publishing");
        expect(publishing).toContain(`href="/admin/articles/${id}"`);
        expect(publishing).toContain(`href="/admin/projects/${projectId}"`);
        expect(publishing).not.toContain(trashed.id);
        expect(text(publishing)).toMatch(
          /Not public 5 minutes after its time: "Harmonic limits for 2027" \(due .* IST\), "Kutch solar connection" \(due .* IST\)\./,
        );
        expect(text(publishing)).toMatch(/This instance's clock is 1\d min behind the database's/);

        // 4 minutes past its time is within the grace: only the clock is said.
        view = await evaluateHealth(t.database.db, settings, {
          now: new Date(due.getTime() - 2 * MINUTE),
          databaseNow: new Date(due.getTime() + 4 * MINUTE),
        });
        expect(view.publishing.late).toEqual([]);
        expect(view.publishing.reasons).toEqual([expect.stringContaining("6 min behind")]);
      } finally {
        await t.database.db.execute(sql`delete from blog_posts where id in (${id}, ${trashed.id})`);
        await t.database.db.delete(projects).where(eq(projects.id, projectId));
      }
    });
  });

  describe("Storage", () => {
    it("gives the database's size and the free space of DATA_DIR's and BACKUP_DIR's disks (one not made yet)", async () => {
      const view = await evaluateHealth(t.database.db, settings, { now: t.clock.now });
      expect(view.storage.databaseBytes).toBeGreaterThan(1_000_000);
      expect(view.storage.database).toBe("embedded");
      expect(view.storage.disks).toEqual([
        expect.objectContaining({ label: "the embedded database (DATA_DIR)", path: folder, missing: false }),
        expect.objectContaining({
          label: "the backups (BACKUP_DIR)",
          path: path.join(folder, "backups"),
          missing: true,
        }),
      ]);
      for (const disk of view.storage.disks) {
        if (!("freeBytes" in disk)) throw new Error("unread");
        expect(disk.freeBytes).toBeGreaterThan(0);
        expect(disk.totalBytes).toBeGreaterThanOrEqual(disk.freeBytes);
      }
      const free = view.storage.disks.map((disk) => ("freeBytes" in disk ? disk.freeBytes / disk.totalBytes : 1));
      expect(view.storage.state).toBe(free.some((share) => share < 0.1) ? "red" : "ok");
    });

    it("says PostgreSQL's own disk cannot be read from the site", async () => {
      const view = await evaluateHealth(t.database.db, { ...settings, dataDir: undefined }, { now: t.clock.now });
      expect(view.storage.database).toBe("server");
      expect(view.storage.disks.map((disk) => disk.label)).toEqual(["the backups (BACKUP_DIR)"]);
      const html = await page();
      // The test app's settings name DATA_DIR (no DATABASE_URL): the page reads its disk.
      expect(text(section(html, "disk"))).toMatch(/The database\d+(\.\d)? MB, embedded in the site \(DATA_DIR\)/);
      expect(text(section(html, "disk"))).toContain("Disk of the backups (BACKUP_DIR)");
    });
  });

  describe("who may open it", () => {
    it("is for admins: staff and those who may publish get 403, and no session goes to the sign-in", async () => {
      const member = await staffWithSession(t, { name: "Ravi Desai", role: "staff" });
      const publisher = await staffWithSession(t, { name: "Asha Patel", role: "staff", canPublish: true });
      for (const who of [member, publisher]) {
        const answer = await t.send({
          method: "GET",
          url: "/admin/health",
          cookie: who.cookie,
          headers: { accept: "text/html" },
        });
        expect(answer.statusCode).toBe(403);
        expect(answer.body).not.toContain("data-health-line");
      }
      const anonymous = await t.send({ method: "GET", url: "/admin/health", headers: { accept: "text/html" } });
      expect(anonymous.statusCode).toBe(303);
      expect(anonymous.headers.location).toBe("/admin/sign-in?next=%2Fadmin%2Fhealth");
      // The navigation offers it to admins alone.
      const inbox = (who: StaffWithSession) =>
        t.send({ method: "GET", url: "/admin", cookie: who.cookie, headers: { accept: "text/html" } });
      expect((await inbox(admin)).body).toContain('href="/admin/health"');
      expect((await inbox(member)).body).not.toContain('href="/admin/health"');
    });
  });

  describe("the banner while mail fails", () => {
    it("is on every back-office page while the Mail line is recorded red, with the Health page's link for admins", async () => {
      const member = await staffWithSession(t, { name: "Ravi Desai", role: "staff" });
      const get = (url: string, who: StaffWithSession) =>
        t.send({ method: "GET", url, cookie: who.cookie, headers: { accept: "text/html" } });
      expect((await get("/admin", member)).body).not.toContain("data-mail-failing");
      const reason = "A message (a sign-in link) has waited 2 h to go out; its last attempt failed: 535 auth";
      await recordHealthAlerts(t.database.db, [{ line: "mail", red: true, reason }], {
        now: t.clock.now,
        siteUrl: t.config.siteUrl,
        mailConfigured: true,
      });
      for (const [url, who] of [
        ["/admin", member],
        ["/admin/subscribers", member],
        ["/admin/account", admin],
        ["/admin/health", admin],
        ["/admin/no-such-page", member],
      ] as const) {
        const body = (await get(url, who)).body;
        const banner = /<div role="alert" data-mail-failing[^]*?<\/div>/.exec(body)?.[0];
        expect(banner, url).toBeDefined();
        expect(text(banner!)).toContain(`Mail is failing: ${reason}`);
        expect(banner!.includes('href="/admin/health"'), url).toBe(who === admin);
      }
      // The sign-in page, before anyone is known, says nothing of it.
      expect((await t.send({ method: "GET", url: "/admin/sign-in" })).body).not.toContain("data-mail-failing");
      await recordHealthAlerts(t.database.db, [{ line: "mail", red: false, reason: "Mail: all well." }], {
        now: t.clock.now,
        siteUrl: t.config.siteUrl,
        mailConfigured: true,
      });
      expect((await get("/admin", member)).body).not.toContain("data-mail-failing");
    });
  });

  describe("alerts by mail", () => {
    const alerts = alertRows;
    const record = (db: Database, red: boolean, now: Date, reason = "No backup has been made yet.") =>
      recordHealthAlerts(db, [{ line: "backups", red, reason }], {
        now,
        siteUrl: t.config.siteUrl,
        mailConfigured: true,
      });

    it("mails each active admin once when a line turns red, not again within the day, once a day later, and all clear", async () => {
      const second = await staffWithSession(t, { name: "Kavya Iyer", role: "admin" });
      await staffWithSession(t, { name: "Ravi Desai", role: "staff" });
      const gone = await staffWithSession(t, { name: "Old Admin", role: "admin" });
      await t.database.db.update(staff).set({ disabledAt: t.clock.now }).where(eq(staff.id, gone.staffId));
      const start = t.clock.now;
      const admins = [admin.email, second.email].sort();
      const states = async () =>
        (await alerts()).reduce<Record<string, string[]>>((each, row) => {
          (each[row.state!] ??= []).push(row.to!);
          each[row.state!]!.sort();
          return each;
        }, {});

      expect(await record(t.database.db, true, start)).toEqual([{ line: "backups", mail: "red", recipients: 2 }]);
      expect(await states()).toEqual({ red: admins });
      const [row] = await t.database.db.select().from(healthAlerts).where(eq(healthAlerts.line, "backups"));
      expect(row).toMatchObject({
        red: true,
        reason: "No backup has been made yet.",
        since: start,
        lastMailedAt: start,
      });

      // Every minute for the rest of the day: nothing more.
      for (const hours of [0.02, 1, 12, 23.9])
        await record(t.database.db, true, new Date(start.getTime() + hours * HOUR));
      expect(await states()).toEqual({ red: admins });

      // A day later, still red: one more each.
      await record(t.database.db, true, new Date(start.getTime() + 24 * HOUR));
      await record(t.database.db, true, new Date(start.getTime() + 25 * HOUR));
      expect(await states()).toEqual({ red: admins, "still-red": admins });

      // Recovered: all clear, once.
      await record(t.database.db, false, new Date(start.getTime() + 26 * HOUR), "Backups: all well.");
      await record(t.database.db, false, new Date(start.getTime() + 27 * HOUR), "Backups: all well.");
      expect(await states()).toEqual({ red: admins, "still-red": admins, clear: admins });
      const [payload] = (
        await t.database.db
          .select({ payload: mailOutbox.payload })
          .from(mailOutbox)
          .where(and(eq(mailOutbox.kind, HEALTH_ALERT_KIND), eq(mailOutbox.recipient, admin.email)))
          .limit(1)
      ).map((each) => each.payload);
      expect(payload).toEqual({
        line: "backups",
        state: "red",
        reason: "No backup has been made yet.",
        link: "https://www.example.test/admin/health",
      });
    });

    it("does not mail a line seen red and green in turn within the hour again (two instances that disagree)", async () => {
      const start = t.clock.now;
      const at = (minutes: number) => new Date(start.getTime() + minutes * MINUTE);
      await record(t.database.db, true, at(0));
      await record(t.database.db, false, at(1));
      for (let minute = 2; minute < 60; minute += 2) {
        await record(t.database.db, true, at(minute));
        await record(t.database.db, false, at(minute + 1));
      }
      expect((await alerts()).map((each) => each.state)).toEqual(["red", "clear"]);
      // Green for an hour, then red again: a new problem, mailed.
      await record(t.database.db, true, at(61 + 60));
      expect((await alerts()).map((each) => each.state)).toEqual(["red", "clear", "red"]);
    });

    it("queues one mail per admin when two instances record the same change at the same moment", async () => {
      const second = await staffWithSession(t, { name: "Kavya Iyer", role: "admin" });
      // On PostgreSQL, another instance's own connections to the same database.
      const other = t.database.url ? await openDatabase({ databaseUrl: t.database.url, dataDir: "unused" }) : undefined;
      try {
        const otherDb = other?.db ?? t.database.db;
        let when = t.clock.now.getTime();
        for (const [red, mail] of [
          [true, "red"],
          [false, "clear"],
        ] as const) {
          when += 2 * HOUR;
          const now = new Date(when);
          const results = await Promise.all([record(t.database.db, red, now), record(otherDb, red, now)]);
          expect(results.flat()).toEqual([{ line: "backups", mail, recipients: 2 }]);
        }
        // The timer's whole round, twice at once, over a stale backup: the same.
        await backup(30 * HOUR);
        const round = async (db: Database) =>
          recordHealthAlerts(db, healthLines(await evaluateHealth(db, settings, { now: t.clock.now })), {
            now: new Date(when + 2 * HOUR),
            siteUrl: t.config.siteUrl,
            mailConfigured: true,
          });
        await Promise.all([round(t.database.db), round(otherDb)]);
        const rows = await alerts();
        const byState = (state: string, line = "backups") =>
          rows
            .filter((row) => row.state === state && row.line === line)
            .map((row) => row.to)
            .sort();
        expect(byState("red")).toEqual([admin.email, second.email, admin.email, second.email].sort());
        expect(byState("clear")).toEqual([admin.email, second.email].sort());
      } finally {
        await other?.close();
      }
    });

    it("keeps the state without mail when mail is not set up, and mails once it is", async () => {
      await recordHealthAlerts(t.database.db, [{ line: "disk", red: true, reason: "Full." }], {
        now: t.clock.now,
        siteUrl: t.config.siteUrl,
        mailConfigured: false,
      });
      expect(await alerts()).toEqual([]);
      await recordHealthAlerts(t.database.db, [{ line: "disk", red: true, reason: "Full." }], {
        now: new Date(t.clock.now.getTime() + MINUTE),
        siteUrl: t.config.siteUrl,
        mailConfigured: true,
      });
      expect(await alerts()).toEqual([{ to: admin.email, state: "still-red", line: "disk" }]);
    });
  });

  describe("the timer", () => {
    it("evaluates and records every line on its own, mails a red one once, and stops with the round in hand", async () => {
      let woken = 0;
      const checks = startHealthChecks({
        db: t.database.db,
        settings,
        siteUrl: t.config.siteUrl,
        log: silent,
        onMailQueued: () => (woken += 1),
        everyMs: 25,
      });
      try {
        const recorded = async () => (await t.database.db.select().from(healthAlerts)).length;
        for (let tries = 0; tries < 200 && (await recorded()) < 4; tries += 1)
          await new Promise((r) => setTimeout(r, 25));
        // A few rounds more: still one mail, for the backups' line (no backup here).
        await new Promise((r) => setTimeout(r, 200));
      } finally {
        await checks.stop();
      }
      const rows = await t.database.db.select().from(healthAlerts);
      expect(Object.fromEntries(rows.map((row) => [row.line, row.red]))).toMatchObject({ backups: true, mail: false });
      expect(await alertRows()).toEqual([{ to: admin.email, state: "red", line: "backups" }]);
      expect(woken).toBe(1);
    });
  });

  describe("with the tests' SMTP peer", () => {
    let peer: SmtpPeer | undefined;
    let worker: OutboxWorker | undefined;
    const startWorker = (url: string) => {
      worker = new OutboxWorker({
        db: t.database.db,
        transport: createSmtpTransport(url),
        from: "website@sabarmatigrid.example",
        to: ["enquiries@sabarmatigrid.example"],
        log: silent,
        pollIntervalMs: 50,
        retryBaseMs: 60_000,
      });
      worker.start();
      return worker;
    };
    const stop = async () => {
      await worker?.stop();
      await peer?.stop();
      worker = undefined;
      peer = undefined;
    };
    /** Waits until the outbox holds no row in this state. */
    async function settled(until: () => Promise<boolean>) {
      for (let tries = 0; tries < 200 && !(await until()); tries += 1) await new Promise((r) => setTimeout(r, 50));
    }

    it("turns Mail red once the peer has refused everything for an hour, and its alert says so", async () => {
      try {
        peer = await SmtpPeer.start(undefined, {
          rejectRecipients: { responseCode: 550, message: "5.7.1 Relaying denied for this sender" },
        });
        await t.database.db.insert(mailOutbox).values([
          { kind: "staff-sign-in-link", recipient: "ravi@example.com", payload: { link: "https://x.test/1" } },
          { kind: "staff-invitation", recipient: "asha@example.com", payload: { link: "https://x.test/2" } },
        ]);
        startWorker(peer.url);
        await settled(
          async () =>
            (await queryRows(t.database.db, sql`select 1 from mail_outbox where status = 'pending'`)).length === 0,
        );
        await stop();
        const rows = await t.database.db.select().from(mailOutbox);
        expect(rows.map((row) => row.status)).toEqual(["failed", "failed"]);

        // Within the hour: not yet. An hour on, on both clocks: red, with the peer's answer.
        const databaseNow = await databaseClock(t.database.db);
        expect((await evaluateHealth(t.database.db, settings, { now: databaseNow, databaseNow })).mail.state).toBe(
          "ok",
        );
        const later = new Date(databaseNow.getTime() + 61 * MINUTE);
        const view = await evaluateHealth(t.database.db, settings, { now: later, databaseNow: later });
        expect(view.mail.state).toBe("red");
        expect(view.mail.reasons[0]).toMatch(
          /^No message has gone out yet: 2 messages were refused or given up since .*; the last: rejected by the SMTP server: .*Relaying denied/,
        );
      } finally {
        await stop();
      }
    });

    it("turns Mail red when the peer is gone for an hour, and the alert goes out once it is back", async () => {
      try {
        peer = await SmtpPeer.start();
        const url = peer.url;
        await peer.stop();
        await t.database.db
          .insert(mailOutbox)
          .values({ kind: "staff-sign-in-link", recipient: "ravi@example.com", payload: { link: "https://x.test/1" } });
        startWorker(url);
        await settled(
          async () =>
            (await queryRows(t.database.db, sql`select 1 from mail_outbox where last_error is not null`)).length > 0,
        );
        await stop();
        const later = new Date((await databaseClock(t.database.db)).getTime() + 61 * MINUTE);
        const view = await evaluateHealth(t.database.db, settings, { now: later, databaseNow: later });
        expect(view.mail.reasons).toEqual([
          expect.stringMatching(
            /^A message \(a sign-in link\) has waited 1 h 1 min to go out; its last attempt failed: .*ECONNREFUSED/,
          ),
        ]);

        // The alert to the admin, sent by the worker once the server answers again.
        // The Mail line alone (Backups is red here too: no backup).
        const mailLine = healthLines(view).filter((line) => line.line === "mail");
        await recordHealthAlerts(t.database.db, mailLine, {
          now: later,
          siteUrl: t.config.siteUrl,
          mailConfigured: true,
        });
        await t.database.db.delete(mailOutbox).where(eq(mailOutbox.kind, "staff-sign-in-link"));
        peer = await SmtpPeer.start();
        startWorker(peer.url);
        const [mail] = await peer.waitForMessages(1);
        const received = peer.messages;
        await stop();
        expect(received).toHaveLength(1);
        expect(mail!.to).toEqual([admin.email]);
        expect(mail!.headers.get("subject")?.[0]).toMatch(
          /^Needs attention: Mail: A message \(a sign-in link\) has waited/,
        );
        expect(mail!.body).toContain("Mail on the website's Health page has turned red:");
        expect(mail!.body).toContain("https://www.example.test/admin/health");
      } finally {
        await stop();
      }
    });
  });
});
