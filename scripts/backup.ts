import path from "node:path";
import { parseConfig } from "../src/server/config.ts";
import {
  type BackupAnswer,
  type BackupRequest,
  type BackupSummary,
  backupSummary,
  runBackup,
} from "../src/server/backup/backup-runs.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { applyMigrations } from "../src/server/db/migrate.ts";
import { printable } from "../src/server/export/export-format.ts";
import { askRunningSite } from "../src/server/site-requests.ts";
import { finish, UsageError } from "./content-commands.ts";

// `npm run backup [-- --out <dir>]`: one archive of everything the site keeps, into <dir>
// (BACKUP_DIR by default), while the site runs, on either database; its path is the last line
// printed. docs/operations.md, "Backups"; docs/decisions/051-backups-that-restore.md.

const USAGE = "Usage: npm run backup -- [--out <dir>]";

function parseBackupArgs(argv: string[], defaultDir: string): { out: string } {
  let out = defaultDir;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === "--out" && argv[index + 1]) out = argv[++index]!;
    else if (arg.startsWith("--out=")) out = arg.slice("--out=".length);
    else throw new UsageError(`Unknown argument ${arg}. ${USAGE}`);
  }
  if (!out) throw new UsageError(`Name the folder. ${USAGE}`);
  return { out: path.resolve(out) };
}

/** How long the command waits for a running site's archive (the site's own drill follows it). */
const SITE_BACKUP_WITHIN_MS = 3_600_000;

async function main(): Promise<number> {
  const config = parseConfig(process.env);
  const args = parseBackupArgs(process.argv.slice(2), config.backup.dir);
  const database = await openCommandDatabase(config, "npm run backup");
  let made: BackupSummary;
  try {
    const started = Date.now();
    if (database.runningSite) {
      // The running site makes it, from a copy of its database's files: read through the socket,
      // the snapshot would hold the site's one session for as long as the tables take.
      const { pid } = database.runningSite;
      const request: BackupRequest = { dir: args.out, pid: process.pid };
      const answer = await askRunningSite<BackupAnswer>(database.db, pid, "backup", request, SITE_BACKUP_WITHIN_MS);
      if ("error" in answer)
        throw new Error(`The running site (pid ${pid}) could not make the backup: ${answer.error}`);
      console.log(printable(`The running site (pid ${pid}) made the backup; its restore drill runs there now.`));
      made = answer.made;
    } else {
      await applyMigrations(database.db);
      const run = await runBackup(database.db, {
        dir: args.out,
        passphrase: config.backup.passphrase,
        driver: database.driver,
        trigger: "command",
        requestedBy: "command line",
      });
      made = backupSummary(run, started);
    }
  } finally {
    await database.close();
  }
  console.log(
    printable(
      `Backed up ${made.tables} tables (${made.rows} rows) and ${made.mediaFiles} picture files (${(made.mediaBytes / 1e6).toFixed(1)} MB) in ${made.seconds.toFixed(1)} s${made.encrypted ? ", encrypted" : ""}.`,
    ),
  );
  console.log(
    printable(
      `Left out: ${Object.entries(made.leftOut)
        .map(([table, why]) => `${table} (${why})`)
        .join("; ")}.`,
    ),
  );
  console.log(printable(`The erasure ledger is beside it: ${made.ledgerFile}`));
  console.log(printable(made.file));
  return 0;
}

finish(main());
