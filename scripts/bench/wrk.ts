import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BenchSetupError, type BenchSettings } from "./settings.ts";

// The load generator: wrk, written in C, one thread of which can push a bare node:http server on
// loopback far past anything the site reaches, so the figures measure the server and not the
// client (a Node client such as autocannon tops out near 4,000 requests a second on 2 cores).

const summaryScript = fileURLToPath(new URL("wrk-summary.lua", import.meta.url));

/** Stops the bench at once, before building anything, when wrk cannot be run. */
export function assertWrkInstalled(): void {
  const probe = spawnSync("wrk", ["-v"], { encoding: "utf8" });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
    throw new BenchSetupError(
      "wrk is not installed, and the throughput, access-log and startup sections drive their load with it.\n" +
        "On Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y wrk\n" +
        "(or run only the other sections: npm run bench -- --only lighthouse,first-load)",
    );
  }
}

export type LoadResult = {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers with a status of 400 or more (expected for the 404 target). */
  statusErrors: number;
  /** Connections refused, reset or timed out: a healthy run has none. */
  socketErrors: number;
};

type WrkSummary = {
  requests: number;
  durationUs: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: { mean: number; p50: number; p90: number; p99: number; max: number };
};

export type LoadOptions = Pick<BenchSettings, "threads" | "connections"> & { seconds: number };

/** One wrk run against `url` with the given request headers. */
export function runWrk(url: string, headers: Record<string, string>, options: LoadOptions): Promise<LoadResult> {
  const args = [
    `--threads=${options.threads}`,
    `--connections=${options.connections}`,
    `--duration=${options.seconds}s`,
    "--timeout=5s",
    `--script=${summaryScript}`,
    ...Object.entries(headers).flatMap(([name, value]) => ["--header", `${name}: ${value}`]),
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = output.split("\n").find((text) => text.startsWith("BENCH_JSON "));
      if (code !== 0 || !line) {
        reject(new Error(`wrk ${args.join(" ")} failed (exit ${code}):\n${output}`));
        return;
      }
      const summary = JSON.parse(line.slice("BENCH_JSON ".length)) as WrkSummary;
      const ms = (microseconds: number) => Math.round(microseconds / 10) / 100;
      resolve({
        requests: summary.requests,
        requestsPerSecond: Math.round(summary.requests / (summary.durationUs / 1e6)),
        p50Ms: ms(summary.latencyUs.p50),
        p90Ms: ms(summary.latencyUs.p90),
        p99Ms: ms(summary.latencyUs.p99),
        maxMs: ms(summary.latencyUs.max),
        statusErrors: summary.errors.status,
        socketErrors: summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
      });
    });
  });
}
