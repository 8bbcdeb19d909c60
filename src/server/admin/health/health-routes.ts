import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { adminHref } from "#shared/admin/routes.ts";
import type { BackupControl } from "../../backup/backup-runs.ts";
import { oneLine } from "../../backup/backup-runs.ts";
import { archiveTime } from "../../backup/keeping.ts";
import { type Database, queryRows } from "../../db/client.ts";
import type { AdminContext, AdminHandlers } from "../context.ts";
import { evaluateHealth, type HealthSettings } from "./health-queries.ts";

// The Health page at /admin/health (admins): backups, mail, publishing and storage, each green or
// red with its reason, evaluated as the page is opened, on the instance that serves it (its clock
// and its disks). The alerts are the timer's (health-checks.ts). Its two actions are the backups':
// "Make a backup now" (made, drilled and copied by this instance's schedule, in the background)
// and "Download" (a finished backup's archive, streamed from BACKUP_DIR); each is audited.
// docs/decisions/052-the-health-page-and-alerts.md, 051-backups-that-restore.md.

/** Finished backups looked at for one whose archive is still on the disk. */
const DOWNLOAD_CANDIDATES = 10;

type DoneRun = { id: number | string; file_name: string; bytes: number | string | null };

/** The archive of a finished backup, when it is still in BACKUP_DIR: its path and size. */
async function archiveOnDisk(dir: string, run: DoneRun): Promise<{ file: string; bytes: number } | undefined> {
  // The name is the site's own, but it is read from the database: never a path of anything else.
  if (archiveTime(run.file_name) === null || path.basename(run.file_name) !== run.file_name) return undefined;
  const file = path.join(path.resolve(dir), run.file_name);
  const found = await stat(file).catch(() => undefined);
  return found?.isFile() ? { file, bytes: found.size } : undefined;
}

async function newestDownload(db: Database, dir: string) {
  const runs = await queryRows<DoneRun>(
    db,
    sql`select id, file_name, bytes from backup_runs where status = 'done' and file_name is not null
        order by started_at desc limit ${DOWNLOAD_CANDIDATES}`,
  );
  for (const run of runs) {
    const onDisk = await archiveOnDisk(dir, run);
    if (onDisk) return { id: Number(run.id), fileName: run.file_name, bytes: onDisk.bytes };
  }
  return null;
}

export function healthRoutes(
  context: AdminContext,
  settings: HealthSettings,
  backups?: () => BackupControl | undefined,
): AdminHandlers<"health" | "healthBackup" | "healthBackupDownload"> {
  const { db } = context;
  const notFound = (request: Parameters<AdminContext["problem"]>[0], reply: Parameters<AdminContext["problem"]>[1]) =>
    context.problem(
      request,
      reply,
      404,
      "No such backup",
      "That backup did not finish, or its archive is no longer in BACKUP_DIR (the keeping rules delete old ones).",
    );

  return {
    async health(request, reply) {
      const health = await evaluateHealth(db, settings, { now: context.now() });
      const control = backups?.();
      health.backups.download = await newestDownload(db, settings.backupDir);
      health.backups.canBackUpNow = Boolean(control && !control.busy());
      return context.render(reply, { page: "health", viewer: context.viewerOf(context.sessionOf(request)), health });
    },

    async healthBackup(request, reply) {
      const control = backups?.();
      if (!control)
        return context.problem(
          request,
          reply,
          409,
          "Backups are not made here",
          "This process does not make backups: use npm run backup on the server.",
        );
      if (control.busy())
        return context.problem(
          request,
          reply,
          409,
          "A backup is being made already",
          "Wait for it to finish: the Health page shows it when it ends.",
        );
      const session = context.sessionOf(request);
      const viewer = context.viewerOf(session);
      control
        .runNow("health-page", viewer.name)
        .catch((error: unknown) =>
          request.log.error({ err: oneLine(error) }, "the backup asked for on the Health page failed"),
        );
      await context.audit(request, {
        actor: context.actorOf(session),
        action: "backup-requested",
        target: { type: "backup" },
      });
      return context.seeOther(reply, adminHref("health", {}, { notice: "backup-started" }));
    },

    async healthBackupDownload(request, reply) {
      const id = request.params.id;
      if (!/^\d{1,15}$/.test(id)) return notFound(request, reply);
      const [run] = await queryRows<DoneRun>(
        db,
        sql`select id, file_name, bytes from backup_runs where id = ${Number(id)} and status = 'done' and file_name is not null`,
      );
      const onDisk = run ? await archiveOnDisk(settings.backupDir, run) : undefined;
      if (!run || !onDisk) return notFound(request, reply);
      await context.audit(request, {
        actor: context.actorOf(context.sessionOf(request)),
        action: "backup-downloaded",
        target: { type: "backup", id: String(run.id), label: run.file_name },
        details: { fileName: run.file_name, bytes: onDisk.bytes },
      });
      return reply
        .header("Content-Type", run.file_name.endsWith(".enc") ? "application/octet-stream" : "application/gzip")
        .header("Content-Disposition", `attachment; filename="${run.file_name}"`)
        .header("Content-Length", String(onDisk.bytes))
        .header("Cache-Control", "no-store")
        .send(createReadStream(onDisk.file));
    },
  };
}
