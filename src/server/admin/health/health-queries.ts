import { existsSync } from "node:fs";
import { statfs } from "node:fs/promises";
import path from "node:path";
import { and, desc, eq, inArray, max, sql } from "drizzle-orm";
import type { HealthLineKey } from "#shared/admin/health.ts";
import type {
  BackupRunView,
  DiskView,
  HealthView,
  MailHealthView,
  PublishingHealthView,
  StorageHealthView,
} from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import type { Config } from "../../config.ts";
import { scheduledItems } from "../../content/scheduled-items.ts";
import { type Database, queryRows } from "../../db/client.ts";
import { type BackupRunRow, backupRuns } from "../../db/schema.ts";
import {
  backupVerdict,
  LATE_ITEMS_SHOWN,
  MAIL_FAILING_AFTER_MS,
  MAIL_FAILURE_WINDOW_MS,
  mailVerdict,
  nextBackupAt,
  PUBLISH_GRACE_MS,
  publishingVerdict,
  reasonText,
  storageVerdict,
} from "./health-rules.ts";

// What the Health page shows, read now: the backups (backup_runs, written by src/server/backup/),
// the mail outbox, the scheduled articles and projects, the database's size and the disks the site
// can read. evaluateHealth is the one evaluation: the page renders it, and every instance's timer
// records it in health_alerts and mails the admins (health-alerts.ts). Its clocks are parameters.

/** What the Health page needs to know of the site's settings. */
export type HealthSettings = {
  /** The embedded database's folder, whose disk is read; undefined on PostgreSQL (or in memory). */
  dataDir: string | undefined;
  /** BACKUP_DIR. */
  backupDir: string;
  /** BACKUP_TIME: the daily backup's time, India time, "HH:MM". */
  backupTime: string;
  /** The site makes the daily backup itself (BACKUP_SCHEDULE is not false). */
  backupScheduled: boolean;
  /** BACKUP_S3_URL is set: each backup is copied off the machine. */
  offsite: boolean;
  /** SMTP_URL, MAIL_FROM and MAIL_TO are set. */
  mailConfigured: boolean;
};

export function healthSettingsOf(config: Config): HealthSettings {
  return {
    dataDir: config.databaseUrl || config.dataDir.startsWith("memory://") ? undefined : config.dataDir,
    backupDir: config.backup.dir,
    backupTime: config.backup.time,
    backupScheduled: config.backup.scheduled,
    offsite: config.backup.s3 !== undefined,
    mailConfigured: config.mail !== undefined,
  };
}

// Backups.

const iso = (moment: Date | null) => moment?.toISOString() ?? null;

function backupRunView(row: BackupRunRow): BackupRunView {
  return {
    trigger: row.trigger,
    requestedBy: row.requestedBy,
    startedAt: row.startedAt.toISOString(),
    finishedAt: iso(row.finishedAt),
    status: row.status as BackupRunView["status"],
    bytes: row.bytes,
    error: row.error,
    drill: {
      status: row.drillStatus as BackupRunView["drill"]["status"],
      at: iso(row.drillAt),
      detail: row.drillDetail,
    },
    copy: { status: row.copyStatus as BackupRunView["copy"]["status"], at: iso(row.copyAt), detail: row.copyDetail },
  };
}

async function backupsNow(db: Database, settings: HealthSettings, now: Date): Promise<HealthView["backups"]> {
  const [[last], [running], [verified], [done]] = await Promise.all([
    db
      .select()
      .from(backupRuns)
      .where(inArray(backupRuns.status, ["done", "failed"]))
      .orderBy(desc(backupRuns.startedAt), desc(backupRuns.id))
      .limit(1),
    db
      .select()
      .from(backupRuns)
      .where(eq(backupRuns.status, "running"))
      .orderBy(desc(backupRuns.startedAt), desc(backupRuns.id))
      .limit(1),
    db
      .select({ at: max(backupRuns.finishedAt) })
      .from(backupRuns)
      .where(and(eq(backupRuns.status, "done"), eq(backupRuns.drillStatus, "passed"))),
    db.select({ id: backupRuns.id }).from(backupRuns).where(eq(backupRuns.status, "done")).limit(1),
  ]);
  const facts = {
    last: last ? backupRunView(last) : null,
    running: running ? backupRunView(running) : null,
    lastVerifiedAt: verified?.at ? new Date(verified.at).toISOString() : null,
    anyDone: done !== undefined,
  };
  return {
    ...backupVerdict(facts, now),
    last: facts.last,
    running: facts.running,
    lastVerifiedAt: facts.lastVerifiedAt,
    offsite: settings.offsite,
    nextScheduledAt: settings.backupScheduled ? nextBackupAt(settings.backupTime, now).toISOString() : null,
  };
}

