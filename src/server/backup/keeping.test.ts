import { describe, expect, it } from "vitest";
import { archiveTime, archivesToDelete, indiaDay, indiaWeek } from "./keeping.ts";

const rules = { keepDaily: 7, keepWeekly: 4, maxAgeDays: 365 };

/** The archive name the site writes for a UTC time. */
const nameAt = (iso: string, encrypted = false) => {
  const stamp = new Date(iso)
    .toISOString()
    .replace(/[:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");
  return `site-${stamp}.tar.gz${encrypted ? ".enc" : ""}`;
};

/** The archives of `names` the rules keep. */
const kept = (names: string[], now: string, keeping = rules) => {
  const doomed = new Set(archivesToDelete(names, new Date(now), keeping));
  return names.filter((name) => !doomed.has(name));
};

describe("archiveTime", () => {
  it("reads the UTC time from both kinds of archive name", () => {
    expect(archiveTime("site-2026-11-29T023000Z.tar.gz")).toEqual(new Date("2026-11-29T02:30:00Z"));
    expect(archiveTime("site-2026-11-29T023000Z.tar.gz.enc")).toEqual(new Date("2026-11-29T02:30:00Z"));
    expect(nameAt("2026-11-29T02:30:00Z")).toBe("site-2026-11-29T023000Z.tar.gz");
  });

  it("is null for every other name", () => {
    for (const name of [
      "erasures.json",
      "site-2026-11-29T023000Z.tar.gz.part",
      "site-2026-11-29T023000Z.tar.gz.enc.part",
      "site-2026-11-29T023000Z.tar",
      "site-2026-11-29T02:30:00Z.tar.gz",
      "site-2026-11-29.tar.gz",
      "backups/site-2026-11-29T023000Z.tar.gz",
      "site-2026-11-29T023000Z.tar.gz.bak",
      "xsite-2026-11-29T023000Z.tar.gz",
      "site-2026-02-30T023000Z.tar.gz",
      "site-2026-11-29T250000Z.tar.gz",
      "",
    ]) {
      expect(archiveTime(name), name).toBeNull();
    }
  });
});

describe("India days and weeks", () => {
  it("puts 18:30 UTC and later in the next India day, and Sunday 18:30 UTC in the next week", () => {
    expect(indiaDay(new Date("2026-11-28T18:29:59Z"))).toBe("2026-11-28");
    expect(indiaDay(new Date("2026-11-28T18:30:00Z"))).toBe("2026-11-29");
    expect(indiaDay(new Date("2026-11-28T19:00:00Z"))).toBe("2026-11-29");
    // 2026-11-29 is a Sunday; its week began on Monday 2026-11-23.
    expect(indiaWeek(new Date("2026-11-29T18:29:59Z"))).toBe("2026-11-23");
    expect(indiaWeek(new Date("2026-11-29T18:30:00Z"))).toBe("2026-11-30");
    expect(indiaWeek(new Date("2026-11-22T18:30:00Z"))).toBe("2026-11-23");
    // Across a year: 2027-01-01 is a Friday, in the week of Monday 2026-12-28.
    expect(indiaWeek(new Date("2027-01-01T12:00:00Z"))).toBe("2026-12-28");
  });
});

describe("archivesToDelete", () => {
  it("keeps, of a month of daily archives, the last 7 days and the newest of each of the last 4 weeks", () => {
    // One a day at 08:00 India time, 2026-10-31 to 2026-11-29 (a Sunday): 30 archives.
    const names = Array.from({ length: 30 }, (_, i) =>
      nameAt(new Date(Date.UTC(2026, 9, 31 + i, 2, 30)).toISOString()),
    );
    expect(names[0]).toBe("site-2026-10-31T023000Z.tar.gz");
    expect(names[29]).toBe("site-2026-11-29T023000Z.tar.gz");
    const remaining = kept(names, "2026-11-29T03:00:00Z");
    expect(remaining).toEqual([
      // The Sundays ending the three weeks before this one (this week's is today's)...
      "site-2026-11-08T023000Z.tar.gz",
      "site-2026-11-15T023000Z.tar.gz",
      "site-2026-11-22T023000Z.tar.gz",
      // ...and the last seven days, Monday to Sunday.
      "site-2026-11-23T023000Z.tar.gz",
      "site-2026-11-24T023000Z.tar.gz",
      "site-2026-11-25T023000Z.tar.gz",
      "site-2026-11-26T023000Z.tar.gz",
      "site-2026-11-27T023000Z.tar.gz",
      "site-2026-11-28T023000Z.tar.gz",
      "site-2026-11-29T023000Z.tar.gz",
    ]);
    expect(archivesToDelete(names, new Date("2026-11-29T03:00:00Z"), rules)).toHaveLength(20);

    // A day later, with the next day's archive: the oldest daily one (Monday 23rd) goes, and the
    // new week's first archive takes a week, so the 8th's goes too.
    const next = [...remaining, nameAt("2026-11-30T02:30:00Z")];
    expect(archivesToDelete(next, new Date("2026-11-30T03:00:00Z"), rules)).toEqual([
      "site-2026-11-08T023000Z.tar.gz",
      "site-2026-11-23T023000Z.tar.gz",
    ]);
  });

  it("keeps only the newest of several archives of one day, encrypted or not", () => {
    const names = [
      nameAt("2026-11-29T02:30:00Z"),
      nameAt("2026-11-29T10:00:00Z", true),
      nameAt("2026-11-29T06:15:00Z"),
      nameAt("2026-11-28T02:30:00Z"),
    ];
    expect(archivesToDelete(names, new Date("2026-11-29T12:00:00Z"), rules)).toEqual([
      "site-2026-11-29T023000Z.tar.gz",
      "site-2026-11-29T061500Z.tar.gz",
    ]);
    // The same answer whatever the order of the names.
    expect(archivesToDelete([...names].reverse(), new Date("2026-11-29T12:00:00Z"), rules).sort()).toEqual([
      "site-2026-11-29T023000Z.tar.gz",
      "site-2026-11-29T061500Z.tar.gz",
    ]);
  });

  it("skips a week with no archive rather than counting it", () => {
    // Weekly archives only; none in the week of Monday 2026-11-09.
    const names = [
      nameAt("2026-10-25T02:30:00Z"),
      nameAt("2026-11-01T02:30:00Z"),
      nameAt("2026-11-08T02:30:00Z"),
      nameAt("2026-11-22T02:30:00Z"),
      nameAt("2026-11-29T02:30:00Z"),
    ];
    expect(archivesToDelete(names, new Date("2026-11-29T03:00:00Z"), { ...rules, keepDaily: 0 })).toEqual([
      "site-2026-10-25T023000Z.tar.gz",
    ]);
    // Days without archives are skipped the same way: the last 7 days that have one.
    expect(archivesToDelete(names, new Date("2026-11-29T03:00:00Z"), { ...rules, keepWeekly: 0 })).toEqual([]);
    expect(
      archivesToDelete(names, new Date("2026-11-29T03:00:00Z"), { ...rules, keepDaily: 2, keepWeekly: 0 }),
    ).toEqual(names.slice(0, 3));
  });

  it("deletes every archive older than maxAgeDays, even one the counts would keep", () => {
    const names = [
      nameAt("2025-11-28T02:29:59Z"), // 365 days and 31 minutes before now: too old
      nameAt("2025-11-29T03:00:00Z"), // exactly 365 days: kept
      nameAt("2026-06-01T02:30:00Z"),
    ];
    expect(archivesToDelete(names, new Date("2026-11-29T03:00:00Z"), rules)).toEqual([names[0]]);
    expect(archivesToDelete(names, new Date("2026-11-29T03:00:01Z"), rules)).toEqual([names[0], names[1]]);
    // Even the newest archive of all goes once it is too old: nothing is kept past the limit.
    expect(archivesToDelete(names, new Date("2027-06-02T03:00:00Z"), rules)).toEqual(names);
    expect(archivesToDelete(names, new Date("2026-11-29T03:00:00Z"), { ...rules, maxAgeDays: 200 })).toEqual([
      names[0],
      names[1],
    ]);
  });

  it("always keeps the newest archive, even when both counts are 0", () => {
    const names = [nameAt("2026-11-27T02:30:00Z"), nameAt("2026-11-28T02:30:00Z"), nameAt("2020-01-01T00:00:00Z")];
    expect(kept(names, "2026-11-29T03:00:00Z", { keepDaily: 0, keepWeekly: 0, maxAgeDays: 365 })).toEqual([names[1]]);
    // An archive dated after now (a clock set wrong) is the newest like any other.
    const future = [...names, nameAt("2027-01-01T00:00:00Z")];
    expect(kept(future, "2026-11-29T03:00:00Z", { keepDaily: 1, keepWeekly: 0, maxAgeDays: 365 })).toEqual([future[3]]);
  });

  it("never deletes a name that is not an archive", () => {
    const others = [
      "erasures.json",
      "site-2020-01-01T000000Z.tar.gz.part",
      "site-2026-11-20T023000Z.tar.gz.enc.part",
      "notes.txt",
      "site-2026-02-30T023000Z.tar.gz",
    ];
    const archives = [nameAt("2019-01-01T00:00:00Z"), nameAt("2026-11-01T02:30:00Z"), nameAt("2026-11-02T02:30:00Z")];
    const names = [...others, ...archives];
    expect(
      archivesToDelete(names, new Date("2026-11-29T03:00:00Z"), { keepDaily: 1, keepWeekly: 0, maxAgeDays: 365 }),
    ).toEqual([archives[0], archives[1]]);
    expect(archivesToDelete(others, new Date("2026-11-29T03:00:00Z"), rules)).toEqual([]);
    expect(archivesToDelete([], new Date("2026-11-29T03:00:00Z"), rules)).toEqual([]);
  });

  it("counts an archive made at 19:00 UTC in the next India day", () => {
    // 2026-11-28T19:00Z is 00:30 on the 29th in India: the same India day as 02:30Z on the 29th.
    const names = [nameAt("2026-11-28T18:00:00Z"), nameAt("2026-11-28T19:00:00Z"), nameAt("2026-11-29T02:30:00Z")];
    const daily = { keepDaily: 7, keepWeekly: 0, maxAgeDays: 365 };
    expect(archivesToDelete(names, new Date("2026-11-29T03:00:00Z"), daily)).toEqual([names[1]]);
    // Two days by UTC, one by India time: with one day kept, 18:00Z (23:30 on the 28th) goes.
    expect(archivesToDelete(names.slice(0, 2), new Date("2026-11-29T03:00:00Z"), { ...daily, keepDaily: 1 })).toEqual([
      names[0],
    ]);
    // And the week: Sunday 2026-11-29T18:30Z is Monday 00:00 in India, a new week.
    const weekly = { keepDaily: 0, keepWeekly: 1, maxAgeDays: 365 };
    const sunday = [nameAt("2026-11-29T02:30:00Z"), nameAt("2026-11-29T18:30:00Z")];
    expect(kept(sunday, "2026-11-30T00:00:00Z", weekly)).toEqual([sunday[1]]);
    expect(kept([sunday[0]!, nameAt("2026-11-29T18:29:00Z")], "2026-11-30T00:00:00Z", weekly)).toEqual([
      "site-2026-11-29T182900Z.tar.gz",
    ]);
  });
});
