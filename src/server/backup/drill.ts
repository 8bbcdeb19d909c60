import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { buildApp } from "../app.ts";
import { parseConfig } from "../config.ts";
import { openDatabase, queryRows } from "../db/client.ts";
import type { AdminRenderer } from "../render/admin-renderer.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import { verifyArchive } from "./archive.ts";
import { oneLine } from "./backup-runs.ts";
import { restoreArchive } from "./restore.ts";

// The restore drill (docs/decisions/051-backups-that-restore.md): every archive the site makes is
// restored into a scratch embedded database, in a child process bounded in memory and time, its
// rows counted against the manifest, and a few public pages rendered from it. A backup no drill
// has passed is not counted as one on the Health page.

/** The environment variable that makes the server's entry run a drill instead of the site. */
export const DRILL_ARCHIVE_ENV = "BACKUP_DRILL_ARCHIVE";
export const DRILL_TIME_LIMIT_MS = 15 * 60_000;
export const DRILL_MEMORY_MB = 1024;
/** Pages a drill renders from the restored database: each must answer 200 with its heading. */
export const DRILL_PAGES = ["/", "/about", "/services", "/projects", "/blog", "/contact"];

/** The TypeScript entry, through tsx: `npm run dev` and the tests. */
export const defaultDrillEntry: DrillEntry = {
  script: fileURLToPath(new URL("./drill-main.ts", import.meta.url)),
  execArgv: ["--import", "tsx"],
};

export type DrillResult = { passed: boolean; detail: string };

/** How the child process is started: the server's entry, with the flags this process has. */
export type DrillEntry = { script: string; execArgv: string[] };

/**
 * Runs the drill (runDrill, below) in a child process: `entry` started with DRILL_ARCHIVE_ENV
 * set, killed past `timeLimitMs`, its heap capped at `memoryMb`. Resolves with what it found; a
 * child that crashes, is killed, or says nothing is a failed drill, in words.
 */
export function drillInChild(
  archive: string,
  options: {
    entry: DrillEntry;
    passphrase?: string | undefined;
    timeLimitMs?: number;
    memoryMb?: number;
    /** Aborted when the site stops: the child is killed rather than left to run on. */
    signal?: AbortSignal;
  },
): Promise<DrillResult> {
  const limit = options.timeLimitMs ?? DRILL_TIME_LIMIT_MS;
  if (options.signal?.aborted) return Promise.resolve({ passed: false, detail: "The site stopped before the drill." });
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...options.entry.execArgv, `--max-old-space-size=${options.memoryMb ?? DRILL_MEMORY_MB}`, options.entry.script],
      {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: "production",
          [DRILL_ARCHIVE_ENV]: archive,
          ...(options.passphrase ? { BACKUP_PASSPHRASE: options.passphrase } : {}),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
    child.stderr.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), limit);
    const stop = () => child.kill("SIGKILL");
    options.signal?.addEventListener("abort", stop, { once: true });
    child.once("error", (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", stop);
      resolve({ passed: false, detail: `The drill could not start: ${oneLine(error)}` });
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", stop);
      const last = output.trim().split("\n").pop() ?? "";
      try {
        const result = JSON.parse(last) as DrillResult;
        if (typeof result.passed === "boolean" && typeof result.detail === "string") return resolve(result);
      } catch {
        // Not the drill's answer: said below.
      }
      resolve({
        passed: false,
        detail:
          signal === "SIGKILL" && options.signal?.aborted
            ? "The site stopped during the drill, which was stopped with it."
            : signal === "SIGKILL"
              ? `The drill took longer than ${limit >= 60_000 ? `${Math.round(limit / 60_000)} minutes` : `${limit} ms`} and was stopped.`
              : `The drill ended (${signal ?? `exit code ${code}`}) without an answer: ${oneLine(errors.trim() || last || "no output")}`,
      });
    });
  });
}

/**
 * The drill itself, in the child: checks every part's SHA-256 against the manifest, restores the
 * archive into a scratch embedded database, counts every table's rows and the pictures' bytes
 * against the manifest, and renders DRILL_PAGES from it. The scratch folder is removed after.
 */
export async function runDrill(
  archive: string,
  options: { passphrase?: string | undefined; renderer: PageRenderer; adminRenderer?: AdminRenderer },
): Promise<DrillResult> {
  const started = Date.now();
  const scratch = await mkdtemp(path.join(tmpdir(), "site-drill-"));
  try {
    const manifest = await verifyArchive(archive, options.passphrase);
    const handle = await openDatabase({ dataDir: path.join(scratch, "data") });
    try {
      await restoreArchive(handle.db, archive, manifest, { passphrase: options.passphrase });
      for (const table of manifest.tables) {
        const [row] = await queryRows<{ rows: number | string }>(
          handle.db,
          sql`select count(*) as rows from ${sql.raw(`"${table.name.replace(/"/g, '""')}"`)}`,
        );
        if (Number(row?.rows) !== table.rows)
          return {
            passed: false,
            detail: `Table ${table.name} has ${row?.rows} rows after the restore; the manifest says ${table.rows}.`,
          };
      }
      const [pictures] = await queryRows<{ files: number | string; bytes: number | string }>(
        handle.db,
        sql`select count(*) as files, coalesce(sum(octet_length(bytes)), 0) as bytes from media_files`,
      );
      if (Number(pictures?.files) !== manifest.media.files || Number(pictures?.bytes) !== manifest.media.bytes)
        return {
          passed: false,
          detail: `The pictures restored (${pictures?.files} files) are not the manifest's (${manifest.media.files}).`,
        };
      const config = parseConfig({
        NODE_ENV: "production",
        DATA_DIR: path.join(scratch, "data"),
        ANALYTICS: "false",
        LOG_LEVEL: "warn",
      });
      const app = await buildApp({
        config,
        db: handle.db,
        renderer: options.renderer,
        adminRenderer: options.adminRenderer,
        logger: { level: "warn" },
      });
      try {
        for (const page of DRILL_PAGES) {
          const answer = await app.inject({ method: "GET", url: page });
          if (answer.statusCode !== 200 || !/<h1[\s>]/.test(answer.body))
            return {
              passed: false,
              detail: `The page ${page} answered ${answer.statusCode} from the restored database.`,
            };
        }
      } finally {
        await app.close();
      }
      const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
      return {
        passed: true,
        detail: `Restored into a scratch database in ${((Date.now() - started) / 1000).toFixed(1)} s: ${Object.keys(manifest.parts).length} parts as the manifest says, ${rows} rows and ${manifest.media.files} picture files counted, ${DRILL_PAGES.length} pages rendered.`,
      };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { passed: false, detail: oneLine(error) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