// Mail.

/** A message given up for a reason of the SMTP server's (src/server/mail/send-attempt.ts), not of its data. */
const GIVEN_UP = sql`(last_error like 'rejected by the SMTP server%' or last_error like 'gave up after%')`;

type WaitingRow = { kind: string; created_at: Date | string; attempts: number; last_error: string | null };
const timeOf = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);
const waitingView = (row: WaitingRow | undefined) =>
  row ? { kind: row.kind, queuedAt: timeOf(row.created_at)!, attempts: row.attempts, lastError: row.last_error } : null;

async function mailNow(db: Database, configured: boolean, now: Date): Promise<MailHealthView> {
  const windowStart = new Date(now.getTime() - MAIL_FAILURE_WINDOW_MS);
  const lateBefore = new Date(now.getTime() - MAIL_FAILING_AFTER_MS);
  // Pending rows are few but for a newsletter's; the given-up ones of a day are read through the
  // (status, next_attempt_at) index; the last send is the newest sent_at.
  const [[oldest], [late], [counts], [lastSent], [lastFailure]] = await Promise.all([
    queryRows<WaitingRow>(
      db,
      sql`select kind, created_at, attempts, last_error from mail_outbox
          where status = 'pending' order by created_at, id limit 1`,
    ),
    queryRows<WaitingRow>(
      db,
      sql`select kind, created_at, attempts, last_error from mail_outbox
          where status = 'pending' and created_at <= ${lateBefore.toISOString()}::timestamptz
            and (newsletter_id is null or last_error is not null)
          order by created_at, id limit 1`,
    ),
    queryRows<{ waiting: number; retrying: number; failed: number }>(
      db,
      sql`select (select count(*)::int from mail_outbox where status = 'pending') as waiting,
                 (select count(*)::int from mail_outbox where status = 'pending' and last_error is not null) as retrying,
                 (select count(*)::int from mail_outbox where status = 'failed'
                    and next_attempt_at >= ${windowStart.toISOString()}::timestamptz and ${GIVEN_UP}) as failed`,
    ),
    queryRows<{ at: Date | string | null }>(db, sql`select max(sent_at) as at from mail_outbox where status = 'sent'`),
    queryRows<{ at: Date | string; error: string }>(
      db,
      sql`select next_attempt_at as at, last_error as error from mail_outbox
          where status = 'failed' and next_attempt_at >= ${windowStart.toISOString()}::timestamptz and ${GIVEN_UP}
          order by next_attempt_at desc limit 1`,
    ),
  ]);
  const lastSentAt = timeOf(lastSent?.at);
  const after = lastSentAt && lastSentAt > windowStart.toISOString() ? lastSentAt : windowStart.toISOString();
  const [givenUp] = await queryRows<{ count: number; first_at: Date | string | null }>(
    db,
    sql`select count(*)::int as count, min(next_attempt_at) as first_at from mail_outbox
        where status = 'failed' and next_attempt_at > ${after}::timestamptz and ${GIVEN_UP}`,
  );
  const facts = {
    oldestWaiting: waitingView(oldest),
    oldestLate: waitingView(late),
    waiting: Number(counts?.waiting ?? 0),
    retrying: Number(counts?.retrying ?? 0),
    failedLastDay: Number(counts?.failed ?? 0),
    lastFailure: lastFailure ? { at: timeOf(lastFailure.at)!, error: lastFailure.error } : null,
    lastSentAt,
    givenUpSinceLastSent:
      givenUp && Number(givenUp.count) > 0
        ? { count: Number(givenUp.count), firstAt: timeOf(givenUp.first_at)! }
        : null,
  };
  const { oldestLate: _late, givenUpSinceLastSent: _givenUp, ...shown } = facts;
  return { ...mailVerdict(facts, configured, now), configured, ...shown };
}

