import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { sql } from "drizzle-orm";
import tar from "tar-stream";
import { type Database, type DatabaseHandle, queryRows } from "../db/client.ts";
import { projectRoot } from "../project-root.ts";
import { encryptStream } from "./archive-crypto.ts";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  LEFT_OUT_TABLES,
  MANIFEST_PART,
  type Manifest,
  MEDIA_FILES_TABLE,
  mediaPartName,
  type PartEntry,
  sha256,
  TABLE_PART_BYTES,
  tablePartName,
} from "./archive.ts";

// `npm run backup` and the daily backup: one archive of everything the site keeps, read in one
// snapshot, streamed to disk (docs/decisions/051-backups-that-restore.md).

export type BackupResult = { file: string; fileName: string; bytes: number; manifest: Manifest };

export type BackupOptions = {
  /** The folder the archive is written into. */
  dir: string;
  /** Encrypts the archive (archive-crypto.ts) when set. */
  passphrase?: string | undefined;
  /** "pglite" or "postgres". */
  driver: "pglite" | "postgres";
  /**
   * Opens a copy of the embedded database as it is now (DatabaseHandle.openCopy), which the backup
   * reads in a thread of its own: the site's one session is held only while the files are copied.
   * Without it (a command that opened the files itself) the database itself is read.
   */
  openCopy?: ((dir: string) => Promise<DatabaseHandle>) | undefined;
  now?: Date;
};

/** The folder, in the backup folder, of a copy of the embedded database while a backup reads it. */
const COPY_PREFIX = ".database-copy-";
/** A copy older than this was left by a backup that did not end (the process killed): removed. */
const STALE_COPY_MS = 6 * 3600_000;

/** Rows fetched from a table's cursor at a time. */
const FETCH_ROWS = 500;

/** `site-2026-11-29T023000Z`: the archive's name, by its UTC time. */
export function archiveBaseName(now: Date): string {
  return `site-${now.toISOString().slice(0, 19).replace(/:/g, "")}Z`;
}

let siteVersion: string | undefined;
async function readSiteVersion(): Promise<string> {
  if (siteVersion === undefined) {
    const pkg = JSON.parse(await readFile(path.join(projectRoot, "package.json"), "utf8")) as { version?: string };
    siteVersion = pkg.version ?? "unknown";
  }
  return siteVersion;
}

/**
 * The site's tables in an order in which each comes after the tables it refers to, without those
 * a backup leaves out and the migrations' own table.
 */
export async function tablesInRestoreOrder(db: Database): Promise<string[]> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind = 'r' and c.relname <> 'schema_migrations'
        order by c.relname`,
  );
  const references = await queryRows<{ child: string; parent: string }>(
    db,
    sql`select child.relname as child, parent.relname as parent
        from pg_constraint co
        join pg_class child on child.oid = co.conrelid
        join pg_class parent on parent.oid = co.confrelid
        join pg_namespace n on n.oid = child.relnamespace
        where co.contype = 'f' and n.nspname = current_schema()`,
  );
  const names = tables.map((row) => row.name).filter((name) => !(name in LEFT_OUT_TABLES));
  const parents = new Map(names.map((name) => [name, new Set<string>()]));
  for (const { child, parent } of references)
    if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)!.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const next = names.find((name) => !placed.has(name) && [...parents.get(name)!].every((p) => placed.has(p)));
    if (!next) throw new Error("The site's tables refer to each other in a circle: a backup cannot order them");
    ordered.push(next);
    placed.add(next);
  }
  return ordered;
}

function quoted(name: string) {
  return sql.raw(`"${name.replace(/"/g, '""')}"`);
}

/** Adds one part to the tar; resolves once the stream below has taken it (bounded memory). */
function addPart(pack: tar.Pack, name: string, data: Buffer, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    const entry = pack.entry({ name, size: data.length, mode: 0o600, mtime }, (error) =>
      error ? reject(error) : resolve(),
    );
    entry.end(data);
  });
}

type MediaFileKey = { mediaId: string; name: string; size: number };

/**
 * Writes one archive of the database `db` into `options.dir` and returns where it is. The tables
 * and the pictures' bytes are read in one REPEATABLE READ, read-only transaction: of PostgreSQL
 * itself, of a copy of the embedded database (`options.openCopy`), or of an embedded database no
 * site holds (a command that opened the files). The archive is written as `<name>.part` and
 * renamed once whole.
 */
export async function makeBackup(db: Database, options: BackupOptions): Promise<BackupResult> {
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  if (!options.openCopy) return writeArchive(db, options);
  await removeStaleCopies(options.dir);
  const copyDir = await mkdtemp(path.join(path.resolve(options.dir), COPY_PREFIX));
  try {
    const copy = await options.openCopy(copyDir);
    try {
      return await writeArchive(copy.db, options);
    } finally {
      await copy.close();
    }
  } finally {
    await rm(copyDir, { recursive: true, force: true });
  }
}

