import { describe, expect, it } from "vitest";
import { durationWords, sizeWords } from "#shared/admin/health.ts";
import type { BackupRunView, DiskView } from "#shared/admin/pages.ts";
import {
  ALERT_QUIET_MS,
  ALERT_REPEAT_MS,
  alertMail,
  backupVerdict,
  mailVerdict,
  nextBackupAt,
  publishingVerdict,
  storageVerdict,
} from "./health-rules.ts";

// The Health page's rules at their edges (docs/decisions/052-the-health-page-and-alerts.md): the
// backups' 26 hours, mail's hour, publishing's 5 minutes, the disks' 10%, and when an alert is
// mailed. The queries that feed them are health.test.ts's, on both databases.

const now = new Date("2026-11-29T12:00:00.000Z");
const HOUR = 3_600_000;
const MINUTE = 60_000;
const before = (ms: number) => new Date(now.getTime() - ms).toISOString();

const run = (finishedAgo: number, extra: Partial<BackupRunView> = {}): BackupRunView => ({
  trigger: "scheduled",
  requestedBy: "web-1",
  startedAt: before(finishedAgo + 2 * MINUTE),
  finishedAt: before(finishedAgo),
  status: "done",
  bytes: 1_000_000,
  error: null,
  drill: { status: "passed", at: before(finishedAgo), detail: "ok" },
  copy: { status: null, at: null, detail: null },
  ...extra,
});

describe("the backups' rule", () => {
  it("is red without a finished backup, and says one is running", () => {
    expect(backupVerdict({ last: null, running: null, lastVerifiedAt: null, anyDone: false }, now)).toEqual({
      state: "red",
      reasons: ["No backup has been made yet."],
    });
    const running = { ...run(0), status: "running" as const, finishedAt: null };
    expect(backupVerdict({ last: null, running, lastVerifiedAt: null, anyDone: false }, now).reasons).toEqual([
      "No backup has been made yet (the first is running since 29 Nov 2026, 17:28 IST).",
    ]);
  });

  it("turns red once the last verified backup is more than 26 hours old", () => {
    const facts = (age: number) => ({ last: run(age), running: null, lastVerifiedAt: before(age), anyDone: true });
    expect(backupVerdict(facts(26 * HOUR), now).state).toBe("ok");
    expect(backupVerdict(facts(26 * HOUR + MINUTE), now)).toEqual({
      state: "red",
      reasons: [
        "The last verified backup (one whose restore drill passed) is from 28 Nov 2026, 15:29 IST, 26 h 1 min ago: more than 26 hours.",
      ],
    });
  });

  it("is red when the newest backup failed, or its drill or copy did; a drill not yet run is not", () => {
    const verified = before(3 * HOUR);
    const verdict = (last: BackupRunView) =>
      backupVerdict({ last, running: null, lastVerifiedAt: verified, anyDone: true }, now).reasons;
    expect(verdict(run(HOUR, { status: "failed", error: "disk full" }))).toEqual([
      "The last backup, started 29 Nov 2026, 16:28 IST, failed: disk full.",
    ]);
    expect(verdict(run(HOUR, { drill: { status: "failed", at: null, detail: "2 tables differ" } }))).toEqual([
      "The last backup's restore drill failed: 2 tables differ.",
    ]);
    expect(verdict(run(HOUR, { copy: { status: "failed", at: null, detail: "403" } }))).toEqual([
      "The last backup's copy off the machine failed: 403.",
    ]);
    expect(verdict(run(HOUR, { drill: { status: null, at: null, detail: null } }))).toEqual([]);
  });
});

describe("the next scheduled backup", () => {
  it("is BACKUP_TIME in India today when still to come, else tomorrow", () => {
    // 12:00 UTC is 17:30 in India.
    expect(nextBackupAt("18:00", now).toISOString()).toBe("2026-11-29T12:30:00.000Z");
    expect(nextBackupAt("02:30", now).toISOString()).toBe("2026-11-29T21:00:00.000Z");
    expect(nextBackupAt("17:30", now).toISOString()).toBe("2026-11-30T12:00:00.000Z");
    // Just after India's midnight (18:30 UTC), 02:30 is the same India day.
    expect(nextBackupAt("02:30", new Date("2026-11-29T18:31:00Z")).toISOString()).toBe("2026-11-29T21:00:00.000Z");
  });
});

