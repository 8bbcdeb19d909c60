import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildIfStale } from "./build-if-stale.ts";
import { root } from "./bench/processes.ts";
import type { AnyBenchSection } from "./bench/section.ts";
import { accessLogSection } from "./bench/sections/access-log.ts";
import { analyticsSection } from "./bench/sections/analytics.ts";
import { analyticsReportSection } from "./bench/sections/analytics-report.ts";
import { backupSection } from "./bench/sections/backup.ts";
import { editorSection } from "./bench/sections/editor.ts";
import { enquiriesSection } from "./bench/sections/enquiries.ts";
import { firstLoadSection } from "./bench/sections/first-load.ts";
import { inboxSearchSection } from "./bench/sections/inbox-search.ts";
import { searchSection } from "./bench/sections/search.ts";
import { lighthouseSection } from "./bench/sections/lighthouse.ts";
import { mediaSection } from "./bench/sections/media.ts";
import { newsletterSection } from "./bench/sections/newsletter.ts";
import { pictureMemorySection } from "./bench/sections/picture-memory.ts";
import { startupSection } from "./bench/sections/startup.ts";
import { studioSection } from "./bench/sections/studio.ts";
import { throughputSection } from "./bench/sections/throughput.ts";
import { BenchSetupError, readSettings } from "./bench/settings.ts";
import { assertWrkInstalled } from "./bench/wrk.ts";

// `npm run bench`: builds for production when the build is stale, then runs each section (or
// those named by --only), prints their tables and writes bench/results/latest.json.
// docs/performance.md says how each section measures and what the figures were.

const sections: AnyBenchSection[] = [
  firstLoadSection,
  lighthouseSection,
  throughputSection,
  accessLogSection,
  analyticsSection,
  analyticsReportSection,
  startupSection,
  inboxSearchSection,
  searchSection,
  studioSection,
  editorSection,
  mediaSection,
  pictureMemorySection,
  newsletterSection,
  enquiriesSection,
  backupSection,
];

const usage = [
  "usage: npm run bench [-- --only <section>[,<section>…]]",
  "",
  "sections (all by default, in this order):",
  ...sections.map((section) => `  ${section.name.padEnd(12)} ${section.description}`),
  "",
  "settings (environment): BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50), BENCH_THREADS (1),",
  "BENCH_WARMUP_SECONDS (1), BENCH_LOG_LEVEL (info), BENCH_RUNS (Lighthouse runs per route, 3),",
  "BENCH_START_RUNS (3), BENCH_IDLE_SECONDS (5), BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres, empty to skip)",
].join("\n");

function selectSections(args: string[]): AnyBenchSection[] {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { only: { type: "string" }, help: { type: "boolean", short: "h" } } }).values;
  } catch (error) {
    throw new BenchSetupError(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  }
  if (parsed.help) {
    console.log(usage);
    process.exit(0);
  }
  if (parsed.only === undefined) return sections;
  const names = parsed.only
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !sections.some((section) => section.name === name));
  if (unknown.length || names.length === 0)
    throw new BenchSetupError(
      `${unknown.length ? `no section named ${unknown.join(", ")}` : "--only names no section"}\n${usage}`,
    );
  return sections.filter((section) => names.includes(section.name));
}

async function main() {
  const settings = readSettings();
  const selected = selectSections(process.argv.slice(2));
  if (selected.some((section) => section.usesWrk)) assertWrkInstalled();
  buildIfStale();

  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
  const results: Record<
    string,
    { seconds: number; loadAverageBefore: number[]; loadAverageAfter: number[]; result: unknown }
  > = {};
  const started = Date.now();
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const output = path.join(root, "bench", "results", "latest.json");
  await mkdir(path.dirname(output), { recursive: true });
  for (const section of selected) {
    const sectionStarted = Date.now();
    const loadAverageBefore = loadavg().map((value) => Number(value.toFixed(2)));
    progress(`${section.name}: starting (load average ${loadAverageBefore.join(", ")})`);
    const result = await section.run(settings, progress);
    results[section.name] = {
      seconds: Math.round((Date.now() - sectionStarted) / 1000),
      loadAverageBefore,
      loadAverageAfter: loadavg().map((value) => Number(value.toFixed(2))),
      result,
    };
    // Written after each section, so that a failure later keeps what was measured.
    await writeFile(
      output,
      `${JSON.stringify({ date: new Date().toISOString(), machine, settings, sections: results }, null, 2)}\n`,
    );
  }

  for (const section of selected) {
    const entry = results[section.name]!;
    console.log(`\n${section.format(entry.result as never, settings)}`);
    console.log(
      `(${entry.seconds} s; load average ${entry.loadAverageBefore.join(", ")} before, ${entry.loadAverageAfter.join(", ")} after)`,
    );
  }
  console.log(`\n${Math.round((Date.now() - started) / 1000)} s in all; written to ${path.relative(root, output)}`);
}

main().catch((error: unknown) => {
  if (error instanceof BenchSetupError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
});
