import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { sql } from "drizzle-orm";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eraseAddress } from "#server/admin/privacy/erasure.ts";
import { type Database, queryRows } from "#server/db/client.ts";
import { storeEnquiry } from "#server/db/contact-repository.ts";
import { applyMigrations, knownMigrationHashes } from "#server/db/migrate.ts";
import { subscribeToNewsletter } from "#server/db/newsletter-repository.ts";
import {
  type AdminTestApp,
  buildAdminTestApp,
  joinByInvitation,
  signInWithPasskey,
} from "../../../test/admin-fixtures.ts";
import { seedMediaLibrary } from "../../../test/media-fixtures.ts";
import { createTestDatabase, type TestDatabase, type TestDriver, testDrivers } from "../../../test/databases.ts";
import { LEFT_OUT_TABLES, type Manifest, MANIFEST_PART, verifyArchive } from "./archive.ts";
import { runBackup } from "./backup-runs.ts";
import { makeBackup } from "./make-backup.ts";
import { writeLedgerFile } from "./erasure-ledger.ts";
import { databaseHoldings, newestLedger, restoreArchive } from "./restore.ts";

// Backups and restores through the functions the commands and the daily backup call: every
// table the same after a round trip into either kind of database, an erasure made after the
// backup applied again, an older schema migrated, and every kind of bad archive refused before
// anything is written (docs/decisions/051-backups-that-restore.md). The commands themselves, on a
// running site, are in scripts/backup-commands.test.ts.

/** The archive of each kind of database restores into both kinds, where the run has a PostgreSQL server. */
const targetDrivers = (source: TestDriver): TestDriver[] =>
  process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : [source];

const mail = { configured: false, acknowledge: false };

async function addEnquiry(db: Database, firstName: string, email: string) {
  await storeEnquiry(db, {
    data: {
      firstName,
      lastName: "Patel",
      email,
      company: null,
      service: "grid-integration",
      message: "Study, please.",
    },
    idempotencyKey: crypto.randomUUID(),
    spamReason: null,
    mail,
  });
}

