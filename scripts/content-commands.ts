import path from "node:path";
import { parseConfig } from "../src/server/config.ts";
import {
  type ImportAnswer,
  type ImportLine,
  type ImportOptions,
  type ImportRequest,
  type ImportSummary,
  importContentFolder,
} from "../src/server/content/import-content.ts";
import { type CommandDatabase, openCommandDatabase } from "../src/server/db/command-database.ts";
import { applyMigrations } from "../src/server/db/migrate.ts";
import { printable } from "../src/server/export/export-format.ts";
import { askRunningSite } from "../src/server/site-requests.ts";

// What `npm run content:import` and `npm run content:sync` share: the arguments, the import
// itself (through a running site when it holds the embedded database) and what they print.
// docs/content.md describes the commands; docs/decisions/038-… the rules of an import.

export const IMPORT_USAGE = "Usage: npm run content:import -- <dir> [--force] [--prune] [--dry-run]";

/** Exit codes: a broken file, an item skipped (changed in the studio). */
export const EXIT_BROKEN_FILE = 1;
export const EXIT_SKIPPED = 2;

export type ImportArgs = { dir: string; force: boolean; prune: boolean; dryRun: boolean };

export class UsageError extends Error {}

/** The flags, and the folder unless `dir` is given (content:sync's CONTENT_DIR). */
export function parseImportArgs(argv: string[], dir?: string): ImportArgs {
  const args: ImportArgs = { dir: dir ?? "", force: false, prune: dir !== undefined, dryRun: false };
  for (const arg of argv) {
    if (arg === "--force") args.force = true;
    else if (arg === "--prune") args.prune = true;
    else if (arg === "--dry-run") args.dryRun = true;
    else if (arg.startsWith("-") || dir !== undefined || args.dir)
      throw new UsageError(`Unknown argument ${arg}. ${IMPORT_USAGE}`);
    else args.dir = arg;
  }
  if (!args.dir) throw new UsageError(`Name the folder to import. ${IMPORT_USAGE}`);
  return { ...args, dir: path.resolve(args.dir) };
}

const CONFIRM_WITHIN_MS = 120_000;

/** Has the running site run the import (SIGHUP) and waits, through its socket, for its answer. */
async function importThroughSite(database: CommandDatabase, pid: number, request: ImportRequest) {
  const answer = await askRunningSite<ImportAnswer>(database.db, pid, "content-import", request, CONFIRM_WITHIN_MS);
  if ("error" in answer)
    throw new Error(`The running site (pid ${pid}) could not import ${request.dir}: ${answer.error}`);
  return answer.summary;
}

function line(action: string, item: ImportLine): string {
  return `${action} ${item.file} «${item.title}»: ${item.detail}`;
}

/** What an import prints: one line per item added, updated, trashed or skipped, then the count of the rest. */
export function importReport(summary: ImportSummary): string[] {
  return [
    ...summary.added.map((item) => line("added", item)),
    ...summary.updated.map((item) => line("updated", item)),
    ...summary.trashed.map((item) => line("trashed", item)),
    ...summary.skipped.map((item) => line("skipped", item)),
    `${summary.unchanged} unchanged.`,
    ...(summary.skipped.length
      ? [
          `${summary.skipped.length} skipped: they changed in the studio since their file was imported. --force writes the files over them (the studio's revisions stay in their history).`,
        ]
      : []),
    ...(summary.dryRun ? ["Dry run: nothing was written."] : []),
  ];
}

/** Runs an import as a command: prints, and answers the exit code. */
export async function runImportCommand(args: ImportArgs, command: string): Promise<number> {
  const config = parseConfig(process.env);
  const options: ImportOptions & { publicDir: string } = {
    force: args.force,
    prune: args.prune,
    dryRun: args.dryRun,
    actorLabel: "command line",
    // Pictures are served from public/: a file naming one that is not there is broken.
    publicDir: path.resolve(import.meta.dirname, "..", "public"),
  };
  const database = await openCommandDatabase(config, command);
  let summary: ImportSummary;
  try {
    if (database.runningSite) {
      summary = await importThroughSite(database, database.runningSite.pid, { dir: args.dir, options });
      console.log(printable(`The running site (pid ${database.runningSite.pid}) imported ${args.dir}:`));
    } else {
      await applyMigrations(database.db);
      summary = await importContentFolder(database.db, args.dir, options);
    }
  } finally {
    await database.close();
  }
  const shownDir = path.relative(process.cwd(), args.dir) || ".";
  for (const problem of summary.problems)
    console.error(printable(`${path.join(shownDir, problem.file)}: ${problem.field} ${problem.message}`));
  for (const text of importReport(summary)) console.log(printable(text));
  if (summary.problems.length) return EXIT_BROKEN_FILE;
  return summary.skipped.length ? EXIT_SKIPPED : 0;
}

/** The end of a command: its exit code, or its error in one printable line (exit 1). */
export function finish(run: Promise<number>): void {
  run.then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(printable(error instanceof Error ? error.message : String(error)));
      process.exitCode = 1;
    },
  );
}
