import path from "node:path";
import { parseConfig } from "../src/server/config.ts";
import { runBackup } from "../src/server/backup/backup-runs.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { applyMigrations } from "../src/server/db/migrate.ts";
import { printable } from "../src/server/export/export-format.ts";
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

async function main(): Promise<number> {
  const config = parseConfig(process.env);
  const args = parseBackupArgs(process.argv.slice(2), config.backup.dir);
  const database = await openCommandDatabase(config, "npm run backup");
  try {
    if (!database.runningSite) await applyMigrations(database.db);
    const started = Date.now();
    const run = await runBackup(database.db, {
      dir: args.out,
      passphrase: config.backup.passphrase,
      driver: database.driver,
      trigger: "command",
      requestedBy: "command line",
    });
    const { manifest } = run;
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      printable(
        `Backed up ${manifest.tables.length} tables (${rows} rows) and ${manifest.media.files} picture files (${(manifest.media.bytes / 1e6).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s${config.backup.passphrase ? ", encrypted" : ""}.`,
      ),
    );
    console.log(
      printable(
        `Left out: ${Object.entries(manifest.leftOut)
          .map(([table, why]) => `${table} (${why})`)
          .join("; ")}.`,
      ),
    );
    console.log(printable(`The erasure ledger is beside it: ${run.ledgerFile}`));
    console.log(printable(run.file));
    return 0;
  } finally {
    await database.close();
  }
}

finish(main());
