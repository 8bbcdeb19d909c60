import { createRequire } from "node:module";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "#server/config.ts";
import { queryRows } from "#server/db/client.ts";
import { createTestDatabase, onPglite, onPostgres, type TestDatabase } from "../../../test/databases.ts";
import { backupDueAt, indiaDay, nextBackupAt, startBackupSchedule } from "./daily-backup.ts";
import { defaultDrillEntry, drillInChild } from "./drill.ts";
import { runBackup } from "./backup-runs.ts";
import { openBucket } from "./offsite.ts";

// The daily backup (docs/decisions/051-backups-that-restore.md): two instances over one
// PostgreSQL make one archive a day, drilled in a child process and copied to a real
// S3-compatible server (s3rver), and the keeping rules delete what is too old, here and there.

type S3rverInstance = { configureBuckets: () => Promise<void>; callback: () => Parameters<typeof createServer>[1] };
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: Record<string, unknown>) => S3rverInstance;

const log = pino({ level: "silent" });

describe("The time of the daily backup", () => {
  it("is BACKUP_TIME in India, whatever the server's zone", () => {
    expect(indiaDay(new Date("2026-11-29T19:00:00Z"))).toBe("2026-11-30");
    expect(backupDueAt("2026-11-30", "02:30").toISOString()).toBe("2026-11-29T21:00:00.000Z");
    expect(nextBackupAt(new Date("2026-11-29T20:59:00Z"), "02:30").toISOString()).toBe("2026-11-29T21:00:00.000Z");
    expect(nextBackupAt(new Date("2026-11-29T21:00:01Z"), "02:30").toISOString()).toBe("2026-11-30T21:00:00.000Z");
  });
});

describe.runIf(onPostgres)("The daily backup on two instances over one PostgreSQL", () => {
  let database: TestDatabase;
  let server: Server;
  let storeDir: string;
  let dirs: string[];
  let bucketUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase("postgres", { from: "content" });
    storeDir = await mkdtemp(path.join(tmpdir(), "backup-s3rver-"));
    const s3rver = new S3rver({ silent: true, directory: storeDir, configureBuckets: [{ name: "backups" }] });
    await s3rver.configureBuckets();
    server = createServer(s3rver.callback());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    bucketUrl = `http://S3RVER:S3RVER@127.0.0.1:${port}/backups/site`;
    dirs = [await mkdtemp(path.join(tmpdir(), "backups-a-")), await mkdtemp(path.join(tmpdir(), "backups-b-"))];
  }, 60_000);

  afterAll(async () => {
    await database?.drop();
    await new Promise((resolve) => server?.close(resolve));
    for (const dir of [storeDir, ...(dirs ?? [])]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    "makes one archive, drills it, copies it off the machine and deletes the oldest",
    { timeout: 180_000 },
    async () => {
      const now = new Date("2026-11-30T03:00:00Z"); // 08:30 in India, past 02:30.
      // An archive from the year before (past the ceiling), here and in the bucket: the rules delete it.
      const old = "site-2025-10-01T210000Z.tar.gz";
      for (const dir of dirs) await writeFile(path.join(dir, old), "old");
      const oldFile = path.join(storeDir, "old.tar.gz");
      await writeFile(oldFile, "old");
      const bucket = openBucket(bucketUrl);
      await bucket.put(old, oldFile);

      const instances = dirs.map((dir) =>
        startBackupSchedule({
          db: database.db,
          driver: "postgres",
          settings: {
            ...parseConfig({ BACKUP_DIR: dir, BACKUP_S3_URL: bucketUrl }).backup,
            scheduled: true,
          },
          log,
          drillEntry: defaultDrillEntry,
          now: () => now,
          schedule: false,
        }),
      );
      const made = await Promise.all(instances.map((instance) => instance.check()));
      expect(made.filter(Boolean)).toHaveLength(1);
      const run = made.find(Boolean)!;

      const runs = await queryRows<{
        scheduled_day: string;
        status: string;
        drill_status: string;
        drill_detail: string;
        copy_status: string;
        file_name: string;
      }>(database.db, sql`select * from backup_runs`);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({
        scheduled_day: "2026-11-30",
        status: "done",
        drill_status: "passed",
        copy_status: "copied",
        file_name: run.fileName,
      });
      expect(runs[0]!.drill_detail).toMatch(/pages rendered/);
      // The instance that made it keeps its own folder by the rules; the other made nothing.
      const archivesIn = async (dir: string) => (await readdir(dir)).filter((name) => name.startsWith("site-")).sort();
      const madeIn = path.dirname(run.file);
      expect(await archivesIn(madeIn)).toEqual([run.fileName]);
      expect(await archivesIn(dirs.find((dir) => path.resolve(dir) !== madeIn)!)).toEqual([old]);
      expect(await bucket.list()).toEqual(["erasures.json", run.fileName]);
      bucket.close();

      // The same day again: nothing more.
      expect(await instances[1]!.check()).toBeUndefined();
      expect(await queryRows(database.db, sql`select id from backup_runs`)).toHaveLength(1);
      for (const instance of instances) await instance.stop();
    },
  );
});

describe.runIf(onPglite)("The restore drill", () => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase("pglite", { from: "content" });
    dir = await mkdtemp(path.join(tmpdir(), "drill-"));
  });
  afterAll(async () => {
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    "fails in words on an archive it cannot restore, and on one that outlasts its time",
    { timeout: 120_000 },
    async () => {
      const run = await runBackup(database.db, {
        dir,
        passphrase: "a passphrase of the test",
        driver: "pglite",
        trigger: "command",
        requestedBy: "test",
      });
      const wrong = await drillInChild(run.file, { entry: defaultDrillEntry, passphrase: "not the passphrase at all" });
      expect(wrong).toEqual({ passed: false, detail: expect.stringMatching(/the passphrase is wrong/) });
      const slow = await drillInChild(run.file, {
        entry: defaultDrillEntry,
        passphrase: "a passphrase of the test",
        timeLimitMs: 50,
      });
      expect(slow).toEqual({ passed: false, detail: expect.stringMatching(/took longer than/) });
      // The site stopping kills a drill in hand rather than leaving it to run on.
      const stopping = new AbortController();
      const stopped = drillInChild(run.file, {
        entry: defaultDrillEntry,
        passphrase: "a passphrase of the test",
        signal: stopping.signal,
      });
      setTimeout(() => stopping.abort(), 100);
      expect(await stopped).toEqual({
        passed: false,
        detail: "The site stopped during the drill, which was stopped with it.",
      });
    },
  );
});
