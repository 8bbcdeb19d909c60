import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client.ts";

// The erasure ledger (docs/decisions/051-backups-that-restore.md): every erasure's address as a
// one-way hash, and its time, nothing else. It is a table (erasure_ledger, written in the
// erasure's own transaction) and a file beside the backups (erasures.json, written after every
// erasure and every backup), so that a backup made before an erasure, once restored, has that
// address erased again. An entry older than the oldest backup kept (a year) is dropped.

export const LEDGER_FILE = "erasures.json";
const LEDGER_FORMAT = "sabarmati-grid-site erasure ledger";
/** No backup is older than this (decision 030), so no ledger entry needs to be. */
export const LEDGER_KEEP_DAYS = 366;

export type LedgerEntry = { addressHash: string; erasedAt: string };
export type Ledger = { updatedAt: string; entries: LedgerEntry[] };

/** SHA-256 of the lower-cased address: the same as `addressHashSql` computes in the database. */
export function addressHash(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase(), "utf8").digest("hex");
}

export const hashOf = (column: ReturnType<typeof sql.raw>) =>
  sql`encode(sha256(convert_to(lower(${column}), 'UTF8')), 'hex')`;

export async function recordErasure(db: Database, email: string, at: Date): Promise<void> {
  await db.execute(
    sql`insert into erasure_ledger (address_hash, erased_at) values (${addressHash(email)}, ${at.toISOString()})
        on conflict do nothing`,
  );
}

export async function readLedgerFromDatabase(db: Database, now: Date = new Date()): Promise<Ledger> {
  const rows = await queryRows<{ address_hash: string; erased_at: string | Date }>(
    db,
    sql`select address_hash, erased_at from erasure_ledger
        where erased_at > ${new Date(now.getTime() - LEDGER_KEEP_DAYS * 86_400_000).toISOString()}
        order by erased_at`,
  );
  return {
    updatedAt: now.toISOString(),
    entries: rows.map((row) => ({ addressHash: row.address_hash, erasedAt: new Date(row.erased_at).toISOString() })),
  };
}

/** Writes the database's ledger to `dir`/erasures.json (whole, then renamed into place). */
export async function writeLedgerFile(db: Database, dir: string, now: Date = new Date()): Promise<string> {
  const ledger = await readLedgerFromDatabase(db, now);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, LEDGER_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify({ format: LEDGER_FORMAT, ...ledger }, null, 1)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return file;
}

/** The ledger in `file`, or undefined when there is none; throws on a file that is not one. */
export async function readLedgerFile(file: string): Promise<Ledger | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const ledger = JSON.parse(text) as { format?: string } & Partial<Ledger>;
  if (ledger.format !== LEDGER_FORMAT || !Array.isArray(ledger.entries) || typeof ledger.updatedAt !== "string")
    throw new Error(`${file} is not an erasure ledger`);
  const entries = ledger.entries.filter(
    (entry): entry is LedgerEntry =>
      typeof entry?.addressHash === "string" &&
      /^[0-9a-f]{64}$/.test(entry.addressHash) &&
      typeof entry.erasedAt === "string" &&
      !Number.isNaN(Date.parse(entry.erasedAt)),
  );
  return { updatedAt: ledger.updatedAt, entries };
}
