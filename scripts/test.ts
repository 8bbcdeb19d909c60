import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { isCI } from "../test/ci.ts";
import { type FileTiming, timingsFile } from "../test/timing-reporter.ts";

// `npm test`: every check the project has, each stage timed, and one table at the end saying
// where the time went. docs/testing.md says what each stage holds and why they run as they do.
//
//   1. typecheck, lint, format and the build, side by side: none reads what another writes, and
//      each is mostly one thread (23 s side by side against about 65 s in series, 2 CPUs).
//   2. Vitest (every project: unit, integration on each driver, system), two workers.
//   3. Playwright, two workers. Vitest and Playwright side by side took as long as in series on
//      2 CPUs (both keep the CPUs busy) and loaded every timing-sensitive test: in series by
//      default; `--overlap` runs them side by side (a machine with more CPUs).
//
// Each stage's output goes to test-results/logs/<stage>.log; a stage that fails prints its log's
// end here. `npm test -- --serial` runs every stage one after another (to tell load from a bug).

const root = fileURLToPath(new URL("../", import.meta.url));
const logs = path.join(root, "test-results", "logs");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

type Stage = { name: string; command: string; args: string[]; env?: Record<string, string> };
type Outcome = { name: string; ok: boolean; ms: number; note?: string };

const { values: options } = parseArgs({
  options: { serial: { type: "boolean", default: false }, overlap: { type: "boolean", default: false } },
});

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const minutes = (ms: number) => {
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)} min ${String(total % 60).padStart(2, "0")} s`;
};

/** Runs a stage with its output in its log; prints a line when it ends, and the log's end if it failed. */
function runStage(stage: Stage): Promise<Outcome> {
  const started = performance.now();
  const logFile = path.join(logs, `${stage.name}.log`);
  const log = createWriteStream(logFile);
  return new Promise((resolve) => {
    const child = spawn(stage.command, stage.args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: "0", ...stage.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const finish = (code: number | null, error?: Error) => {
      const ms = performance.now() - started;
      if (error) log.write(`\n${error.message}\n`);
      log.end(() => {
        const ok = code === 0;
        console.log(
          `${ok ? "✓" : "✗"} ${stage.name.padEnd(12)} ${seconds(ms).padStart(8)}   ${path.relative(root, logFile)}`,
        );
        if (!ok) {
          const lines = readFileSync(logFile, "utf8").trimEnd().split("\n");
          console.log(
            `\n--- the end of ${stage.name}'s log ---\n${lines.slice(-150).join("\n")}\n--- ${stage.name} failed (exit ${code}) ---\n`,
          );
        }
        resolve({ name: stage.name, ok, ms });
      });
    };
    child.once("error", (error) => finish(null, error));
    child.once("close", (code) => finish(code));
  });
}

async function runAll(stages: Stage[], sideBySide = !options.serial): Promise<Outcome[]> {
  if (sideBySide) return Promise.all(stages.map(runStage));
  const outcomes: Outcome[] = [];
  for (const stage of stages) outcomes.push(await runStage(stage));
  return outcomes;
}

function readTimings(): FileTiming[] {
  const file = timingsFile(root);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as FileTiming[]) : [];
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join("   "),
    )
    .join("\n");
}

