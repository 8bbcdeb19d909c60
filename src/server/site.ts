import path from "node:path";
import type { FastifyInstance } from "fastify";
import { type AppDependencies, buildApp } from "./app.ts";
import type { Config } from "./config.ts";
import {
  type ImportAnswer,
  importContentFolder,
  type ImportRequest,
  type ImportSummary,
  seedContent,
} from "./content/import-content.ts";
import { type DatabaseHandle, openDatabase } from "./db/client.ts";
import { leaveAnswer, takeRequests } from "./site-requests.ts";
import { missingCompanySettings } from "#shared/company.ts";
import { MEDIA_MEMORY_BUDGET, mediaProcessing } from "./media/media-store.ts";
import { lockDataDir, SITE_HOLDER } from "./db/data-dir-lock.ts";
import { tightenDataDir } from "./db/data-dir-permissions.ts";
import { printable } from "./export/export-format.ts";
import { applyMigrations } from "./db/migrate.ts";
import { shareSiteDatabase } from "./db/shared-socket.ts";
import { pruneAudit } from "./admin/audit/audit.ts";
import { pruneChallenges } from "./admin/door/passkeys.ts";
import { pruneSessions } from "./admin/door/sessions.ts";
import { pruneTokens } from "./admin/staff/staff-repository.ts";
import { pruneRateLimits } from "./enquiries/rate-limit.ts";
import { pruneSpamRecords } from "./enquiries/spam.ts";
import { queueReplyReminders } from "./enquiries/reply-reminders.ts";
import { queueMonthlyPermissionReview } from "./content/testimonial-review.ts";
import { dailyRetentionPurge } from "./enquiries/retention.ts";
import { analyticsHousekeeping } from "./analytics/rollup.ts";
import { startBackupSchedule, type BackupSchedule } from "./backup/daily-backup.ts";
import { defaultDrillEntry, type DrillEntry } from "./backup/drill.ts";
import { type BackupAnswer, type BackupRequest, backupSummary, oneLine } from "./backup/backup-runs.ts";
import { OutboxWorker, type OutboxWorkerOptions } from "./mail/outbox-worker.ts";
import { createSmtpTransport } from "./mail/smtp-transport.ts";
import { generateSecret, sharedSetting } from "./db/settings.ts";
import { NewsletterSender, type NewsletterSenderOptions } from "./newsletter/sender.ts";
import { errorCode } from "./plugins/request-logging.ts";
import { startHealthChecks } from "./admin/health/health-checks.ts";
import { healthSettingsOf } from "./admin/health/health-queries.ts";

// The whole site as one unit: database (migrated), content, the HTTP app and the mail worker.
// main.ts starts one and listens; tests start one the same way.

export type Site = {
  app: FastifyInstance;
  database: DatabaseHandle;
  outbox: OutboxWorker | undefined;
  /** Sends the newsletter's mail, paced (src/server/newsletter/sender.ts); none without SMTP settings. */
  newsletterSender: NewsletterSender | undefined;
  /** The daily backup, and a backup asked for now (the Health page). */
  backups: BackupSchedule;
  /**
   * What SIGHUP asks (main.ts calls it): starts the backups `npm run backup` asked for, runs the
   * imports `npm run content:import` and `content:sync` asked for, or, asked by none (a plain
   * `kill -HUP`), imports CONTENT_DIR with prune.
   */
  onHangUp: () => Promise<void>;
  /**
   * Stops taking connections, lets requests in flight finish (cutting them after
   * `timeoutMs`), lets the mail worker finish the message in hand, then closes the database.
   */
  close: (timeoutMs?: number) => Promise<void>;
};

export type SiteOptions = Omit<AppDependencies, "db" | "onEnquiryQueued" | "onNewsletterQueued"> & {
  config: Config;
  /** An open database to use instead of the one the configuration names. */
  database?: DatabaseHandle;
  /**
   * Seed: import CONTENT_DIR on the first start of a database, once (default true; false leaves
   * the content tables as they are, for tests that need no content).
   */
  syncContent?: boolean;
  /** Share an embedded database on a socket in DATA_DIR for the export commands (default true). */
  shareEmbeddedDatabase?: boolean;
  outboxOptions?: Partial<Omit<OutboxWorkerOptions, "db" | "transport" | "from" | "to" | "log">>;
  newsletterOptions?: Partial<
    Omit<NewsletterSenderOptions, "db" | "transport" | "from" | "siteUrl" | "secret" | "log">
  >;
  /**
   * Calls start-up off (SIGTERM during migrations, say): it stops after the step in hand, closes
   * what it opened, and rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /**
   * How the backup's restore drill starts its child process (backup/drill.ts): main.ts passes the
   * server's own entry; by default the TypeScript entry through tsx (npm run dev, the tests).
   */
  drillEntry?: DrillEntry;
  /** Make the daily backup at BACKUP_TIME: BACKUP_SCHEDULE, off under NODE_ENV=test unless set here. */
  backupSchedule?: boolean;
};

