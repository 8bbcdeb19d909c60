import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { ArchiveDecryptError, decryptStream, isEncryptedArchive } from "./archive-crypto.ts";

// A backup archive (docs/decisions/051-backups-that-restore.md): a gzipped tar, encrypted when
// BACKUP_PASSPHRASE is set (archive-crypto.ts), of parts:
//
//   tables/<table>/<nnnnn>.ndjson   rows of one table, one JSON object per line (row_to_json), a
//                                   few MB a part; media_files' rows without their bytes
//   media/<media id>/<file name>    the bytes of one picture file
//   manifest.json                   last: what the archive holds, with a SHA-256 per part
//
// Tables are listed in the manifest in the order they are restored (a table after those it refers to).

export const ARCHIVE_FORMAT = "sabarmati-grid-site backup";
export const ARCHIVE_VERSION = 1;
export const MANIFEST_PART = "manifest.json";
/** A table's part is closed once it holds this many bytes of JSON. */
export const TABLE_PART_BYTES = 4 * 1024 * 1024;
/** No part a backup writes is larger (a picture file is at most the upload limit). */
export const MAX_PART_BYTES = 256 * 1024 * 1024;
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** Tables a backup leaves out, and why: the manifest and the command say so. */
export const LEFT_OUT_TABLES: Record<string, string> = {
  staff_sessions: "signed-in sessions: staff sign in again after a restore",
  staff_tokens: "one-time sign-in and invitation links: ask for a new one",
  webauthn_challenges: "passkey challenges of sign-ins in progress, valid for minutes",
  content_presence: "who has a studio page open right now",
  rate_limit_hits: "the rate limit's counts of the last minutes",
  rate_limit_windows: "the rate limit's counts of the last minutes",
  search_documents: "the site search's index: rebuilt from the content as it is restored",
};

/** The table whose bytes are parts of their own, and its column that holds them. */
export const MEDIA_FILES_TABLE = "media_files";

export type PartEntry = { sha256: string; bytes: number; rows?: number };

export type Manifest = {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  createdAt: string;
  siteVersion: string;
  /** The database it was made from: "pglite" (embedded) or "postgres". */
  database: string;
  /** The hashes of the schema's migrations, in the order they were applied. */
  migrations: string[];
  /** In restore order. */
  tables: { name: string; rows: number; parts: string[] }[];
  media: { files: number; bytes: number };
  leftOut: Record<string, string>;
  parts: Record<string, PartEntry>;
};

/** A problem with an archive: one line, naming the part at fault where there is one. */
export class ArchiveError extends Error {}

export function tablePartName(table: string, index: number): string {
  return `tables/${table}/${String(index).padStart(5, "0")}.ndjson`;
}

export function mediaPartName(mediaId: string, fileName: string): string {
  return `media/${mediaId}/${fileName}`;
}

export function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Lines in a table's part (each row ends with a line feed). */
export function countRows(data: Buffer): number {
  let rows = 0;
  for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) rows += 1;
  return rows;
}

