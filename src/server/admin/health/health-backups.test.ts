import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminHref } from "#shared/admin/routes.ts";
import { type BackupSchedule, startBackupSchedule } from "#server/backup/daily-backup.ts";
import { defaultDrillEntry } from "#server/backup/drill.ts";
import { parseConfig } from "#server/config.ts";
import { queryRows } from "#server/db/client.ts";
import {
  type AdminTestApp,
  buildAdminTestApp,
  staffWithSession,
  type StaffWithSession,
} from "../../../../test/admin-fixtures.ts";
import { projectDriver } from "../../../../test/databases.ts";

// The Health page's two backup actions (docs/decisions/051-backups-that-restore.md): "Make a
// backup now", made, drilled and recorded by the instance's schedule in the background, and
// "Download", the finished archive streamed; both audited, and refused in words when they cannot be.

describe("The Health page's backups", () => {
  let t: AdminTestApp;
  let dir: string;
  let schedule: BackupSchedule;
  let admin: StaffWithSession;
  let busy = false;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "health-backups-"));
    const env = { BACKUP_DIR: dir };
    t = await buildAdminTestApp(projectDriver, {
      env,
      backups: () => ({
        runNow: (trigger, requestedBy) => schedule.runNow(trigger, requestedBy),
        busy: () => busy || schedule.busy(),
      }),
    });
    schedule = startBackupSchedule({
      db: t.database.db,
      driver: t.database.driver,
      openCopy: t.database.openCopy,
      settings: parseConfig(env).backup,
      log: pino({ level: "silent" }),
      drillEntry: defaultDrillEntry,
      schedule: false,
    });
    admin = await staffWithSession(t, { name: "Admin", role: "admin" });
  }, 60_000);

  afterAll(async () => {
    await schedule?.stop();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    "makes a backup when an admin asks, then offers it to download, each step in the audit trail",
    { timeout: 120_000 },
    async () => {
      const before = await t.send({ method: "GET", url: adminHref("health"), cookie: admin.cookie });
      expect(before.body).toContain("Make a backup now");
      expect(before.body).not.toContain("Download the last backup");

      const asked = await t.send({ method: "POST", url: adminHref("healthBackup"), cookie: admin.cookie, payload: "" });
      expect(asked.statusCode).toBe(303);
      expect(asked.headers.location).toBe(adminHref("health", {}, { notice: "backup-started" }));
      // Asked again while it runs: refused, and nothing more is made.
      const again = await t.send({ method: "POST", url: adminHref("healthBackup"), cookie: admin.cookie, payload: "" });
      expect(again.statusCode).toBe(409);
      expect(again.body).toContain("A backup is being made already");

      const deadline = Date.now() + 90_000;
      let run: { id: number | string; status: string; drill_status: string | null; file_name: string } | undefined;
      while (Date.now() < deadline) {
        [run] = await queryRows(t.database.db, sql`select id, status, drill_status, file_name from backup_runs`);
        if (run?.drill_status) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(run).toMatchObject({ status: "done", drill_status: "passed" });
      expect(await queryRows(t.database.db, sql`select id from backup_runs`)).toHaveLength(1);

      const page = await t.send({ method: "GET", url: adminHref("health"), cookie: admin.cookie });
      expect(page.body).toContain("Download the last backup");
      const download = await t.send({
        method: "GET",
        url: adminHref("healthBackupDownload", { id: String(run!.id) }),
        cookie: admin.cookie,
      });
      expect(download.statusCode).toBe(200);
      expect(download.headers["content-disposition"]).toBe(`attachment; filename="${run!.file_name}"`);
      expect(download.headers["cache-control"]).toBe("no-store");
      expect(download.rawPayload.equals(await readFile(path.join(dir, run!.file_name)))).toBe(true);

      const events = await queryRows<{ action: string; actor_label: string }>(
        t.database.db,
        sql`select action, actor_label from audit_events where action like 'backup-%' order by id`,
      );
      expect(events).toEqual([
        { action: "backup-requested", actor_label: "Admin" },
        { action: "backup-downloaded", actor_label: "Admin" },
      ]);
    },
  );

  it("answers 404 for a backup that is not there to download, whatever the address says", async () => {
    await t.database.db.execute(
      sql`insert into backup_runs (trigger, requested_by, status, file_name) values
          ('command', 'test', 'failed', 'site-2026-11-01T000000Z.tar.gz'),
          ('command', 'test', 'done', 'site-2026-11-02T000000Z.tar.gz'),
          ('command', 'test', 'done', '../../etc/passwd')`,
    );
    const ids = await queryRows<{ id: number | string }>(
      t.database.db,
      sql`select id from backup_runs where requested_by = 'test' order by id`,
    );
    for (const id of [...ids.map((row) => String(row.id)), "999999", "1e3", "-1", "%2e%2e"]) {
      const answer = await t.send({ method: "GET", url: `/admin/health/backups/${id}`, cookie: admin.cookie });
      expect({ id, status: answer.statusCode }).toEqual({ id, status: 404 });
    }
  });

  it("refuses a backup while one is being made elsewhere on this instance, and staff who are not admins", async () => {
    busy = true;
    try {
      const page = await t.send({ method: "GET", url: adminHref("health"), cookie: admin.cookie });
      expect(page.body).not.toContain("Make a backup now");
      const asked = await t.send({ method: "POST", url: adminHref("healthBackup"), cookie: admin.cookie, payload: "" });
      expect(asked.statusCode).toBe(409);
    } finally {
      busy = false;
    }
    const staff = await staffWithSession(t, { name: "Staff", role: "staff" });
    const refused = await t.send({ method: "POST", url: adminHref("healthBackup"), cookie: staff.cookie, payload: "" });
    expect(refused.statusCode).toBe(403);
    const runs = await queryRows(t.database.db, sql`select id from backup_runs where trigger = 'health-page'`);
    expect(runs).toHaveLength(1);
  });
});
