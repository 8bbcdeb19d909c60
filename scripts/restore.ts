import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { parseConfig } from "../src/server/config.ts";
import { ArchiveError, archiveIsEncrypted, verifyArchive } from "../src/server/backup/archive.ts";
import { compareSchema, databaseHoldings, newestLedger, restoreArchive } from "../src/server/backup/restore.ts";
import { type DatabaseHandle, openDatabase } from "../src/server/db/client.ts";
import { type DataDirLock, lockDataDir } from "../src/server/db/data-dir-lock.ts";
import { printable } from "../src/server/export/export-format.ts";
import { finish, UsageError } from "./content-commands.ts";

// `npm run restore -- <archive> [--force]`: an archive of `npm run backup` into the database the
// settings name (DATABASE_URL, else the embedded one in DATA_DIR), with no site running on it.
// Every part is checked before anything is written; the restore is one transaction. An embedded
// archive restores into PostgreSQL and back: the way to move a site (docs/operations.md).

const USAGE = "Usage: npm run restore -- <archive> [--force]";

/**
 * The passphrase of an encrypted archive when BACKUP_PASSPHRASE does not give it: asked for at the
 * terminal, not shown as it is typed. Without a terminal (a script, a pipe) the command says to set
 * BACKUP_PASSPHRASE instead, as it always has.
 */
async function askPassphrase(archive: string): Promise<string | undefined> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  const stdin = process.stdin;
  // Raw (no echo) before the question: what is typed once it shows is never shown.
  stdin.setRawMode(true);
  process.stderr.write(`${path.basename(archive)} is encrypted. Its passphrase (BACKUP_PASSPHRASE): `);
  stdin.resume();
  stdin.setEncoding("utf8");
  let typed = "";
  try {
    return await new Promise<string>((resolve, reject) => {
      const onData = (chunk: string) => {
        for (const character of chunk) {
          if (character === "\r" || character === "\n") return resolve(typed);
          if (character === "\u0003" || character === "\u0004")
            return reject(new Error("No passphrase given: nothing was restored."));
          if (character === "\u007f" || character === "\b") typed = typed.slice(0, -1);
          else if (character >= " ") typed += character;
          // A passphrase is bounded like the setting's: nothing typed grows without end.
          if (typed.length > 1024) return reject(new Error("That passphrase is longer than 1,024 characters."));
        }
      };
      stdin.on("data", onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.removeAllListeners("data");
    stdin.pause();
    process.stderr.write("\n");
  }
}

function parseRestoreArgs(argv: string[]): { archive: string; force: boolean } {
  let archive = "";
  let force = false;
  for (const arg of argv) {
    if (arg === "--force") force = true;
    else if (arg.startsWith("-") || archive) throw new UsageError(`Unknown argument ${arg}. ${USAGE}`);
    else archive = arg;
  }
  if (!archive) throw new UsageError(`Name the archive to restore. ${USAGE}`);
  return { archive: path.resolve(archive), force };
}

async function main(): Promise<number> {
  const config = parseConfig(process.env);
  const args = parseRestoreArgs(process.argv.slice(2));
  const passphrase =
    config.backup.passphrase ??
    ((await archiveIsEncrypted(args.archive).catch(() => false)) ? await askPassphrase(args.archive) : undefined);
  const checkStarted = performance.now();
  const manifest = await verifyArchive(args.archive, passphrase);
  const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
  const checkSeconds = seconds(checkStarted);
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(
    printable(
      `Checked ${path.basename(args.archive)}: ${Object.keys(manifest.parts).length} parts, every SHA-256 as its manifest says; made ${manifest.createdAt} from the ${manifest.database === "pglite" ? "embedded database" : "PostgreSQL database"} by site version ${manifest.siteVersion}: ${rows} rows, ${manifest.media.files} picture files (checked in ${checkSeconds} s).`,
    ),
  );
  const schema = compareSchema(manifest);

  let lock: DataDirLock | undefined;
  let createdDataDir = false;
  let target: DatabaseHandle;
  const where = config.databaseUrl
    ? "the PostgreSQL database of DATABASE_URL"
    : `the embedded database in ${path.resolve(config.dataDir)}`;
  if (config.databaseUrl) target = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  else {
    // Never beside a running site: its lock says so (stop it, restore, start it).
    createdDataDir = !existsSync(path.join(path.resolve(config.dataDir), "pglite"));
    lock = await lockDataDir(path.resolve(config.dataDir), "npm run restore");
    target = await openDatabase({ dataDir: config.dataDir });
  }
  let restored = false;
  try {
    const holdings = await databaseHoldings(target.db);
    if (holdings.total > 0 && !args.force) {
      console.error(
        printable(
          `${where[0]!.toUpperCase()}${where.slice(1)} holds data (${holdings.summary}): nothing was restored. Add --force to replace it with the archive.`,
        ),
      );
      return 1;
    }
    if (holdings.total > 0) console.log(printable(`Replacing what ${where} holds: ${holdings.summary}.`));
    const ledger = await newestLedger([path.dirname(args.archive), config.backup.dir]);
    const restoreStarted = performance.now();
    const result = await restoreArchive(target.db, args.archive, manifest, {
      passphrase,
      ledger,
    });
    restored = true;
    if (schema === "older")
      console.log(printable(`The archive's schema was older: ${result.migrated} migrations were applied after it.`));
    if (result.ledger) {
      const { counts } = result.ledger;
      const records = counts.enquiries + counts.notes + counts.mail + counts.subscriptions + counts.newsletterMail;
      console.log(
        printable(
          `Applied the erasure ledger ${result.ledger.file} (${result.ledger.entries} erasures): erased again ${result.ledger.addresses} address${result.ledger.addresses === 1 ? "" : "es"} erased after the backup, ${records} record${records === 1 ? "" : "s"} (${counts.enquiries} enquiries, ${counts.notes} notes, ${counts.mail} mails, ${counts.subscriptions} subscriptions, ${counts.newsletterMail} newsletter mails).`,
        ),
      );
    } else console.log("No erasure ledger was found beside the archive or in BACKUP_DIR: none was applied.");
    console.log(
      printable(
        `Restored ${rows} rows and ${manifest.media.files} picture files into ${where} in ${seconds(restoreStarted)} s. Staff sign in again.`,
      ),
    );
    return 0;
  } catch (error) {
    if (error instanceof ArchiveError) throw new ArchiveError(`${error.message} Nothing was restored.`);
    throw error;
  } finally {
    await target.close();
    if (!restored && createdDataDir)
      await rm(path.join(path.resolve(config.dataDir), "pglite"), { recursive: true, force: true });
    await lock?.release();
  }
}

finish(main());