/** Every table's rows, as sorted JSON, but those a backup leaves out and its own record. */
async function dumpTables(db: Database): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select tablename as name from pg_tables where schemaname = current_schema() order by tablename`,
  );
  const dump: Record<string, string> = {};
  for (const { name } of tables) {
    if (name in LEFT_OUT_TABLES || name === "backup_runs" || name === "schema_migrations") continue;
    const [row] = await queryRows<{ rows: string }>(
      db,
      sql`select coalesce(json_agg(x order by x::text), '[]')::text as rows from (select to_jsonb(t) as x from ${sql.raw(`"${name}"`)} t) s`,
    );
    dump[name] = row!.rows;
  }
  return dump;
}

/** Rewrites an archive's parts through `change` (a part's name and bytes in, bytes or null out). */
async function rewriteArchive(from: string, to: string, change: (name: string, data: Buffer) => Buffer | null) {
  const extract = tar.extract();
  const pack = tar.pack();
  const writing = pipeline(pack, createGzip(), createWriteStream(to));
  const reading = pipeline(createReadStream(from), createGunzip(), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const data = change(entry.header.name, Buffer.concat(chunks));
    if (data) pack.entry({ name: entry.header.name, size: data.length }, data);
  }
  await reading;
  pack.finalize();
  await writing;
}

describe.each(testDrivers)("A backup of the site on %s", (driver: TestDriver) => {
  let t: AdminTestApp;
  let dir: string;
  let archive: string;
  let manifest: Manifest;
  let before: Record<string, string>;
  let passkey: Awaited<ReturnType<typeof joinByInvitation>>;
  const targets: TestDatabase[] = [];

  beforeAll(async () => {
    t = await buildAdminTestApp(driver);
    dir = await mkdtemp(path.join(tmpdir(), "site-backup-"));
    await seedMediaLibrary(t.database.db);
    passkey = await joinByInvitation(t, { email: "admin@firm.example", name: "Admin", role: "admin" });
    await addEnquiry(t.database.db, "Asha", "asha@example.com");
    await addEnquiry(t.database.db, "Gone", "Gone@Example.com");
    await subscribeToNewsletter(t.database.db, "reader@example.com");
    await subscribeToNewsletter(t.database.db, "gone@example.com");
    before = await dumpTables(t.database.db);
    // On the embedded database, read from a copy of its files as the site's backups are (the
    // backup made below without one reads the database itself, as a command does on a running site).
    const run = await runBackup(t.database.db, {
      dir,
      passphrase: undefined,
      driver: t.database.driver,
      openCopy: t.database.openCopy,
      trigger: "command",
      requestedBy: "command line",
    });
    archive = run.file;
    manifest = await verifyArchive(archive, undefined);
    // After the backup: an enquiry, and an erasure (whose ledger the daily backup and the
    // erasure itself write beside the archives).
    await addEnquiry(t.database.db, "After", "after@example.com");
    await eraseAddress(t.database.db, "gone@example.com");
    await writeLedgerFile(t.database.db, dir);
  }, 120_000);

  afterAll(async () => {
    for (const target of targets) await target.drop();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const fresh = async (kind: TestDriver) => {
    const target = await createTestDatabase(kind);
    targets.push(target);
    return target;
  };

  it("holds every table's rows and every picture, with a manifest that says so", async () => {
    const rows = Object.fromEntries(manifest.tables.map((table) => [table.name, table.rows]));
    expect(rows.contact_submissions).toBe(2);
    expect(rows.newsletter_subscribers).toBe(2);
    expect(rows.staff).toBe(1);
    expect(rows.passkeys).toBe(1);
    for (const leftOut of Object.keys(LEFT_OUT_TABLES)) expect(rows).not.toHaveProperty(leftOut);
    const [pictures] = await queryRows<{ files: number | string; bytes: number | string }>(
      t.database.db,
      sql`select count(*) as files, coalesce(sum(octet_length(bytes)), 0) as bytes from media_files`,
    );
    expect(manifest.media).toEqual({ files: Number(pictures!.files), bytes: Number(pictures!.bytes) });
    expect(manifest.media.files).toBeGreaterThan(0);
    expect(manifest.migrations).toEqual(knownMigrationHashes());
    expect(manifest.database).toBe(driver);
  });

  it.each(targetDrivers(driver))(
    "restores into a fresh %s database: every row the same, the erasure made after it applied again",
    { timeout: 120_000 },
    async (kind) => {
      const target = await fresh(kind);
      const ledger = await newestLedger([dir]);
      const result = await restoreArchive(target.db, archive, manifest, { ledger });
      expect(result.ledger).toMatchObject({ addresses: 1, counts: { enquiries: 1, subscriptions: 1 } });
      const restored = await dumpTables(target.db);
      // What the erasure removed is gone; everything else is as it was at the backup.
      // The erased address's rows, and the rows that name them (its enquiry's mail, its confirmation).
      const gone = (row: Record<string, unknown>) => /gone@example\.com/i.test(JSON.stringify(row));
      const goneIds = new Set(
        ["contact_submissions", "newsletter_subscribers"].flatMap((table) =>
          (JSON.parse(before[table]!) as Record<string, unknown>[]).filter(gone).map((row) => row.id),
        ),
      );
      const rowsOf = (dump: Record<string, string>, table: string) =>
        (JSON.parse(dump[table] ?? "[]") as Record<string, unknown>[]).filter(
          (row) => !gone(row) && !Object.values(row).some((value) => goneIds.has(value)),
        );
      expect(rowsOf(restored, "erasure_ledger")).toHaveLength(1);
      expect(Object.keys(restored).sort()).toEqual(Object.keys(before).sort());
      for (const table of Object.keys(before).filter((name) => name !== "erasure_ledger"))
        expect({ table, rows: rowsOf(restored, table) }).toEqual({ table, rows: rowsOf(before, table) });
      const names = await queryRows<{ first_name: string }>(
        target.db,
        sql`select first_name from contact_submissions order by first_name`,
      );
      expect(names.map((row) => row.first_name)).toEqual(["Asha"]);
      // New rows get ids past the restored ones.
      await target.db.execute(sql`insert into audit_events (actor_label, action) values ('test', 'after-restore')`);
      const [ids] = await queryRows<{ distinct_ids: number | string; total: number | string }>(
        target.db,
        sql`select count(distinct id) as distinct_ids, count(*) as total from audit_events`,
      );
      expect(Number(ids!.distinct_ids)).toBe(Number(ids!.total));
    },
  );

  it("restores a database in which the staff's passkeys sign in as before", { timeout: 120_000 }, async () => {
    const other = await buildAdminTestApp(driver, { content: false });
    try {
      await restoreArchive(other.database.db, archive, manifest);
      const answer = await signInWithPasskey(other, passkey.authenticator);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers["set-cookie"]).toBeDefined();
    } finally {
      await other.close();
    }
  });

  it("does not erase again what an address sent after its erasure", async () => {
    const target = await fresh(driver);
    // An archive made after the erasure: the ledger's entry is older than it, and changes nothing.
    await addEnquiry(t.database.db, "Back", "gone@example.com");
    const later = await runBackup(t.database.db, {
      dir,
      passphrase: undefined,
      driver: t.database.driver,
      trigger: "command",
      requestedBy: "command line",
      now: new Date(Date.now() + 1000),
    });
    const result = await restoreArchive(target.db, later.file, later.manifest, { ledger: await newestLedger([dir]) });
    expect(result.ledger).toMatchObject({ addresses: 0 });
    const names = await queryRows<{ first_name: string }>(
      target.db,
      sql`select first_name from contact_submissions order by first_name`,
    );
    expect(names.map((row) => row.first_name)).toEqual(["After", "Asha", "Back"]);
  });

  it(
    "refuses a cut, changed or newer archive before writing anything, and a restore that fails changes nothing",
    { timeout: 120_000 },
    async () => {
      const target = await fresh(driver);
      await applyMigrations(target.db);
      await addEnquiry(target.db, "Kept", "kept@example.com");
      const untouched = await dumpTables(target.db);
      const bytes = await readFile(archive);

      const cut = path.join(dir, "cut.tar.gz");
      await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      await expect(verifyArchive(cut, undefined)).rejects.toThrow(
        /cut\.tar\.gz is damaged in (part \S+|the archive after part \S+): it is cut short/,
      );

      const changed = path.join(dir, "changed.tar.gz");
      await rewriteArchive(archive, changed, (name, data) => {
        if (name !== manifest.tables.find((table) => table.name === "contact_submissions")!.parts[0]) return data;
        return Buffer.from(data.toString("utf8").replace("Asha", "Usha"));
      });
      await expect(verifyArchive(changed, undefined)).rejects.toThrow(
        /changed\.tar\.gz is damaged in part tables\/contact_submissions\/00001\.ndjson: its SHA-256 does not match the manifest/,
      );

      const newer = path.join(dir, "newer.tar.gz");
      await rewriteArchive(archive, newer, (name, data) => {
        if (name !== MANIFEST_PART) return data;
        const changedManifest = JSON.parse(data.toString("utf8")) as Manifest;
        changedManifest.migrations.push("f".repeat(64));
        return Buffer.from(JSON.stringify(changedManifest));
      });
      const newerManifest = await verifyArchive(newer, undefined);
      await expect(restoreArchive(target.db, newer, newerManifest)).rejects.toThrow(
        /made by a newer version of the site/,
      );

      // Checked, then replaced by another file before the restore read it again: rolled back.
      await expect(restoreArchive(target.db, changed, manifest)).rejects.toThrow(/changed since it was checked/);
      expect(await dumpTables(target.db)).toEqual(untouched);
      expect((await databaseHoldings(target.db)).summary).toMatch(/1 enquiries/);
    },
  );

  it("restores an archive of an older schema, then migrates it", { timeout: 120_000 }, async () => {
    const old = await fresh(driver);
    const hashes = knownMigrationHashes();
    await applyMigrations(old.db, { only: new Set(hashes.slice(0, -1)) });
    // By hand: the code's insert names the newest migration's columns, which this schema lacks.
    await old.db.execute(
      sql`insert into contact_submissions (first_name, last_name, email, message) values ('Older', 'Site', 'older@example.com', 'An enquiry.')`,
    );
    // A folder of its own: archives are named by the second, and the others here are of this second too.
    const oldRun = await runBackupWithoutRecord(old.db, old.driver, path.join(dir, "older"));
    expect(oldRun.manifest.migrations).toEqual(hashes.slice(0, -1));
    const target = await fresh(driver);
    const result = await restoreArchive(target.db, oldRun.file, oldRun.manifest);
    expect(result.migrated).toBe(1);
    const [row] = await queryRows<{ first_name: string }>(target.db, sql`select first_name from contact_submissions`);
    expect(row?.first_name).toBe("Older");
    const applied = await queryRows<{ hash: string }>(target.db, sql`select hash from schema_migrations`);
    expect(applied).toHaveLength(hashes.length);
  });
});

describe.runIf(testDrivers.includes("pglite")).each(["in memory", "in a folder"])(
  "A backup of the embedded database %s, in a thread of its own as the site runs it",
  (where) => {
    let site: TestDatabase;
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), "site-backup-copy-"));
      site = await createTestDatabase("pglite", {
        from: "empty",
        thread: "worker",
        ...(where === "in a folder" ? { dataDir: path.join(dir, "site") } : {}),
      });
      await seedMediaLibrary(site.db);
      await addEnquiry(site.db, "Before", "before@example.com");
    }, 120_000);

    afterAll(async () => {
      await site?.drop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("reads a copy: the site writes and reads while it runs, and what it writes after the copy is not in the archive", async () => {
      let copied!: () => void;
      const copyTaken = new Promise<void>((resolve) => (copied = resolve));
      const backups = path.join(dir, "backups");
      const backup = makeBackup(site.db, {
        dir: backups,
        driver: "pglite",
        openCopy: async (copyDir) => {
          const copy = await site.openCopy!(copyDir);
          copied();
          return copy;
        },
      });
      await copyTaken;
      // The backup now reads its copy; the site's one session is free for the site.
      const siteWork = (async () => {
        await addEnquiry(site.db, "During", "during@example.com");
        return queryRows<{ n: number | string }>(site.db, sql`select count(*) as n from contact_submissions`);
      })();
      expect(await Promise.race([siteWork.then(() => "the site"), backup.then(() => "the backup")])).toBe("the site");
      expect(Number((await siteWork)[0]!.n)).toBe(2);

      const { file, manifest } = await backup;
      expect(manifest.tables.find((table) => table.name === "contact_submissions")!.rows).toBe(1);
      expect(manifest.media.files).toBeGreaterThan(0);
      const target = await createTestDatabase("pglite");
      try {
        await restoreArchive(target.db, file, await verifyArchive(file, undefined));
        const names = await queryRows<{ first_name: string }>(
          target.db,
          sql`select first_name from contact_submissions`,
        );
        expect(names.map((row) => row.first_name)).toEqual(["Before"]);
      } finally {
        await target.drop();
      }
      // The copy's folder is gone with the backup.
      expect((await readdir(backups)).filter((name) => name.startsWith("."))).toEqual([]);
    }, 120_000);
  },
);

/** A backup of a database older than backup_runs: the archive alone, as makeBackup writes it. */
async function runBackupWithoutRecord(db: Database, driver: "pglite" | "postgres", dir: string) {
  return makeBackup(db, { dir, driver, now: new Date(Date.now() - 5000) });
}