async function removeStaleCopies(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (!name.startsWith(COPY_PREFIX)) continue;
    const folder = path.join(dir, name);
    const { mtimeMs } = await stat(folder);
    if (Date.now() - mtimeMs > STALE_COPY_MS) await rm(folder, { recursive: true, force: true });
  }
}

async function writeArchive(db: Database, options: BackupOptions): Promise<BackupResult> {
  const now = options.now ?? new Date();
  const fileName = `${archiveBaseName(now)}.tar.gz${options.passphrase ? ".enc" : ""}`;
  const file = path.join(path.resolve(options.dir), fileName);
  if (
    await stat(file).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`${file} exists already`);
  const partFile = `${file}.part`;

  const pack = tar.pack();
  const stages: unknown[] = [pack, createGzip({ level: 6 })];
  if (options.passphrase) stages.push(encryptStream(options.passphrase));
  stages.push(createWriteStream(partFile, { mode: 0o600, flags: "wx" }));
  const writing = pipeline(stages as unknown as Parameters<typeof pipeline>[0][]);
  writing.catch(() => {});

  const parts: Record<string, PartEntry> = {};
  const put = async (name: string, data: Buffer, rows?: number) => {
    parts[name] = { sha256: sha256(data), bytes: data.length, ...(rows === undefined ? {} : { rows }) };
    await addPart(pack, name, data, now);
  };
  const media = { files: 0, bytes: 0 };
  const putMediaFile = async (db: Database, key: MediaFileKey) => {
    const [row] = await queryRows<{ bytes: Buffer }>(
      db,
      sql`select bytes from media_files where media_id = ${key.mediaId} and name = ${key.name}`,
    );
    if (!row || row.bytes.length !== key.size)
      throw new Error(`The picture file ${key.name} of ${key.mediaId} was deleted while the backup ran: make it again`);
    await put(mediaPartName(key.mediaId, key.name), Buffer.from(row.bytes));
    media.files += 1;
    media.bytes += key.size;
  };

  try {
    const { migrations, tables } = await db.transaction(
      async (tx) => {
        const t = tx;
        const migrations = (
          await queryRows<{ hash: string }>(t, sql`select hash from schema_migrations order by created_at, applied_at`)
        ).map((row) => row.hash);
        const order = await tablesInRestoreOrder(t);
        const tables: Manifest["tables"] = [];
        const mediaFiles: MediaFileKey[] = [];
        for (const table of order) {
          const isMedia = table === MEDIA_FILES_TABLE;
          const select = isMedia
            ? sql`select (to_jsonb(t) - 'bytes')::text as j, t.media_id::text as media_id, t.name, octet_length(t.bytes) as size from media_files t order by t.media_id, t.name`
            : sql`select row_to_json(t)::text as j from ${quoted(table)} t`;
          await t.execute(sql`declare backup_rows no scroll cursor for ${select}`);
          const entry = { name: table, rows: 0, parts: [] as string[] };
          let lines: string[] = [];
          let bytes = 0;
          const flush = async () => {
            if (lines.length === 0) return;
            const name = tablePartName(table, entry.parts.length + 1);
            await put(name, Buffer.from(`${lines.join("\n")}\n`), lines.length);
            entry.parts.push(name);
            lines = [];
            bytes = 0;
          };
          for (;;) {
            const rows = await queryRows<{ j: string; media_id?: string; name?: string; size?: number | string }>(
              t,
              sql.raw(`fetch ${FETCH_ROWS} from backup_rows`),
            );
            for (const row of rows) {
              lines.push(row.j);
              bytes += Buffer.byteLength(row.j) + 1;
              entry.rows += 1;
              if (isMedia) mediaFiles.push({ mediaId: row.media_id!, name: row.name!, size: Number(row.size) });
              if (bytes >= TABLE_PART_BYTES) await flush();
            }
            if (rows.length < FETCH_ROWS) break;
          }
          await flush();
          await t.execute(sql`close backup_rows`);
          tables.push(entry);
        }
        for (const key of mediaFiles) await putMediaFile(t, key);
        return { migrations, tables };
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );

    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      createdAt: now.toISOString(),
      siteVersion: await readSiteVersion(),
      database: options.driver,
      migrations,
      tables,
      media,
      leftOut: LEFT_OUT_TABLES,
      parts,
    };
    await addPart(pack, MANIFEST_PART, Buffer.from(JSON.stringify(manifest, null, 1)), now);
    pack.finalize();
    await writing;
    await rename(partFile, file);
    const { size } = await stat(file);
    return { file, fileName, bytes: size, manifest };
  } catch (error) {
    pack.destroy(error as Error);
    await writing.catch(() => {});
    await rm(partFile, { force: true });
    throw error;
  }
}