export async function archiveIsEncrypted(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const start = Buffer.alloc(8);
    const { bytesRead } = await handle.read(start, 0, 8, 0);
    return isEncryptedArchive(start.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

export type ArchivePart = { name: string; data: Buffer };

/**
 * Reads the archive's parts in order, each whole (a part is bounded, MAX_PART_BYTES), and hands
 * each to `onPart`. Any failure (a cut, a changed byte, a wrong passphrase, a part too large)
 * becomes an ArchiveError naming the part at fault.
 */
export async function readArchiveParts(
  file: string,
  passphrase: string | undefined,
  onPart: (part: ArchivePart) => Promise<void>,
): Promise<void> {
  const encrypted = await archiveIsEncrypted(file).catch((error: NodeJS.ErrnoException) => {
    throw new ArchiveError(`Cannot read ${file}: ${error.code === "ENOENT" ? "no such file" : error.message}`);
  });
  if (encrypted && !passphrase)
    throw new ArchiveError(`${file} is encrypted: set BACKUP_PASSPHRASE to the passphrase it was made with.`);
  let current: string | undefined;
  let last: string | undefined;
  const where = () =>
    current ? `part ${current}` : last ? `the archive after part ${last}` : "the archive's first bytes";
  const extract = tar.extract();
  const source: Readable[] = [createReadStream(file)];
  if (encrypted && passphrase) source.push(decryptStream(passphrase));
  const reading = pipeline([...source, createGunzip(), extract] as unknown as [Readable, ...Readable[]]);
  reading.catch(() => {});
  try {
    for await (const entry of extract) {
      const { name, size, type } = entry.header;
      current = name;
      if (type !== "file") throw new ArchiveError(`${name} is not a file a backup writes`);
      if ((size ?? 0) > MAX_PART_BYTES) throw new ArchiveError(`it is larger than any part a backup writes`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      await onPart({ name, data: Buffer.concat(chunks) });
      last = name;
      current = undefined;
    }
    await reading;
  } catch (error) {
    extract.destroy();
    if (error instanceof ArchiveError && error.message.startsWith("Cannot read")) throw error;
    throw new ArchiveError(`${file} is damaged in ${where()}: ${describe(error)}`, { cause: error });
  }
}

function describe(error: unknown): string {
  if (error instanceof ArchiveDecryptError || error instanceof ArchiveError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "Z_BUF_ERROR" || /unexpected end/i.test(String((error as Error).message))) return "it is cut short";
  if (code === "Z_DATA_ERROR") return "its bytes were changed (the compressed data does not decode)";
  return error instanceof Error ? error.message : String(error);
}

function parseManifest(data: Buffer): Manifest {
  if (data.length > MAX_MANIFEST_BYTES) throw new ArchiveError("the manifest is too large");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(data.toString("utf8")) as Manifest;
  } catch {
    throw new ArchiveError("the manifest is not JSON");
  }
  if (manifest?.format !== ARCHIVE_FORMAT || typeof manifest.parts !== "object" || !Array.isArray(manifest.tables))
    throw new ArchiveError("the manifest is not a backup's");
  if (manifest.version > ARCHIVE_VERSION)
    throw new ArchiveError(`it is of a newer archive format (${manifest.version}): update the site first`);
  return manifest;
}

/**
 * Reads the whole archive and checks every part against the manifest: each part's SHA-256, size
 * and rows, no part missing, none extra. Returns the manifest; throws an ArchiveError otherwise.
 */
export async function verifyArchive(file: string, passphrase: string | undefined): Promise<Manifest> {
  const seen = new Map<string, PartEntry>();
  let manifest: Manifest | undefined;
  await readArchiveParts(file, passphrase, async ({ name, data }) => {
    if (manifest) throw new ArchiveError("there is a part after the manifest");
    if (name === MANIFEST_PART) {
      manifest = parseManifest(data);
      return;
    }
    if (seen.has(name)) throw new ArchiveError("it appears twice");
    seen.set(name, {
      sha256: sha256(data),
      bytes: data.length,
      ...(name.startsWith("tables/") ? { rows: countRows(data) } : {}),
    });
  });
  if (!manifest) throw new ArchiveError(`${file} is damaged: it has no manifest (it may be cut short)`);
  for (const [name, expected] of Object.entries(manifest.parts)) {
    const found = seen.get(name);
    if (!found) throw new ArchiveError(`${file} is damaged in part ${name}: it is missing`);
    if (found.sha256 !== expected.sha256 || found.bytes !== expected.bytes)
      throw new ArchiveError(`${file} is damaged in part ${name}: its SHA-256 does not match the manifest`);
    if (expected.rows !== undefined && found.rows !== expected.rows)
      throw new ArchiveError(
        `${file} is damaged in part ${name}: it has ${found.rows} rows, the manifest says ${expected.rows}`,
      );
  }
  for (const name of seen.keys())
    if (!(name in manifest.parts))
      throw new ArchiveError(`${file} is damaged in part ${name}: the manifest does not list it`);
  for (const table of manifest.tables) {
    const rows = table.parts.reduce((sum, part) => sum + (manifest!.parts[part]?.rows ?? 0), 0);
    if (rows !== table.rows)
      throw new ArchiveError(
        `${file} is damaged in the manifest: table ${table.name} lists ${table.rows} rows, its parts hold ${rows}`,
      );
  }
  return manifest;
}