// Publishing.

async function publishingNow(db: Database, now: Date, databaseNow: Date): Promise<PublishingHealthView> {
  const found = await scheduledItems(db, {
    now,
    dueBy: new Date(databaseNow.getTime() - PUBLISH_GRACE_MS),
    limit: LATE_ITEMS_SHOWN,
  });
  const view = (item: (typeof found.late)[number]) => ({
    kind: item.kind,
    title: item.title,
    at: item.at.toISOString(),
    href: item.kind === "article" ? adminHref("article", { id: item.id }) : adminHref("project", { id: item.id }),
  });
  const late = found.late.map(view);
  const clockOffsetMs = now.getTime() - databaseNow.getTime();
  return {
    ...publishingVerdict({ late, lateCount: found.lateCount, clockOffsetMs }),
    late,
    scheduled: found.scheduled,
    next: found.next ? view(found.next) : null,
    clockOffsetMs,
  };
}

// Storage.

/** The disk of a folder: its own, or, when it does not exist yet, its nearest existing parent's. */
export async function diskOf(label: string, folder: string): Promise<DiskView> {
  const wanted = path.resolve(folder);
  let existing = wanted;
  while (!existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  const missing = existing !== wanted;
  try {
    const stats = await statfs(existing);
    return {
      label,
      path: wanted,
      missing,
      freeBytes: Number(stats.bavail) * Number(stats.bsize),
      totalBytes: Number(stats.blocks) * Number(stats.bsize),
    };
  } catch (error) {
    return { label, path: wanted, missing, unreadable: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

async function storageNow(db: Database, settings: HealthSettings): Promise<StorageHealthView> {
  const [[size], disks] = await Promise.all([
    queryRows<{ bytes: string | number }>(db, sql`select pg_database_size(current_database())::bigint as bytes`).catch(
      () => [],
    ),
    Promise.all([
      ...(settings.dataDir ? [diskOf("the embedded database (DATA_DIR)", settings.dataDir)] : []),
      diskOf("the backups (BACKUP_DIR)", settings.backupDir),
    ]),
  ]);
  return {
    ...storageVerdict(disks),
    databaseBytes: size ? Number(size.bytes) : null,
    database: settings.dataDir ? "embedded" : "server",
    disks,
  };
}

/** The database's clock, to tell whether this instance's agrees. */
export async function databaseClock(db: Database): Promise<Date> {
  const [row] = await queryRows<{ now: Date | string }>(db, sql`select now() as now`);
  return new Date(row!.now);
}

/**
 * Every line of the Health page, read now. `now` is this instance's clock (tests move it); the
 * database's is read, unless given (a test that moves `now` moves it too).
 */
export async function evaluateHealth(
  db: Database,
  settings: HealthSettings,
  clocks: { now?: Date; databaseNow?: Date } = {},
): Promise<HealthView> {
  const now = clocks.now ?? new Date();
  const databaseNow = clocks.databaseNow ?? (await databaseClock(db));
  // One after the other: on the embedded database the queries take turns anyway.
  const backups = await backupsNow(db, settings, now);
  const mail = await mailNow(db, settings.mailConfigured, now);
  const publishing = await publishingNow(db, now, databaseNow);
  const storage = await storageNow(db, settings);
  return { checkedAt: now.toISOString(), backups, mail, publishing, storage };
}

/** Each line as health_alerts keeps it: red or not, and its reasons in one text. */
export function healthLines(view: HealthView): { line: HealthLineKey; red: boolean; reason: string }[] {
  const lines: [HealthLineKey, { state: string; reasons: string[] }][] = [
    ["backups", view.backups],
    ["mail", view.mail],
    ["publishing", view.publishing],
    ["disk", view.storage],
  ];
  return lines.map(([line, verdict]) => ({
    line,
    red: verdict.state === "red",
    reason: reasonText(line, verdict.reasons),
  }));
}