export async function startSite(options: SiteOptions): Promise<Site> {
  const { config, signal } = options;
  // The embedded database's files are this process's alone while it runs: a command started
  // meanwhile goes through the socket, and the site does not start while a command has them.
  const embeddedDataDir =
    !options.database && !config.databaseUrl && !config.dataDir.startsWith("memory://")
      ? path.resolve(config.dataDir)
      : undefined;
  const lock = embeddedDataDir ? await lockDataDir(embeddedDataDir, SITE_HOLDER) : undefined;
  let database: DatabaseHandle;
  try {
    // The embedded database in a thread of its own: no query holds the event loop (decision 050).
    database =
      options.database ??
      (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, thread: "worker" }));
  } catch (error) {
    await lock?.release();
    throw error;
  }
  // Pictures are made within this process's memory budget, smaller on the embedded database,
  // whose own memory is in the process (docs/decisions/047-a-memory-budget-for-making-pictures.md).
  mediaProcessing.setBudget(MEDIA_MEMORY_BUDGET[database.driver]);
  const reportProblems = (summary: ImportSummary | undefined) => {
    for (const problem of summary?.problems ?? []) {
      console.error(printable(`content: ${problem.file}: ${problem.field} ${problem.message}`));
    }
  };
  // The backups `npm run backup` asked for (site-requests.ts), started; each answered once its
  // archive is whole. Answers how many there were.
  const startBackupRequests = async () => {
    const requests = await takeRequests<BackupRequest>(database.db, "backup");
    for (const request of requests) {
      const answer = (body: BackupAnswer) => leaveAnswer(database.db, "backup", request.id, body);
      const startedAt = Date.now();
      void Promise.resolve()
        .then(() => {
          if (!started.backups) throw new Error("the site is starting or stopping: try again");
          return started.backups.runNow("command", `command line (pid ${request.pid})`, {
            dir: request.dir,
            onArchive: (run) => answer({ made: backupSummary(run, startedAt) }),
          });
        })
        .catch((error: unknown) => answer({ error: oneLine(error) }).catch(() => {}));
    }
    return requests.length;
  };
  const onHangUp = async () => {
    const backupsAsked = await startBackupRequests();
    const requests = await takeRequests<ImportRequest>(database.db, "content-import");
    if (!requests.length) {
      if (backupsAsked === 0)
        reportProblems(await importContentFolder(database.db, path.resolve(config.contentDir), { prune: true }));
      return;
    }
    for (const request of requests) {
      const answer: ImportAnswer = await importContentFolder(database.db, request.dir, request.options).then(
        (summary) => ({ summary }),
        (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
      );
      await leaveAnswer(database.db, "content-import", request.id, answer);
    }
  };
  // What start-up opened, last first: closed again when start-up fails or is called off. A step
  // is never cut short, so the embedded database is closed between two of them, not mid-write.
  const openedSoFar: (() => Promise<unknown>)[] = [async () => lock?.release()];
  if (!options.database) openedSoFar.unshift(() => database.close());
  let outbox: OutboxWorker | undefined;
  let newsletterSender: NewsletterSender | undefined;
  let socket: Awaited<ReturnType<typeof shareSiteDatabase>> | undefined;
  let app: FastifyInstance;
  // The backups start once the app is (they log through it); the Health page reaches them through a getter.
  const started: { backups?: BackupSchedule } = {};
  try {
    signal?.throwIfAborted();
    await applyMigrations(database.db);
    signal?.throwIfAborted();
    // The first start of a database imports CONTENT_DIR; every later start reads no content file
    // (docs/decisions/038-the-database-holds-the-content.md, section 1).
    if (options.syncContent !== false) {
      reportProblems(await seedContent(database.db, path.resolve(config.contentDir)));
      signal?.throwIfAborted();
    }
    // Files the migrations and the content sync made are private like the rest.
    if (embeddedDataDir) await tightenDataDir(embeddedDataDir);

    if (database.share && options.shareEmbeddedDatabase !== false && !config.dataDir.startsWith("memory://")) {
      const shared = await shareSiteDatabase(database.share, config.dataDir);
      openedSoFar.unshift(() => shared.stop());
      socket = shared;
    }
    const built = await buildApp({
      ...options,
      backups: () => started.backups,
      db: database.db,
      onEnquiryQueued: () => outbox?.wake(),
      onNewsletterQueued: () => newsletterSender?.wake(),
    });
    openedSoFar.unshift(() => built.close());
    app = built;
    signal?.throwIfAborted();
  } catch (error) {
    for (const close of openedSoFar) await close().catch(() => {});
    throw error;
  }
  if (config.mail) {
    outbox = new OutboxWorker({
      db: database.db,
      transport: createSmtpTransport(config.mail.smtpUrl, Math.min(30_000, config.mailLeaseMs / 2)),
      from: config.mail.from,
      to: config.mail.to,
      log: app.log,
      leaseMs: config.mailLeaseMs,
      ...options.outboxOptions,
    });
    outbox.start();
    // The unsubscribe links are signed with the form secret: the same value app.ts reads (one
    // stored in the database, shared by the instances, when FORM_SECRET is not set).
    const secret = config.formSecret ?? (await sharedSetting(database.db, "form-secret", generateSecret));
    newsletterSender = new NewsletterSender({
      db: database.db,
      transport: createSmtpTransport(config.mail.smtpUrl, Math.min(30_000, config.mailLeaseMs / 2)),
      from: config.mail.from,
      siteUrl: config.siteUrl,
      secret,
      log: app.log,
      perMinute: config.newsletterPerMinute,
      leaseMs: config.mailLeaseMs,
      ...options.newsletterOptions,
    });
    newsletterSender.start();
  } else {
    app.log.warn("SMTP is not configured (SMTP_URL, MAIL_FROM, MAIL_TO): enquiries are stored but not emailed");
  }
  if (!config.siteUrlSet && !["127.0.0.1", "localhost", "::1"].includes(config.host)) {
    app.log.warn(
      "SITE_URL is not set: the forms are accepted only from pages at a localhost address; set it to the site's public address",
    );
  }
  // Housekeeping: stale rate-limit counters and used-token records, enquiries past the retention
  // period the privacy notice states, and the embedded database's new files made private. Run
  // once at start too, so that a site restarted often still keeps that promise.
  const errCode = (error: unknown) => ({ errCode: errorCode(error) });
  let housekeeping: Promise<unknown> = Promise.resolve();
  // The analytics roll-up works through a backlog a batch at a time (analytics/rollup.ts): a run
  // still going when the next is due carries on alone, and closing the site stops it between two
  // batches (the next start goes on from there).
  const stopAnalytics = new AbortController();
  let analyticsRun: Promise<unknown> | undefined;
  const runHousekeeping = () => {
    housekeeping = Promise.all([
      pruneRateLimits(database.db).catch((error: unknown) => app.log.warn(errCode(error), "rate-limit pruning failed")),
      pruneSpamRecords(database.db).catch((error: unknown) =>
        app.log.warn(errCode(error), "used-token pruning failed"),
      ),
      embeddedDataDir
        ? tightenDataDir(embeddedDataDir).catch((error: unknown) =>
            app.log.warn(errCode(error), "making DATA_DIR private failed"),
          )
        : undefined,
      // Ended sessions, used or expired one-time links, stale passkey challenges, and audit events
      // past the period the privacy notice states.
      Promise.all([
        pruneSessions(database.db),
        pruneTokens(database.db),
        pruneChallenges(database.db),
        pruneAudit(database.db),
      ]).catch((error: unknown) => app.log.warn(errCode(error), "back-office pruning failed")),
      // Analytics: the daily roll-up (once per day, whichever instance gets there first), raw
      // views past ANALYTICS_RETENTION_DAYS, salts past 48 hours. With ANALYTICS=false too: views
      // counted before it was turned off still go when their time is up.
      (analyticsRun ??= analyticsHousekeeping(database.db, new Date(), config.analyticsRetentionDays, {
        signal: stopAnalytics.signal,
      })
        .then(
          (done) => {
            if (done.rolledDays.length || done.deletedViews) app.log.info(done, "analytics rolled up and pruned");
          },
          (error: unknown) => app.log.warn(errCode(error), "analytics housekeeping failed"),
        )
        .finally(() => {
          analyticsRun = undefined;
        })),
      // Once a month, on one instance: the admins' mail of the clients' permissions due for review
      // (content/testimonial-review.ts; none due, no mail). Only with mail: the month stays unclaimed till then.
      config.mail
        ? queueMonthlyPermissionReview(database.db, { now: new Date(), siteUrl: config.siteUrl }).then(
            (listed) => {
              if (listed) outbox?.wake();
            },
            (error: unknown) => app.log.warn(errCode(error), "queueing the permissions' review failed"),
          )
        : undefined,
      // Once a day, on one instance: whichever claims the day first.
      // With mail configured, it also asks the addresses collected before confirmation existed,
      // once (docs/decisions/044-newsletter-double-opt-in.md).
      dailyRetentionPurge(
        database.db,
        new Date(),
        { spamDays: config.spamRetentionDays, closedEnquiryDays: config.enquiryRetentionDays },
        config.mail ? { siteUrl: config.siteUrl } : undefined,
      ).then(
        (deleted) => {
          if (deleted?.legacySubscribersAsked) outbox?.wake();
          if (
            deleted &&
            (deleted.enquiries ||
              deleted.spam ||
              deleted.articlesPurged ||
              deleted.autosavesThinned ||
              deleted.unconfirmedSubscribers ||
              deleted.legacySubscribersAsked)
          )
            app.log.info(
              deleted,
              "deleted enquiries, trashed articles, old autosaves and unconfirmed subscribers past their time; asked old subscribers to confirm",
            );
        },
        (error: unknown) => app.log.warn(errCode(error), "deleting expired enquiries failed"),
      ),
    ]);
  };
  runHousekeeping();
  const maintenance = setInterval(runHousekeeping, 10 * 60_000);
  maintenance.unref();
  // The reply promise's reminders, 4 hours before an enquiry is due: looked for every minute
  // by every instance; the outbox's unique (enquiry, kind) keeps each to one mail.
  let reminders: Promise<unknown> = Promise.resolve();
  const reminderTimer = config.mail
    ? setInterval(() => {
        reminders = queueReplyReminders(database.db, { now: new Date(), siteUrl: config.siteUrl }).then(
          (queued) => {
            if (queued) outbox?.wake();
          },
          (error: unknown) => app.log.warn(errCode(error), "queueing reply reminders failed"),
        );
      }, 60_000)
    : undefined;
  reminderTimer?.unref();
  // The Health page's lines, every minute on every instance: a line turning red mails the admins
  // once, whichever instance sees it first (src/server/admin/health/health-alerts.ts).
  const healthChecks = startHealthChecks({
    db: database.db,
    settings: healthSettingsOf(config),
    siteUrl: config.siteUrl,
    log: app.log,
    onMailQueued: () => outbox?.wake(),
  });

  // The company's statutory details the law asks every page to show (#shared/company.ts): the site
  // starts without them, and says which are missing.
  const missingDetails = missingCompanySettings(config.company);
  if (missingDetails.length > 0)
    app.log.warn(
      { missing: missingDetails },
      `the company's statutory details are not all set: ${missingDetails.join(", ")} (the footer and the privacy notice show only those set)`,
    );

  // The daily backup, its drill, its copy off the machine (backup/daily-backup.ts).
  const backups = (started.backups = startBackupSchedule({
    db: database.db,
    driver: database.driver,
    openCopy: database.openCopy,
    settings: config.backup,
    log: app.log,
    drillEntry: options.drillEntry ?? defaultDrillEntry,
    schedule: options.backupSchedule ?? (config.backup.scheduled && config.env !== "test"),
  }));

  let closing: Promise<void> | undefined;
  return {
    app,
    database,
    outbox,
    newsletterSender,
    backups,
    onHangUp,
    close: (timeoutMs = config.shutdownTimeoutMs) =>
      (closing ??= (async () => {
        clearInterval(maintenance);
        clearInterval(reminderTimer);
        const healthStopped = healthChecks.stop();
        await backups.stop();
        stopAnalytics.abort();
        const cutOff = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
        await app.close();
        clearTimeout(cutOff);
        await Promise.all([outbox?.stop(), newsletterSender?.stop()]);
        await housekeeping;
        await reminders;
        await healthStopped;
        await socket?.stop();
        await database.close();
        await lock?.release();
      })()),
  };
}
