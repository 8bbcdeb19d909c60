import { spawn } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { createServer, get as httpGet } from "node:http";
import { cpus, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { buildIfStale } from "./build-if-stale.ts";
import { measureRoutes } from "./bundle-sizes.ts";

// `npm run bench`: builds for production, starts the site on a free port over a fresh embedded
// database, and measures Lighthouse (mobile, simulated throttling, median of 3 runs), first-load
// bytes per route, and server throughput against a bare node:http server sending the same bytes.
// Prints a table and writes bench/results/latest.json.

const root = fileURLToPath(new URL("../", import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const routes = ["/", "/about", "/services", "/industries", "/projects", "/blog", "/blog/ieee-519-harmonics-at-a-vfd-heavy-plant", "/contact"];
const chromeFlags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no port");
  return address.port;
}

async function startSite() {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), "site-bench-"));
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    if (await fetch(`${base}/readyz`).then((response) => response.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function runLighthouse(base: string) {
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", chromeFlags });
  const rows = [];
  try {
    for (const route of routes) {
      type Run = { performance: number; accessibility: number; bestPractices: number; seo: number; fcpMs: number; lcpMs: number; tbtMs: number; cls: number; bytes: number; failing: string[] };
      const runs: Run[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const result = await lighthouse(`${base}${route}`, { port: chrome.port, output: "json", logLevel: "error", formFactor: "mobile" });
        const lhr = result!.lhr;
        runs.push({
          performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
          bestPractices: Math.round((lhr.categories["best-practices"]?.score ?? 0) * 100),
          seo: Math.round((lhr.categories.seo?.score ?? 0) * 100),
          fcpMs: lhr.audits["first-contentful-paint"]?.numericValue ?? 0,
          lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue ?? 0,
          tbtMs: lhr.audits["total-blocking-time"]?.numericValue ?? 0,
          cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0,
          bytes: lhr.audits["total-byte-weight"]?.numericValue ?? 0,
          failing: Object.values(lhr.audits)
            .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === "binary")
            .map((audit) => audit.id),
        });
      }
      const pick = (key: Exclude<keyof Run, "failing">) => median(runs.map((run) => run[key]));
      rows.push({
        route,
        performance: pick("performance"),
        accessibility: pick("accessibility"),
        bestPractices: pick("bestPractices"),
        seo: pick("seo"),
        fcpMs: Math.round(pick("fcpMs")),
        lcpMs: Math.round(pick("lcpMs")),
        tbtMs: Math.round(pick("tbtMs")),
        cls: Number(pick("cls").toFixed(3)),
        bytes: Math.round(pick("bytes")),
        failingAudits: [...new Set(runs.flatMap((run) => run.failing))],
      });
      process.stderr.write(`lighthouse ${route} done\n`);
    }
  } finally {
    await chrome.kill();
  }
  return rows;
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, headers, connections: 50, duration: LOAD_SECONDS, pipelining: 1 });
  return { requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, non2xx: result.non2xx };
}

type RecordedResponse = { headers: Record<string, string>; body: Buffer };

/** One answer of the site, exactly as it went over the wire: undecoded body and its headers. */
function record(url: string, requestHeaders: Record<string, string>): Promise<RecordedResponse> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: requestHeaders }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const skip = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
        const headers = Object.fromEntries(
          Object.entries(response.headers).filter(([name, value]) => !skip.has(name) && typeof value === "string"),
        ) as Record<string, string>;
        resolve({ headers, body: Buffer.concat(chunks) });
      });
    }).on("error", reject);
  });
}

/** A bare node:http server, in its own process like the site, replaying one recorded answer. */
async function bareServer(recorded: RecordedResponse) {
  const file = path.join(await mkdtemp(path.join(tmpdir(), "site-bench-bare-")), "response.json");
  await writeFile(file, JSON.stringify({ headers: recorded.headers, bodyBase64: recorded.body.toString("base64") }));
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench-bare-server.ts", file], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(Number(String(chunk).trim())));
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      await rm(path.dirname(file), { recursive: true, force: true });
    },
  };
}