async function main() {
  mkdirSync(logs, { recursive: true });
  const started = performance.now();
  const withPostgres = Boolean(process.env.TEST_DATABASE_URL) || isCI();
  console.log(
    `npm test on ${cpus().length} CPUs, Node ${process.version}${withPostgres ? `, PostgreSQL at ${process.env.TEST_DATABASE_URL ?? "(unset)"}` : ", PGlite only"}`,
  );

  const checks = await runAll([
    { name: "typecheck", command: bin("tsc"), args: [] },
    { name: "lint", command: bin("eslint"), args: ["."] },
    { name: "format", command: bin("prettier"), args: ["--check", "."] },
    { name: "build", command: "npm", args: ["run", "--silent", "build"] },
  ]);
  const built = checks.find((outcome) => outcome.name === "build")!.ok;

  const suites: Stage[] = [
    {
      name: "vitest",
      command: bin("vitest"),
      // Without a build, the system project (which starts the compiled server) cannot run.
      args: ["run", ...(built ? [] : ["--project", "unit", "--project", "integration:*"])],
    },
  ];
  if (built) suites.push({ name: "playwright", command: bin("playwright"), args: ["test"], env: { E2E_REPORT: "1" } });
  const tests = await runAll(suites, options.overlap && !options.serial);
  const total = performance.now() - started;

  // The table: each stage, then Vitest's projects by the time their files took (summed: the
  // projects share Vitest's workers), then the slowest files.
  const timings = readTimings();
  const projects = [...new Set(timings.map((timing) => timing.project))].sort();
  const rows: string[][] = [["stage", "time", ""]];
  for (const outcome of checks) rows.push([outcome.name, seconds(outcome.ms), outcome.ok ? "" : "FAILED"]);
  for (const outcome of tests) {
    rows.push([outcome.name, seconds(outcome.ms), outcome.ok ? "" : "FAILED"]);
    if (outcome.name !== "vitest") continue;
    for (const project of projects) {
      const files = timings.filter((timing) => timing.project === project);
      const sum = (key: "passed" | "failed" | "skipped") => files.reduce((total, file) => total + file[key], 0);
      const failed = sum("failed");
      rows.push([
        `  ${project}`,
        seconds(files.reduce((total, file) => total + file.ms, 0)),
        `${files.length} files, ${sum("passed")} passed${failed ? `, ${failed} FAILED` : ""}${sum("skipped") ? `, ${sum("skipped")} skipped` : ""}`,
      ]);
    }
  }
  if (!built) rows.push(["playwright", "-", "not run: the build failed"]);
  rows.push([
    "total",
    minutes(total),
    options.serial ? "every stage in series" : options.overlap ? "Vitest and Playwright side by side" : "",
  ]);
  console.log(`\n${table(rows)}`);

  const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5);
  if (slowest.length) {
    console.log("\nThe five slowest test files (Vitest):");
    for (const file of slowest) console.log(`  ${seconds(file.ms).padStart(8)}  ${file.file} (${file.project})`);
  }
  const e2e = path.join(root, "test-results", "playwright.json");
  const browserTests =
    built && existsSync(e2e) ? playwrightTests(JSON.parse(readFileSync(e2e, "utf8")) as PlaywrightReport) : [];
  if (browserTests.length) {
    const byFile = new Map<string, number>();
    for (const { file, ms } of browserTests) byFile.set(file, (byFile.get(file) ?? 0) + ms);
    console.log("The five slowest browser test files (Playwright, summed over their tests):");
    for (const [file, ms] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 5))
      console.log(`  ${seconds(ms).padStart(8)}  e2e/${file}`);
  }

  // Outside CI, PostgreSQL is optional: say what did not run for want of it, and how to run it.
  if (!withPostgres) {
    const twins = timings
      .filter((timing) => timing.project === "integration:pglite")
      .reduce((n, t) => n + t.onPglite, 0);
    const skipped = timings.reduce((n, timing) => n + timing.skipped, 0);
    const browserSkipped = browserTests.filter((test) => test.skipped).length;
    console.log(
      `\nPostgreSQL: not run (TEST_DATABASE_URL is unset). ${twins} database tests ran on PGlite only, and ${skipped} Vitest tests and ${browserSkipped} browser tests that need a PostgreSQL server were skipped.` +
        `\nTo run them too: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm test`,
    );
  }
  const failed = [...checks, ...tests].filter((outcome) => !outcome.ok);
  console.log(failed.length ? `\n${failed.map((outcome) => outcome.name).join(", ")} failed.` : "\nEverything passed.");
  process.exit(failed.length ? 1 : 0);
}

type PlaywrightSuite = {
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: { tests: { status: string; results: { duration: number }[] }[] }[];
};
type PlaywrightReport = { suites: PlaywrightSuite[] };

/** Each browser test: its file, its time (every try), and whether it was skipped. */
function playwrightTests(report: PlaywrightReport): { file: string; ms: number; skipped: boolean }[] {
  const found: { file: string; ms: number; skipped: boolean }[] = [];
  const walk = (suite: PlaywrightSuite, file: string) => {
    for (const child of suite.suites ?? []) walk(child, child.file ?? file);
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        found.push({
          file,
          ms: test.results.reduce((total, result) => total + result.duration, 0),
          skipped: test.status === "skipped",
        });
  };
  for (const suite of report.suites) walk(suite, suite.file ?? "");
  return found;
}

await main();
