import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../db/client.ts";
import { writeLedgerFile } from "./erasure-ledger.ts";
import { type BackupResult, makeBackup } from "./make-backup.ts";

// A backup as the site records it: a row of backup_runs (the Health page and /metrics read them),
// the archive, and the erasure ledger written beside it (docs/decisions/051-backups-that-restore.md).

export type BackupTrigger = "scheduled" | "health-page" | "command";

export type RunBackupOptions = {
  dir: string;
  passphrase: string | undefined;
  driver: "pglite" | "postgres";
  /** Opens a copy of the embedded database to read (make-backup.ts, BackupOptions.openCopy). */
  openCopy?: ((dir: string) => Promise<DatabaseHandle>) | undefined;
  trigger: BackupTrigger;
  requestedBy: string;
  /** A scheduled backup's India day: the row's unique key, claimed by one instance. */
  scheduledDay?: string;
  now?: Date;
};

export type BackupRun = BackupResult & { runId: number; ledgerFile: string };

export type RunNowOptions = { dir?: string; onArchive?: (run: BackupRun) => Promise<void> };

/**
 * What the Health page may ask of the backup schedule (daily-backup.ts): written here, apart from
 * the schedule, so that the back office's door names it without importing the drill (which starts
 * the app, which registers the door: an import cycle).
 */
export type BackupControl = {
  /**
   * A backup asked for now (the Health page, `npm run backup` through a running site): drilled,
   * copied and kept like the daily one. `dir` writes it elsewhere than BACKUP_DIR; `onArchive` is
   * called once the archive is whole, before the drill.
   */
  runNow: (trigger: BackupTrigger, requestedBy: string, options?: RunNowOptions) => Promise<BackupRun>;
  /** True while this instance is making a backup. */
  busy: () => boolean;
};

/** What `npm run backup` asks a running embedded site for (site-requests.ts): the folder, absolute. */
export type BackupRequest = { dir: string; pid: number };

/** What the command prints of a backup, made by itself or by the running site. */
export type BackupSummary = {
  file: string;
  ledgerFile: string;
  tables: number;
  rows: number;
  mediaFiles: number;
  mediaBytes: number;
  encrypted: boolean;
  leftOut: Record<string, string>;
  seconds: number;
};

/** What the site answers a backup request: the archive, once whole (its drill follows), or why not. */
export type BackupAnswer = { made: BackupSummary } | { error: string };

export function backupSummary(run: BackupRun, startedAt: number): BackupSummary {
  const { manifest } = run;
  return {
    file: run.file,
    ledgerFile: run.ledgerFile,
    tables: manifest.tables.length,
    rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
    mediaFiles: manifest.media.files,
    mediaBytes: manifest.media.bytes,
    encrypted: run.fileName.endsWith(".enc"),
    leftOut: manifest.leftOut,
    seconds: (Date.now() - startedAt) / 1000,
  };
}

/** Message of an error, in one line. */
export function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 500);
}

/** Records a backup as running; undefined when the scheduled day was claimed by another instance. */
export async function startBackupRun(db: Database, options: RunBackupOptions): Promise<number | undefined> {
  const result = (await db.execute(
    sql`insert into backup_runs (trigger, scheduled_day, requested_by, started_at)
        values (${options.trigger}, ${options.scheduledDay ?? null}, ${options.requestedBy}, ${(options.now ?? new Date()).toISOString()})
        on conflict (scheduled_day) do nothing
        returning id`,
  )) as unknown as { rows: { id: number | string }[] };
  const id = result.rows[0]?.id;
  return id === undefined ? undefined : Number(id);
}

/** Makes the archive for a run started with startBackupRun, and records how it ended. */
export async function finishBackupRun(db: Database, runId: number, options: RunBackupOptions): Promise<BackupRun> {
  try {
    const result = await makeBackup(db, options);
    const ledgerFile = await writeLedgerFile(db, path.resolve(options.dir), options.now);
    await db.execute(
      sql`update backup_runs set status = 'done', finished_at = now(), file_name = ${result.fileName}, bytes = ${result.bytes}
          where id = ${runId}`,
    );
    return { ...result, runId, ledgerFile };
  } catch (error) {
    await db
      .execute(
        sql`update backup_runs set status = 'failed', finished_at = now(), error = ${oneLine(error)} where id = ${runId}`,
      )
      .catch(() => {});
    throw error;
  }
}

/** A backup recorded in backup_runs from start to end. */
export async function runBackup(db: Database, options: RunBackupOptions): Promise<BackupRun> {
  const runId = await startBackupRun(db, options);
  if (runId === undefined) throw new Error(`The backup of ${options.scheduledDay} was made by another instance`);
  return finishBackupRun(db, runId, options);
}
