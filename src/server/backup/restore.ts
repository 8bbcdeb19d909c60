import path from "node:path";
import { sql } from "drizzle-orm";
import type { ErasureCounts } from "#shared/admin/pages.ts";
import { eraseAddress } from "../admin/privacy/erasure.ts";
import { type Database, queryRows } from "../db/client.ts";
import { applyMigrations, knownMigrationHashes } from "../db/migrate.ts";
import {
  ArchiveError,
  countRows,
  type Manifest,
  MANIFEST_PART,
  MEDIA_FILES_TABLE,
  readArchiveParts,
  sha256,
} from "./archive.ts";
import { hashOf, type Ledger, LEDGER_FILE, readLedgerFile } from "./erasure-ledger.ts";

// `npm run restore` and the restore drill: an archive (verified first, archive.ts) into a
// database, in one transaction, so that a failure leaves the database as it was
// (docs/decisions/051-backups-that-restore.md).

/**
 * How the archive's schema compares with this site's: "same", or "older" (restored under its own
 * migrations, then migrated). A newer or unknown one is refused: this site cannot know its tables.
 */
export function compareSchema(manifest: Manifest): "same" | "older" {
  const known = knownMigrationHashes();
  const prefix = known.slice(0, manifest.migrations.length);
  if (manifest.migrations.some((hash) => !known.includes(hash)))
    throw new ArchiveError(
      `The archive was made by a newer version of the site (its schema has ${manifest.migrations.length} migrations, this one knows ${known.length}): update the site first, then restore.`,
    );
  if (prefix.some((hash, index) => hash !== manifest.migrations[index]))
    throw new ArchiveError("The archive's schema migrations are not in this site's order: it cannot be restored here.");
  return manifest.migrations.length === known.length ? "same" : "older";
}

export type Holdings = { total: number; summary: string };

const HOLDING_LABELS: [table: string, label: string][] = [
  ["blog_posts", "articles"],
  ["projects", "projects"],
  ["team_members", "team members"],
  ["media", "pictures"],
  ["contact_submissions", "enquiries"],
  ["newsletter_subscribers", "subscribers"],
  ["staff", "staff"],
];

/** What the database holds now: the rows of every table, and a line naming the main ones. */
export async function databaseHoldings(db: Database): Promise<Holdings> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select tablename as name from pg_tables where schemaname = current_schema() and tablename <> 'schema_migrations'`,
  );
  if (tables.length === 0) return { total: 0, summary: "nothing" };
  const counts = await queryRows<{ name: string; rows: number | string }>(
    db,
    sql.join(
      tables.map((table) => sql`select ${table.name} as name, count(*) as rows from ${quoted(table.name)}`),
      sql` union all `,
    ),
  );
  const byName = new Map(counts.map((row) => [row.name, Number(row.rows)]));
  const total = [...byName.values()].reduce((sum, rows) => sum + rows, 0);
  const named = HOLDING_LABELS.filter(([table]) => byName.has(table)).map(
    ([table, label]) => `${byName.get(table)} ${label}`,
  );
  return { total, summary: `${named.join(", ")}; ${total} rows in all` };
}

function quoted(name: string) {
  return sql.raw(`"${name.replace(/"/g, '""')}"`);
}

export type LedgerApplied = { file: string; entries: number; addresses: number; counts: ErasureCounts };

/** The newest erasure ledger in these folders (by the time it was written), if any. */
export async function newestLedger(dirs: string[]): Promise<{ file: string; ledger: Ledger } | undefined> {
  let newest: { file: string; ledger: Ledger } | undefined;
  for (const dir of new Set(dirs.map((dir) => path.resolve(dir)))) {
    const file = path.join(dir, LEDGER_FILE);
    const ledger = await readLedgerFile(file);
    if (ledger && (!newest || Date.parse(ledger.updatedAt) > Date.parse(newest.ledger.updatedAt)))
      newest = { file, ledger };
  }
  return newest;
}

/**
 * Erases again, in the restored database, every address the ledger says was erased after
 * `madeAt` (the archive's time: an erasure before it is in the archive already, and what the
 * address sent after the erasure is not the erasure's), and copies the ledger into erasure_ledger.
 */
export async function applyLedger(db: Database, ledger: Ledger, madeAt: Date) {
  const counts: ErasureCounts = { enquiries: 0, notes: 0, mail: 0, subscriptions: 0, newsletterMail: 0 };
  const after = ledger.entries.filter((entry) => Date.parse(entry.erasedAt) > madeAt.getTime());
  let addresses = 0;
  if (after.length > 0) {
    const list = sql.join(
      [...new Set(after.map((entry) => entry.addressHash))].map((hash) => sql`${hash}`),
      sql`, `,
    );
    const found = await queryRows<{ email: string }>(
      db,
      sql`select email from (
            select lower(email) as email from contact_submissions where ${hashOf(sql.raw("email"))} in (${list})
            union select lower(email) from newsletter_subscribers where ${hashOf(sql.raw("email"))} in (${list})
            union select lower(recipient) from mail_outbox where recipient is not null and ${hashOf(sql.raw("recipient"))} in (${list})
          ) addresses order by email`,
    );
    for (const { email } of found) {
      const erased = await eraseAddress(db, email, { ledger: false });
      addresses += 1;
      for (const key of Object.keys(counts) as (keyof ErasureCounts)[]) counts[key] += erased[key];
    }
  }
  for (const entry of ledger.entries)
    await db.execute(
      sql`insert into erasure_ledger (address_hash, erased_at) values (${entry.addressHash}, ${entry.erasedAt})
          on conflict do nothing`,
    );
  return { entries: ledger.entries.length, addresses, counts };
}

