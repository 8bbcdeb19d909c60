import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.ts";
import type { Database, DatabaseHandle } from "../db/client.ts";
import {
  type BackupControl,
  type BackupRun,
  type BackupTrigger,
  finishBackupRun,
  oneLine,
  type RunBackupOptions,
  type RunNowOptions,
  startBackupRun,
} from "./backup-runs.ts";
import { type DrillEntry, drillInChild } from "./drill.ts";
import { LEDGER_FILE, LEDGER_KEEP_DAYS } from "./erasure-ledger.ts";
import { archivesToDelete, type KeepingRules } from "./keeping.ts";
import { openBucket } from "./offsite.ts";

// The site's own backups (docs/decisions/051-backups-that-restore.md): once a day at BACKUP_TIME,
// India time, on whichever instance claims the day first (backup_runs.scheduled_day is unique),
// and whenever an admin asks on the Health page. Each backup is then drilled (drill.ts), copied
// to BACKUP_S3_URL when set, and the keeping rules applied here and there.

const INDIA_OFFSET_MS = 330 * 60_000;
/** A backup still "running" after this was cut off (its instance stopped): it is marked failed. */
export const BACKUP_STALE_MS = 6 * 60 * 60_000;
const CHECK_EVERY_MS = 60_000;

/** The India date (YYYY-MM-DD) of `now`. */
export function indiaDay(now: Date): string {
  return new Date(now.getTime() + INDIA_OFFSET_MS).toISOString().slice(0, 10);
}

/** When the backup of the India day `day` is due: BACKUP_TIME that day, India time. */
export function backupDueAt(day: string, time: string): Date {
  return new Date(Date.parse(`${day}T${time}:00Z`) - INDIA_OFFSET_MS);
}

/** The next time a scheduled backup is due after `now`. */
export function nextBackupAt(now: Date, time: string): Date {
  const today = backupDueAt(indiaDay(now), time);
  return today > now ? today : new Date(today.getTime() + 86_400_000);
}

export function keepingRules(settings: Config["backup"]): KeepingRules {
  return { keepDaily: settings.keepDaily, keepWeekly: settings.keepWeekly, maxAgeDays: LEDGER_KEEP_DAYS - 1 };
}

export type BackupScheduleOptions = {
  db: Database;
  driver: "pglite" | "postgres";
  /** Opens a copy of the embedded database for a backup to read (DatabaseHandle.openCopy). */
  openCopy?: ((dir: string) => Promise<DatabaseHandle>) | undefined;
  settings: Config["backup"];
  log: FastifyBaseLogger;
  /** How the drill's child process starts (drill.ts); the server's entry in production. */
  drillEntry: DrillEntry;
  now?: () => Date;
  /** Off: only backups asked for (the Health page) are made; the tests drive `check` themselves. */
  schedule?: boolean;
};

export type BackupSchedule = {
  /** Makes the scheduled backup if it is due and no instance has made it yet; resolves when done. */
  check: () => Promise<BackupRun | undefined>;
  stop: () => Promise<void>;
} & BackupControl;