const throughputTargets: { name: string; pathname: string; headers: Record<string, string> }[] = [
  // What a browser asks for: the cached page, already compressed.
  { name: "page / (brotli)", pathname: "/", headers: { "accept-encoding": "gzip, deflate, br" } },
  { name: "page / (identity)", pathname: "/", headers: {} },
  { name: "API /api/blog-posts", pathname: "/api/blog-posts", headers: {} },
];

async function throughput(base: string) {
  const rows = [];
  for (const { name, pathname, headers } of throughputTargets) {
    const recorded = await record(`${base}${pathname}`, headers);
    const site = await load(`${base}${pathname}`, headers);
    const bare = await bareServer(recorded);
    const baseline = await load(bare.url, headers);
    await bare.close();
    const ratio = Number((site.requestsPerSecond / baseline.requestsPerSecond).toFixed(2));
    rows.push({ name, bytes: recorded.body.length, site, bare: baseline, ratio });
  }
  return rows;
}

const started = Date.now();
buildIfStale();
const weights = measureRoutes();
const site = await startSite();
let results;
try {
  const lighthouseRows = process.env.BENCH_SKIP_LIGHTHOUSE ? [] : await runLighthouse(site.base);
  const throughputRows = await throughput(site.base);
  results = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    lighthouse: lighthouseRows,
    firstLoad: weights,
    throughput: throughputRows,
    seconds: Math.round((Date.now() - started) / 1000),
  };
} finally {
  await site.stop();
}

await mkdir(path.join(root, "bench", "results"), { recursive: true });
await writeFile(path.join(root, "bench", "results", "latest.json"), `${JSON.stringify(results, null, 2)}\n`);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`\nLighthouse, mobile, median of ${RUNS}`);
console.log("route                                          perf  a11y  bp   seo   FCP ms  LCP ms  TBT ms  CLS    bytes");
for (const row of results.lighthouse) {
  console.log(
    `${row.route.padEnd(46)} ${String(row.performance).padStart(4)}  ${String(row.accessibility).padStart(4)}  ${String(row.bestPractices).padStart(3)}  ${String(row.seo).padStart(4)}  ${String(row.fcpMs).padStart(6)}  ${String(row.lcpMs).padStart(6)}  ${String(row.tbtMs).padStart(6)}  ${row.cls.toFixed(3)}  ${kb(row.bytes).padStart(8)}`,
  );
  if (row.failingAudits.length) console.log(`  failing: ${row.failingAudits.join(", ")}`);
}
console.log("\nFirst-load JavaScript and CSS per route");
console.log("route              JS gzip   JS brotli   CSS gzip   CSS brotli");
for (const row of results.firstLoad) {
  console.log(`${row.route.padEnd(18)} ${kb(row.js.gzip).padStart(8)} ${kb(row.js.brotli).padStart(11)} ${kb(row.css.gzip).padStart(10)} ${kb(row.css.brotli).padStart(12)}`);
}
console.log(`\nThroughput on loopback, 50 connections, ${LOAD_SECONDS} s each`);
console.log("target                    bytes   site req/s  p50  p99   bare req/s  p50  p99   ratio");
for (const row of results.throughput) {
  console.log(
    `${row.name.padEnd(25)} ${String(row.bytes).padStart(6)} ${String(row.site.requestsPerSecond).padStart(11)} ${String(row.site.p50Ms).padStart(4)} ${String(row.site.p99Ms).padStart(4)} ${String(row.bare.requestsPerSecond).padStart(11)} ${String(row.bare.p50Ms).padStart(4)} ${String(row.bare.p99Ms).padStart(4)}   ${row.ratio.toFixed(2)}`,
  );
}
console.log(`\n${results.seconds} s in all; written to bench/results/latest.json`);