export type RestoreOptions = {
  passphrase?: string | undefined;
  /** The newest erasure ledger found, applied after the rows. */
  ledger?: { file: string; ledger: Ledger } | undefined;
};

export type RestoreResult = { migrated: number; ledger: LedgerApplied | undefined };

type Row = Record<string, unknown>;

/**
 * Replaces everything in `db` with the archive's content, in one transaction: every table is
 * dropped, the archive's own migrations are applied, its rows and pictures loaded (each part
 * checked against the manifest again as it is read), the sequences moved past the rows, the
 * newer migrations applied, and the erasure ledger applied. Verify the archive first
 * (verifyArchive), and refuse a database that holds data unless told to replace it: this replaces.
 */
export async function restoreArchive(
  db: Database,
  file: string,
  manifest: Manifest,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  compareSchema(manifest);
  return db.transaction(async (tx) => {
    const t = tx;
    // An empty database already at the archive's schema (a fresh site's) is filled as it is;
    // any other is emptied of every table and migrated to the archive's schema first.
    if (!(await isEmptyAtSchema(t, manifest.migrations))) {
      const existing = await queryRows<{ name: string }>(
        t,
        sql`select tablename as name from pg_tables where schemaname = current_schema()`,
      );
      if (existing.length > 0)
        await t.execute(
          sql`drop table if exists ${sql.join(
            existing.map((row) => quoted(row.name)),
            sql`, `,
          )} cascade`,
        );
      await applyMigrations(t, { only: new Set(manifest.migrations) });
    }

    const tableOfPart = new Map<string, string>();
    for (const table of manifest.tables) for (const part of table.parts) tableOfPart.set(part, table.name);
    const mediaRows = new Map<string, Row>();
    await readArchiveParts(file, options.passphrase, async ({ name, data }) => {
      if (name === MANIFEST_PART) return;
      const expected = manifest.parts[name];
      if (!expected || expected.sha256 !== sha256(data)) throw new ArchiveError("it changed since it was checked");
      const table = tableOfPart.get(name);
      if (table === MEDIA_FILES_TABLE) {
        for (const line of data.toString("utf8").split("\n"))
          if (line) {
            const row = JSON.parse(line) as Row;
            mediaRows.set(`media/${String(row.media_id)}/${String(row.name)}`, row);
          }
      } else if (table) {
        if (countRows(data) === 0) return;
        const rows = `[${data.toString("utf8").trimEnd().split("\n").join(",")}]`;
        await t.execute(
          sql`insert into ${quoted(table)} select * from json_populate_recordset(null::${quoted(table)}, ${rows}::json)`,
        );
      } else if (name.startsWith("media/")) {
        const row = mediaRows.get(name);
        if (!row) throw new ArchiveError("no row of media_files names it");
        const withBytes = JSON.stringify([{ ...row, bytes: `\\x${data.toString("hex")}` }]);
        await t.execute(
          sql`insert into media_files select * from json_populate_recordset(null::media_files, ${withBytes}::json)`,
        );
      } else throw new ArchiveError("the manifest does not say what it is");
    });
    await moveSequencesPastRows(t);
    const { applied } = await applyMigrations(t);
    let ledger: LedgerApplied | undefined;
    if (options.ledger)
      ledger = {
        file: options.ledger.file,
        ...(await applyLedger(t, options.ledger.ledger, new Date(manifest.createdAt))),
      };
    return { migrated: applied, ledger };
  });
}

/** True when `db` holds no row and exactly the migrations `migrations`, in that order. */
async function isEmptyAtSchema(db: Database, migrations: string[]): Promise<boolean> {
  const [present] = await queryRows<{ present: boolean }>(
    db,
    sql`select to_regclass('schema_migrations') is not null as present`,
  );
  if (!present?.present) return false;
  const applied = await queryRows<{ hash: string }>(
    db,
    sql`select hash from schema_migrations order by created_at, applied_at`,
  );
  if (applied.length !== migrations.length || applied.some((row, index) => row.hash !== migrations[index]))
    return false;
  return (await databaseHoldings(db)).total === 0;
}

/** Each serial column's sequence, set to follow the largest value restored. */
async function moveSequencesPastRows(db: Database): Promise<void> {
  const serials = await queryRows<{ table_name: string; column_name: string; sequence: string }>(
    db,
    sql`select c.relname as table_name, a.attname as column_name,
               pg_get_serial_sequence(format('%I', c.relname), a.attname) as sequence
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid
        where n.nspname = current_schema() and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
          and pg_get_serial_sequence(format('%I', c.relname), a.attname) is not null`,
  );
  for (const { table_name, column_name, sequence } of serials)
    await db.execute(
      sql`select setval(${sequence}, coalesce((select max(${quoted(column_name)}) from ${quoted(table_name)}), 0) + 1, false)`,
    );
}
