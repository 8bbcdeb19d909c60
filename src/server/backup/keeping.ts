// Which backup archives to keep: the same rules for BACKUP_DIR and for the off-site bucket
// (offsite.ts). Pure functions of the archives' names and the time now.

/** How many archives to keep; see archivesToDelete for the exact rule. */
export type KeepingRules = {
  /** The newest archive of each of this many India days (the latest that have one). */
  keepDaily: number;
  /** The newest archive of each of this many ISO weeks, Monday to Sunday in India (the latest that have one). */
  keepWeekly: number;
  /** No archive older than this many days is kept, whatever the two counts say. */
  maxAgeDays: number;
};

/** `site-2026-11-29T023000Z.tar.gz`, or `.tar.gz.enc` when encrypted: the time is UTC. */
const ARCHIVE_NAME = /^site-(\d{4})-(\d{2})-(\d{2})T(\d{2})(\d{2})(\d{2})Z\.tar\.gz(?:\.enc)?$/;

/**
 * The UTC time written in an archive's name (`site-YYYY-MM-DDTHHMMSSZ.tar.gz`, or `.tar.gz.enc`),
 * or null for any other name: other files, the erasure ledger `erasures.json`, a partial
 * `*.part`, a name whose date does not exist (2026-02-30, 25:00). The rules never delete a name
 * for which this is null.
 */
export function archiveTime(name: string): Date | null {
  const match = ARCHIVE_NAME.exec(name);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const time = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 2026-02-30 over into March; such a name is not one the site writes.
  const valid =
    time.getUTCFullYear() === year &&
    time.getUTCMonth() === month - 1 &&
    time.getUTCDate() === day &&
    time.getUTCHours() === hour &&
    time.getUTCMinutes() === minute &&
    time.getUTCSeconds() === second;
  return valid ? time : null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** India Standard Time is UTC+5:30 all year: no daylight saving time. */
const INDIA_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

/** The India calendar day of an instant, as YYYY-MM-DD. */
export function indiaDay(time: Date): string {
  return new Date(time.getTime() + INDIA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The ISO week (Monday to Sunday, India time) of an instant, named by its Monday as YYYY-MM-DD. */
export function indiaWeek(time: Date): string {
  const local = new Date(time.getTime() + INDIA_OFFSET_MS);
  const sinceMonday = (local.getUTCDay() + 6) % 7;
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  return new Date(midnight - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The archives among `names` that the keeping rules delete at `now`. The rule, exactly:
 *
 * 1. Only names that are archives count (archiveTime is not null); every other name is never
 *    returned.
 * 2. An archive is *too old* when `now` minus its time is more than `maxAgeDays` × 24 hours. A too
 *    old archive is always deleted, whatever the rules below say: no backup is kept for longer
 *    than that (a year by default, the retention decision).
 * 3. Every other archive is kept when any of these holds, else deleted:
 *    a. it is the newest archive of its India day (Asia/Kolkata, UTC+5:30, no daylight saving),
 *       and that day is one of the `keepDaily` latest India days that have an archive (days with
 *       none are skipped, not counted: a month without backups does not delete the last ones);
 *    b. it is the newest archive of its ISO week (Monday 00:00 to Sunday 24:00, India time), and
 *       that week is one of the `keepWeekly` latest weeks that have an archive;
 *    c. it is the newest archive of all.
 *
 * (Too old archives are older than all others, so they never take a day or week from a newer one.)
 * "Newest" is by the time in the name; two archives of the same time (one encrypted, one not) are ordered by name, so the
 * choice does not depend on the order of `names`. An archive dated after `now` (a clock set
 * wrong) is treated like any other. The result is in the order of `names`.
 */
export function archivesToDelete(names: string[], now: Date, rules: KeepingRules): string[] {
  const archives = names
    .map((name) => ({ name, time: archiveTime(name) }))
    .filter((archive): archive is { name: string; time: Date } => archive.time !== null)
    // Newest first; the same time by name, descending.
    .sort((a, b) => b.time.getTime() - a.time.getTime() || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));

  const keep = new Set<string>();
  const newestOfLatest = (periodOf: (time: Date) => string, count: number) => {
    const seen = new Set<string>();
    for (const archive of archives) {
      const period = periodOf(archive.time);
      if (seen.has(period)) continue;
      if (seen.size >= count) break;
      seen.add(period);
      keep.add(archive.name);
    }
  };
  newestOfLatest(indiaDay, rules.keepDaily);
  newestOfLatest(indiaWeek, rules.keepWeekly);
  if (archives[0]) keep.add(archives[0].name);

  const oldest = now.getTime() - rules.maxAgeDays * DAY_MS;
  const doomed = new Set(
    archives.filter((archive) => archive.time.getTime() < oldest || !keep.has(archive.name)).map((a) => a.name),
  );
  return names.filter((name) => doomed.has(name));
}
