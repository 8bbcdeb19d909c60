import {
  durationWords,
  HEALTH_LINE_LABELS,
  type HealthLineKey,
  indiaTimeWords,
  mailKindWords,
} from "#shared/admin/health.ts";
import type {
  BackupHealthView,
  DiskView,
  HealthVerdictView,
  MailHealthView,
  PublishingHealthView,
} from "#shared/admin/pages.ts";
import { indiaDay, startOfIndiaDay } from "#shared/india-time.ts";

// When each line of the Health page turns red, and when an alert is mailed: the thresholds, named
// once, and the rules as pure functions of what the queries found (health-queries.ts), so that
// each can be tested at its edge. docs/decisions/052-the-health-page-and-alerts.md states them.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A backup is "verified" once its restore drill passed; the newest must be younger than this. */
export const VERIFIED_BACKUP_MAX_AGE_MS = 26 * HOUR_MS;
/** Mail is failing once a message has waited this long, or nothing has gone out this long past a failure. */
export const MAIL_FAILING_AFTER_MS = HOUR_MS;
/** The failures the Mail line counts (given up messages) are those of this window. */
export const MAIL_FAILURE_WINDOW_MS = DAY_MS;
/** A scheduled item must be public this long after its time (by the database's clock). */
export const PUBLISH_GRACE_MS = 5 * MINUTE_MS;
/** This instance's clock may differ from the database's by this much before Publishing turns red. */
export const CLOCK_TOLERANCE_MS = 5 * MINUTE_MS;
/** A disk with less free than this share of its size is red. */
export const DISK_MIN_FREE_SHARE = 0.1;
/** Late items the Publishing line lists at most (it says how many more). */
export const LATE_ITEMS_SHOWN = 20;

/** How often every instance evaluates the lines and records them (health-checks.ts). */
export const HEALTH_CHECK_EVERY_MS = MINUTE_MS;
/** While a line stays red, its alert is mailed again this long after the last. */
export const ALERT_REPEAT_MS = DAY_MS;
/**
 * A line that turns red again within a day of its last mail is mailed only when it had been green
 * at least this long: a new problem, not one line seen red and green by two instances in turn.
 */
export const ALERT_QUIET_MS = HOUR_MS;

const verdict = (reasons: string[]): HealthVerdictView => ({ state: reasons.length ? "red" : "ok", reasons });

// Backups.

/** When the daily backup runs next after `now`: BACKUP_TIME ("HH:MM", India time) today or tomorrow. */
export function nextBackupAt(time: string, now: Date): Date {
  const [hours, minutes] = time.split(":").map(Number) as [number, number];
  const offset = (hours * 60 + minutes) * MINUTE_MS;
  const today = new Date(startOfIndiaDay(indiaDay(now)).getTime() + offset);
  return today.getTime() > now.getTime() ? today : new Date(today.getTime() + DAY_MS);
}

export type BackupFacts = Pick<BackupHealthView, "last" | "running" | "lastVerifiedAt"> & {
  /** Some backup has ended "done". */
  anyDone: boolean;
};

/**
 * Red when no backup has finished; when no backup whose restore drill passed finished within 26
 * hours (a site's first backup is given those 26 hours for its drill); when the newest backup
 * failed, or its drill or its copy off the machine did.
 */
export function backupVerdict(facts: BackupFacts, now: Date): HealthVerdictView {
  const reasons: string[] = [];
  const { last } = facts;
  if (!facts.anyDone) {
    reasons.push(
      facts.running
        ? `No backup has been made yet (the first is running since ${indiaTimeWords(facts.running.startedAt)}).`
        : "No backup has been made yet.",
    );
  } else if (facts.lastVerifiedAt) {
    const age = now.getTime() - Date.parse(facts.lastVerifiedAt);
    if (age > VERIFIED_BACKUP_MAX_AGE_MS)
      reasons.push(
        `The last verified backup (one whose restore drill passed) is from ${indiaTimeWords(facts.lastVerifiedAt)}, ${durationWords(age)} ago: more than 26 hours.`,
      );
  } else {
    const awaitingDrill =
      last?.status === "done" &&
      last.drill.status === null &&
      last.finishedAt !== null &&
      now.getTime() - Date.parse(last.finishedAt) <= VERIFIED_BACKUP_MAX_AGE_MS;
    if (!awaitingDrill) reasons.push("No backup has passed its restore drill yet.");
  }
  if (last?.status === "failed")
    reasons.push(
      `The last backup, started ${indiaTimeWords(last.startedAt)}, failed: ${last.error ?? "no reason recorded"}.`,
    );
  if (last?.status === "done" && last.drill.status === "failed")
    reasons.push(`The last backup's restore drill failed: ${last.drill.detail ?? "no detail recorded"}.`);
  if (last?.status === "done" && last.copy.status === "failed")
    reasons.push(`The last backup's copy off the machine failed: ${last.copy.detail ?? "no detail recorded"}.`);
  return verdict(reasons);
}

// Mail.

export type MailFacts = Omit<MailHealthView, keyof HealthVerdictView | "configured"> & {
  /**
   * The oldest message that is late: waiting since an hour or more, and either mail that goes at
   * once (not a newsletter's, which is paced) or one whose last attempt failed.
   */
  oldestLate: { kind: string; queuedAt: string; attempts: number; lastError: string | null } | null;
  /**
   * Messages given up within the last 24 hours after the last message that went out: how many,
   * and the first's time (its last attempt).
   */
  givenUpSinceLastSent: { count: number; firstAt: string } | null;
};