describe("the mail rule", () => {
  const facts = {
    oldestWaiting: null,
    oldestLate: null,
    waiting: 0,
    retrying: 0,
    failedLastDay: 0,
    lastFailure: null,
    lastSentAt: null,
    givenUpSinceLastSent: null,
  };
  const late = (age: number, lastError: string | null) => ({
    ...facts,
    oldestLate: { kind: "notification", queuedAt: before(age), attempts: lastError ? 4 : 0, lastError },
  });

  it("turns red when a message has waited more than an hour", () => {
    expect(mailVerdict(late(HOUR, "421 busy"), true, now).state).toBe("ok");
    expect(mailVerdict(late(HOUR + MINUTE, "421 busy"), true, now).reasons).toEqual([
      "A message (an enquiry's notification to the firm) has waited 1 h 1 min to go out; its last attempt failed: 421 busy",
    ]);
  });

  it("turns red when everything since the last send was given up, the first over an hour ago", () => {
    const givenUp = (age: number) => ({
      ...facts,
      lastSentAt: before(5 * HOUR),
      lastFailure: { at: before(MINUTE), error: "rejected by the SMTP server: 535 auth" },
      givenUpSinceLastSent: { count: 3, firstAt: before(age) },
    });
    expect(mailVerdict(givenUp(59 * MINUTE), true, now).state).toBe("ok");
    expect(mailVerdict(givenUp(61 * MINUTE), true, now).reasons).toEqual([
      "No message has gone out since 29 Nov 2026, 12:30 IST: 3 messages were refused or given up since 29 Nov 2026, 16:29 IST; the last: rejected by the SMTP server: 535 auth",
    ]);
  });

  it("is 'not set up' without SMTP settings, whatever the outbox holds", () => {
    expect(mailVerdict(late(5 * HOUR, "x"), false, now).state).toBe("off");
  });
});

describe("the publishing rule", () => {
  const item = { kind: "article" as const, title: "Harmonics", at: before(10 * MINUTE), href: "/x" };
  it("is red for items due and not public here, and for a clock more than 5 minutes off", () => {
    expect(publishingVerdict({ late: [], lateCount: 0, clockOffsetMs: 5 * MINUTE }).state).toBe("ok");
    expect(publishingVerdict({ late: [], lateCount: 0, clockOffsetMs: -5 * MINUTE - 1000 }).reasons).toEqual([
      "This instance's clock is 5 min behind the database's: scheduled articles and projects go public late here. Set the server's time (NTP).",
    ]);
    expect(publishingVerdict({ late: [], lateCount: 0, clockOffsetMs: 7 * MINUTE }).reasons[0]).toContain(
      "7 min ahead of the database's: scheduled articles and projects go public early here",
    );
    expect(publishingVerdict({ late: [item], lateCount: 3, clockOffsetMs: -11 * MINUTE }).reasons[1]).toBe(
      'Not public 5 minutes after its time: "Harmonics" (due 29 Nov 2026, 17:20 IST) and 2 more.',
    );
  });
});

describe("the storage rule", () => {
  const disk = (free: number): DiskView => ({
    label: "the backups (BACKUP_DIR)",
    path: "/srv/backups",
    missing: false,
    freeBytes: free,
    totalBytes: 1000,
  });
  it("is red under 10% free, and says nothing of a disk it could not read", () => {
    expect(storageVerdict([disk(100)]).state).toBe("ok");
    expect(storageVerdict([disk(99)]).reasons).toEqual([
      "The disk of the backups (BACKUP_DIR) has 9.9% free (less than 10%).",
    ]);
    expect(storageVerdict([{ label: "x", path: "/x", missing: false, unreadable: "EACCES" }]).state).toBe("ok");
  });
});

describe("when an alert is mailed", () => {
  const at = (ms: number) => new Date(now.getTime() + ms);
  const green = (since: Date, lastMailedAt: Date | null) => ({ red: false, since, lastMailedAt });
  const red = (since: Date, lastMailedAt: Date | null) => ({ red: true, since, lastMailedAt });

  it("turning red mails; staying red mails again a day after the last; clearing mails when red was mailed", () => {
    expect(alertMail(green(at(-HOUR), null), true, now)).toBe("red");
    expect(alertMail(red(now, now), true, at(ALERT_REPEAT_MS - 1))).toBeNull();
    expect(alertMail(red(now, now), true, at(ALERT_REPEAT_MS))).toBe("still-red");
    expect(alertMail(red(now, null), true, at(MINUTE))).toBe("still-red");
    expect(alertMail(red(now, now), false, at(MINUTE))).toBe("clear");
    expect(alertMail(red(now, at(-MINUTE)), false, at(MINUTE))).toBeNull();
    expect(alertMail(green(now, null), false, at(MINUTE))).toBeNull();
  });

  it("does not mail red again within the day unless it had been green an hour", () => {
    const cleared = at(-30 * MINUTE);
    expect(alertMail(green(cleared, cleared), true, now)).toBeNull();
    expect(alertMail(green(cleared, cleared), true, at(ALERT_QUIET_MS - 30 * MINUTE))).toBe("red");
    expect(alertMail(green(cleared, at(-ALERT_REPEAT_MS)), true, now)).toBe("red");
  });
});

describe("the words", () => {
  it("says lengths of time and sizes as a person reads them", () => {
    expect(durationWords(30_000)).toBe("under a minute");
    expect(durationWords(-12 * MINUTE)).toBe("12 min");
    expect(durationWords(2 * HOUR + 5 * MINUTE)).toBe("2 h 5 min");
    expect(durationWords(30 * HOUR)).toBe("30 h");
    expect(durationWords(76 * HOUR)).toBe("3 days 4 h");
    expect(sizeWords(14_200_000)).toBe("14.2 MB");
    expect(sizeWords(1_300_000_000)).toBe("1.3 GB");
    expect(sizeWords(42_000)).toBe("42 kB");
  });
});