export function startBackupSchedule(options: BackupScheduleOptions): BackupSchedule {
  const { db, settings, log } = options;
  const now = options.now ?? (() => new Date());
  let current: Promise<unknown> | undefined;
  let stopped = false;
  // Aborted by stop: a drill in hand is killed, not left running after the site.
  const stopping = new AbortController();

  const runOptions = (
    trigger: BackupTrigger,
    requestedBy: string,
    scheduledDay?: string,
    dir = settings.dir,
  ): RunBackupOptions => ({
    dir,
    passphrase: settings.passphrase,
    driver: options.driver,
    openCopy: options.openCopy,
    trigger,
    requestedBy,
    ...(scheduledDay ? { scheduledDay } : {}),
    now: now(),
  });

  /** After the archive: the drill, the copy off the machine, the keeping rules; each recorded. */
  const afterArchive = async (run: BackupRun) => {
    const drill = await drillInChild(run.file, {
      entry: options.drillEntry,
      passphrase: settings.passphrase,
      signal: stopping.signal,
    });
    await db.execute(
      sql`update backup_runs set drill_status = ${drill.passed ? "passed" : "failed"}, drill_at = now(), drill_detail = ${drill.detail}
          where id = ${run.runId}`,
    );
    if (drill.passed) log.info({ backup: run.fileName, drill: drill.detail }, "the backup's restore drill passed");
    else log.error({ backup: run.fileName, drill: drill.detail }, "the backup's restore drill failed");
    const rules = keepingRules(settings);
    if (settings.s3) {
      const bucket = openBucket(settings.s3);
      try {
        await bucket.put(run.fileName, run.file);
        await bucket.put(LEDGER_FILE, run.ledgerFile);
        const deleted = await bucket.applyKeeping(rules, now());
        await db.execute(
          sql`update backup_runs set copy_status = 'copied', copy_at = now(),
              copy_detail = ${`Copied to ${bucket.display}${deleted.length ? `; ${deleted.length} older archives deleted there` : ""}.`}
              where id = ${run.runId}`,
        );
      } catch (error) {
        log.error({ backup: run.fileName, err: oneLine(error) }, "copying the backup off the machine failed");
        await db.execute(
          sql`update backup_runs set copy_status = 'failed', copy_at = now(), copy_detail = ${oneLine(error)} where id = ${run.runId}`,
        );
      } finally {
        bucket.close();
      }
    }
    const names = await readdir(settings.dir);
    for (const name of archivesToDelete(names, now(), rules)) await rm(path.join(settings.dir, name), { force: true });
  };

  const make = async (runId: number, run: RunBackupOptions, onArchive?: RunNowOptions["onArchive"]) => {
    log.info({ trigger: run.trigger }, "backup started");
    const made = await finishBackupRun(db, runId, run);
    log.info({ backup: made.fileName, bytes: made.bytes, trigger: run.trigger }, "backup made");
    await onArchive?.(made).catch((error: unknown) =>
      log.error({ backup: made.fileName, err: oneLine(error) }, "answering for the backup failed"),
    );
    await afterArchive(made).catch((error: unknown) =>
      log.error({ backup: made.fileName, err: oneLine(error) }, "after the backup: drill, copy or keeping failed"),
    );
    return made;
  };

  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    if (current) throw new Error("A backup is being made already: wait for it to finish.");
    const running = work().finally(() => {
      current = undefined;
    });
    current = running.catch(() => {});
    return running;
  };

  const check = async (): Promise<BackupRun | undefined> => {
    if (stopped || current) return undefined;
    const at = now();
    await db.execute(
      sql`update backup_runs set status = 'failed', finished_at = now(),
          error = 'It stopped before it finished (its instance stopped or crashed).'
          where status = 'running' and started_at < ${new Date(at.getTime() - BACKUP_STALE_MS).toISOString()}`,
    );
    const day = indiaDay(at);
    if (at < backupDueAt(day, settings.time)) return undefined;
    return exclusive(async () => {
      const run = runOptions("scheduled", `the schedule (pid ${process.pid})`, day);
      const runId = await startBackupRun(db, run);
      if (runId === undefined) return undefined; // Another instance has it.
      return make(runId, run);
    });
  };

  const runNow = (trigger: BackupTrigger, requestedBy: string, runNowOptions: RunNowOptions = {}) =>
    exclusive(async () => {
      const run = runOptions(trigger, requestedBy, undefined, runNowOptions.dir);
      const runId = await startBackupRun(db, run);
      return make(runId!, run, runNowOptions.onArchive);
    });

  const tick = () => {
    check().catch((error: unknown) => log.error({ err: oneLine(error) }, "the daily backup failed"));
  };
  const timer = options.schedule === false ? undefined : setInterval(tick, CHECK_EVERY_MS);
  timer?.unref();
  if (timer) tick();

  return {
    check,
    runNow,
    busy: () => current !== undefined,
    // A backup in hand is not waited for: the database closes under it, and it is recorded as
    // failed (or, if even that cannot be written, marked so by the next check after BACKUP_STALE_MS).
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      stopping.abort();
    },
  };
}