/**
 * Red when a message has waited more than an hour to go out (mail that goes at once, or one whose
 * last attempt failed), or when every message tried since the last one that went out was given
 * up, the first of them more than an hour ago (within the last 24 hours). "Not set up" without
 * SMTP settings.
 */
export function mailVerdict(facts: MailFacts, configured: boolean, now: Date): HealthVerdictView {
  if (!configured)
    return {
      state: "off",
      reasons: ["Mail is not set up (SMTP_URL, MAIL_FROM and MAIL_TO): nothing is sent, alerts included."],
    };
  const reasons: string[] = [];
  const late = facts.oldestLate;
  if (late && now.getTime() - Date.parse(late.queuedAt) > MAIL_FAILING_AFTER_MS) {
    const waited = durationWords(now.getTime() - Date.parse(late.queuedAt));
    reasons.push(
      late.lastError
        ? `A message (${mailKindWords(late.kind)}) has waited ${waited} to go out; its last attempt failed: ${late.lastError}`
        : `A message (${mailKindWords(late.kind)}) has waited ${waited} to go out and has not been tried: is the site sending mail?`,
    );
  }
  const givenUp = facts.givenUpSinceLastSent;
  if (givenUp && now.getTime() - Date.parse(givenUp.firstAt) > MAIL_FAILING_AFTER_MS) {
    const since = facts.lastSentAt ? `since ${indiaTimeWords(facts.lastSentAt)}` : "yet";
    const count = givenUp.count === 1 ? "1 message was" : `${givenUp.count} messages were`;
    reasons.push(
      `No message has gone out ${since}: ${count} refused or given up since ${indiaTimeWords(givenUp.firstAt)}${facts.lastFailure ? `; the last: ${facts.lastFailure.error}` : ""}`,
    );
  }
  return verdict(reasons);
}

// Publishing.

/**
 * Red when an article or a project due 5 minutes ago or more (by the database's clock) is not
 * public on this instance, and when this instance's clock is more than 5 minutes off the
 * database's: scheduled items then go public late (or early) here. Nothing else can keep a
 * scheduled item from the public: going public is the read's condition on the clock, not a job.
 */
export function publishingVerdict(
  facts: Pick<PublishingHealthView, "late" | "clockOffsetMs"> & { lateCount: number },
): HealthVerdictView {
  const reasons: string[] = [];
  const offset = facts.clockOffsetMs;
  if (Math.abs(offset) > CLOCK_TOLERANCE_MS)
    reasons.push(
      offset < 0
        ? `This instance's clock is ${durationWords(offset)} behind the database's: scheduled articles and projects go public late here. Set the server's time (NTP).`
        : `This instance's clock is ${durationWords(offset)} ahead of the database's: scheduled articles and projects go public early here. Set the server's time (NTP).`,
    );
  if (facts.lateCount > 0) {
    const titles = facts.late.map((item) => `"${item.title}" (due ${indiaTimeWords(item.at)})`).join(", ");
    const more = facts.lateCount > facts.late.length ? ` and ${facts.lateCount - facts.late.length} more` : "";
    reasons.push(`Not public 5 minutes after its time: ${titles}${more}.`);
  }
  return verdict(reasons);
}

// Storage.

/** The share of a disk that is free (0–1), or undefined when it could not be read. */
export function freeShare(disk: DiskView): number | undefined {
  return "freeBytes" in disk && disk.totalBytes > 0 ? disk.freeBytes / disk.totalBytes : undefined;
}

/** Red when a disk the site can read has less than 10% free. */
export function storageVerdict(disks: DiskView[]): HealthVerdictView {
  const reasons: string[] = [];
  for (const disk of disks) {
    const share = freeShare(disk);
    if (share !== undefined && share < DISK_MIN_FREE_SHARE)
      reasons.push(
        `The disk of ${disk.label} has ${(share * 100).toFixed(1)}% free (less than ${DISK_MIN_FREE_SHARE * 100}%).`,
      );
  }
  return verdict(reasons);
}

// Alerts.

/** What health_alerts holds of a line when it is evaluated again. */
export type AlertRow = { red: boolean; since: Date; lastMailedAt: Date | null };

/** The mail a line's new state calls for: it turned red, is still red a day on, or is clear again. */
export type AlertMail = "red" | "still-red" | "clear";

/**
 * What to mail about a line now red (or not), given what health_alerts holds of it:
 * - it turns red: a mail, unless one went out within the day and it had been green less than an
 *   hour (two instances seeing it differently, or a flicker: not a new problem);
 * - it stays red: a mail when the last one is a day old (or none went out: no admin, no mail);
 * - it turns green: "all clear", when a mail went out while it was red.
 */
export function alertMail(row: AlertRow, red: boolean, now: Date): AlertMail | null {
  const lastMailed = row.lastMailedAt?.getTime();
  const dayOld = lastMailed === undefined || now.getTime() - lastMailed >= ALERT_REPEAT_MS;
  if (red && !row.red) return dayOld || now.getTime() - row.since.getTime() >= ALERT_QUIET_MS ? "red" : null;
  if (red && row.red) return dayOld ? "still-red" : null;
  if (!red && row.red) return lastMailed !== undefined && lastMailed >= row.since.getTime() ? "clear" : null;
  return null;
}

/** A line's reasons as one text: what health_alerts keeps, the banner shows and the mail says. */
export function reasonText(line: HealthLineKey, reasons: string[]): string {
  return reasons.length ? reasons.join(" ") : `${HEALTH_LINE_LABELS[line]}: all well.`;
}
