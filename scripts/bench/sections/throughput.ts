import {
  cpuMilliseconds,
  type RecordedAnswer,
  recordAnswer,
  residentBytes,
  startBareServer,
  startSite,
} from "../processes.ts";
import { megabytes, showSpread, type Spread, spread, table } from "../report.ts";
import { type LoadTarget, loadTargets } from "../routes.ts";
import { defineSection } from "../section.ts";
import type { BenchSettings } from "../settings.ts";
import { type LoadResult, runWrk } from "../wrk.ts";

// The site against its ceiling: for each target, a bare node:http server replaying the site's
// exact answer (status, headers, body). The two are loaded in turn, round after round, so that a
// change in the machine's load during the run touches both alike; each gets a warm-up first.

export type Rounds = {
  requestsPerSecond: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  /** CPU time the server process spent per request answered, in microseconds. */
  cpuUsPerRequest: Spread;
  statusErrors: number;
  socketErrors: number;
  runs: Measured[];
};

/** One wrk run, with the CPU time the server process used meanwhile. */
export type Measured = LoadResult & { cpuUsPerRequest: number };

export type TargetResult = {
  name: string;
  pathname: string;
  requestHeaders: Record<string, string>;
  status: number;
  bytes: number;
  site: Rounds;
  bare: Rounds;
  /** Median req/s of the site over the bare server's. */
  ratio: number;
  /** Median p99 latency of the site over the bare server's. */
  p99Ratio: number;
  /** Median CPU time per request of the bare server over the site's: the ratio on a quiet machine. */
  cpuRatio: number;
};

export function summarizeRounds(runs: Measured[]): Rounds {
  return {
    cpuUsPerRequest: spread(runs.map((run) => run.cpuUsPerRequest)),
    requestsPerSecond: spread(runs.map((run) => run.requestsPerSecond)),
    p50Ms: spread(runs.map((run) => run.p50Ms)),
    p99Ms: spread(runs.map((run) => run.p99Ms)),
    statusErrors: runs.reduce((sum, run) => sum + run.statusErrors, 0),
    socketErrors: runs.reduce((sum, run) => sum + run.socketErrors, 0),
    runs,
  };
}

export type LoadedServer = { url: string; pid: number };

/**
 * Loads each of the given servers in turn, `settings.rounds` times, after a warm-up of each.
 * Returns the measured runs of each server, and the warm-ups apart. Each run also gives the CPU
 * time its server used per request: a figure that other work on a shared machine disturbs far
 * less than requests per second, since it counts only the server's own work.
 */
export async function alternate(servers: LoadedServer[], headers: Record<string, string>, settings: BenchSettings) {
  const load = { threads: settings.threads, connections: settings.connections };
  const measure = async (server: LoadedServer, seconds: number): Promise<Measured> => {
    const cpuBefore = cpuMilliseconds(server.pid);
    const result = await runWrk(server.url, headers, { ...load, seconds });
    const cpuUsPerRequest = ((cpuMilliseconds(server.pid) - cpuBefore) * 1000) / Math.max(1, result.requests);
    return { ...result, cpuUsPerRequest: Math.round(cpuUsPerRequest) };
  };
  const warmups: Measured[] = [];
  for (const server of servers) warmups.push(await measure(server, settings.warmupSeconds));
  const runs: Measured[][] = servers.map(() => []);
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const [index, server] of servers.entries()) runs[index]!.push(await measure(server, settings.seconds));
  }
  return { warmups, runs };
}

async function measureTarget(
  siteBase: string,
  sitePid: number,
  target: LoadTarget,
  settings: BenchSettings,
): Promise<TargetResult> {
  const url = `${siteBase}${target.pathname}`;
  const answer: RecordedAnswer = await recordAnswer(url, target.headers);
  const bare = await startBareServer(answer);
  try {
    const {
      runs: [siteRuns, bareRuns],
    } = await alternate(
      [
        { url, pid: sitePid },
        { url: `${bare.base}${target.pathname}`, pid: bare.pid },
      ],
      target.headers,
      settings,
    );
    const site = summarizeRounds(siteRuns!);
    const baseline = summarizeRounds(bareRuns!);
    return {
      name: target.name,
      pathname: target.pathname,
      requestHeaders: target.headers,
      status: answer.status,
      bytes: answer.body.length,
      site,
      bare: baseline,
      ratio: Number((site.requestsPerSecond.median / baseline.requestsPerSecond.median).toFixed(2)),
      p99Ratio: Number((site.p99Ms.median / baseline.p99Ms.median).toFixed(2)),
      cpuRatio: Number((baseline.cpuUsPerRequest.median / site.cpuUsPerRequest.median).toFixed(2)),
    };
  } finally {
    await bare.stop();
  }
}

export type ThroughputResult = {
  logLevel: string;
  database: "embedded";
  targets: TargetResult[];
  siteRssAfterBytes: number;
};

export const throughputSection = defineSection<ThroughputResult>({
  name: "throughput",
  description: "req/s and p99 of the site against a bare node:http server sending the same bytes (wrk)",
  usesWrk: true,
  async run(settings, progress) {
    const site = await startSite({ logLevel: settings.logLevel });
    try {
      const targets: TargetResult[] = [];
      for (const target of loadTargets) {
        targets.push(await measureTarget(site.base, site.pid, target, settings));
        progress(`throughput: ${target.name} done`);
      }
      return { logLevel: settings.logLevel, database: "embedded", targets, siteRssAfterBytes: residentBytes(site.pid) };
    } finally {
      await site.stop();
    }
  },
  format(result, settings) {
    const rows = result.targets.map((target) => {
      const expected = target.status >= 400 ? 0 : target.site.statusErrors;
      const problems = [
        expected ? `${expected} non-2xx` : "",
        target.site.socketErrors ? `${target.site.socketErrors} socket errors` : "",
      ].filter(Boolean);
      return [
        target.name,
        target.status,
        target.bytes,
        showSpread(target.site.requestsPerSecond),
        showSpread(target.site.p99Ms, 1),
        showSpread(target.bare.requestsPerSecond),
        showSpread(target.bare.p99Ms, 1),
        target.ratio.toFixed(2),
        target.p99Ratio.toFixed(2),
        `${target.site.cpuUsPerRequest.median} / ${target.bare.cpuUsPerRequest.median}`,
        target.cpuRatio.toFixed(2),
        problems.join(", ") || "ok",
      ];
    });
    return [
      `Throughput on loopback: wrk, ${settings.threads} thread, ${settings.connections} connections, ${settings.rounds} alternating rounds of ${settings.seconds} s;`,
      `median (range). Site on the embedded database, LOG_LEVEL=${result.logLevel}; its RSS after the load: ${megabytes(result.siteRssAfterBytes)} MB.`,
      `"CPU ratio": the bare server's CPU time per request over the site's, the share of the bare rate the site would reach with a core to itself.`,
      table(
        [
          "target",
          "status",
          "bytes",
          "site req/s",
          "site p99 ms",
          "bare req/s",
          "bare p99 ms",
          "ratio",
          "p99 ratio",
          "CPU µs/req site / bare",
          "CPU ratio",
          "errors",
        ],
        rows,
      ),
    ].join("\n");
  },
});
