import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createScratchDatabase,
  postgresAnswers,
  residentBytes,
  type SiteProcess,
  sleep,
  startSite,
} from "../processes.ts";
import { megabytes, showSpread, type Spread, spread, table } from "../report.ts";
import { loadTargets } from "../routes.ts";
import { defineSection } from "../section.ts";
import type { BenchSettings } from "../settings.ts";
import { runWrk } from "../wrk.ts";

// Start time and memory of the production build, on a built tree: a first start (a new DATA_DIR,
// or a new database on the PostgreSQL server: migrations, content loaded), then a restart over
// the same data. Each start is timed from spawn to the first 200; resident memory is read after
// `idleSeconds` of rest, and again after a load of the cached page and the API.

const LOADS = new Set(["page / (brotli)", "API blog posts"]);

type Start = { listeningMs: number; firstPageMs: number; firstPageCpuMs: number; idleRssBytes: number };
type Run = { first: Start; restart: Start; afterLoadRssBytes: number };

export type StartupResult = {
  database: "embedded" | "postgres";
  runs: Run[];
  firstListeningMs: Spread;
  firstPageMs: Spread;
  firstCpuMs: Spread;
  firstIdleMB: Spread;
  restartListeningMs: Spread;
  restartPageMs: Spread;
  restartCpuMs: Spread;
  restartIdleMB: Spread;
  afterLoadMB: Spread;
}[];

async function timeStart(site: SiteProcess, settings: BenchSettings): Promise<Start> {
  await sleep(settings.idleSeconds * 1000);
  return {
    listeningMs: site.listeningMs,
    firstPageMs: site.firstPageMs,
    firstPageCpuMs: site.firstPageCpuMs,
    idleRssBytes: residentBytes(site.pid),
  };
}

async function startTwice(options: { dataDir?: string; databaseUrl?: string }, settings: BenchSettings): Promise<Run> {
  const siteOptions = { ...options, logLevel: settings.logLevel };
  const firstSite = await startSite(siteOptions);
  let first: Start;
  try {
    first = await timeStart(firstSite, settings);
  } finally {
    await firstSite.stop();
  }
  const again = await startSite(siteOptions);
  try {
    const restart = await timeStart(again, settings);
    for (const target of loadTargets.filter((candidate) => LOADS.has(candidate.name))) {
      await runWrk(`${again.base}${target.pathname}`, target.headers, {
        threads: settings.threads,
        connections: settings.connections,
        seconds: settings.seconds,
      });
    }
    return { first, restart, afterLoadRssBytes: residentBytes(again.pid) };
  } finally {
    await again.stop();
  }
}

function summarize(database: "embedded" | "postgres", runs: Run[]): StartupResult[number] {
  const pick = (value: (run: Run) => number) => spread(runs.map(value));
  return {
    database,
    runs,
    firstListeningMs: pick((run) => run.first.listeningMs),
    firstPageMs: pick((run) => run.first.firstPageMs),
    firstCpuMs: pick((run) => run.first.firstPageCpuMs),
    firstIdleMB: pick((run) => megabytes(run.first.idleRssBytes)),
    restartListeningMs: pick((run) => run.restart.listeningMs),
    restartPageMs: pick((run) => run.restart.firstPageMs),
    restartCpuMs: pick((run) => run.restart.firstPageCpuMs),
    restartIdleMB: pick((run) => megabytes(run.restart.idleRssBytes)),
    afterLoadMB: pick((run) => megabytes(run.afterLoadRssBytes)),
  };
}

export const startupSection = defineSection<StartupResult>({
  name: "startup",
  description: "start time (spawn to first 200) and resident memory, embedded database and PostgreSQL",
  usesWrk: true,
  async run(settings, progress) {
    const results: StartupResult = [];
    const embeddedRuns: Run[] = [];
    for (let run = 0; run < settings.startRuns; run += 1) {
      const dataDir = await mkdtemp(path.join(tmpdir(), "site-bench-startup-"));
      try {
        embeddedRuns.push(await startTwice({ dataDir }, settings));
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
      progress(`startup: embedded database, run ${run + 1} of ${settings.startRuns} done`);
    }
    results.push(summarize("embedded", embeddedRuns));

    if (!(await postgresAnswers(settings.postgresUrl))) {
      progress(`startup: no PostgreSQL at ${settings.postgresUrl || "(BENCH_POSTGRES_URL is empty)"}, skipped`);
      return results;
    }
    const postgresRuns: Run[] = [];
    for (let run = 0; run < settings.startRuns; run += 1) {
      const database = await createScratchDatabase(settings.postgresUrl);
      try {
        postgresRuns.push(await startTwice({ databaseUrl: database.url }, settings));
      } finally {
        await database.drop();
      }
      progress(`startup: PostgreSQL, run ${run + 1} of ${settings.startRuns} done`);
    }
    results.push(summarize("postgres", postgresRuns));
    return results;
  },
  format(result, settings) {
    return [
      `Start and memory: ${settings.startRuns} runs of a first start and a restart on a built tree, LOG_LEVEL=${settings.logLevel}; median (range).`,
      `"listening": spawn to the first 200 of /healthz; "page": to the first 200 of / (its first render included);`,
      `"CPU": the CPU time the process had used by then (user and system), which a busy machine disturbs far less than the wall-clock times.`,
      `Idle RSS after ${settings.idleSeconds} s of rest; "after load": after ${settings.seconds} s of wrk on the cached page, then on the API.`,
      table(
        [
          "database",
          "first: listening ms",
          "first: page ms",
          "first: CPU ms",
          "first: idle MB",
          "restart: listening ms",
          "restart: page ms",
          "restart: CPU ms",
          "restart: idle MB",
          "after load MB",
        ],
        result.map((row) => [
          row.database === "embedded" ? "embedded (PGlite)" : "PostgreSQL",
          showSpread(row.firstListeningMs),
          showSpread(row.firstPageMs),
          showSpread(row.firstCpuMs),
          showSpread(row.firstIdleMB),
          showSpread(row.restartListeningMs),
          showSpread(row.restartPageMs),
          showSpread(row.restartCpuMs),
          showSpread(row.restartIdleMB),
          showSpread(row.afterLoadMB),
        ]),
      ),
    ].join("\n");
  },
});
