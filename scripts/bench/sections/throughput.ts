import { type RecordedAnswer, recordAnswer, residentBytes, startBareServer, startSite } from "../processes.ts";
import { megabytes, showSpread, type Spread, spread, table } from "../report.ts";
import { type LoadTarget, loadTargets } from "../routes.ts";
import { defineSection } from "../section.ts";
import type { BenchSettings } from "../settings.ts";
import { type LoadResult, runWrk } from "../wrk.ts";

// The site against its ceiling: for each target, a bare node:http server replaying the site's
// exact answer (status, headers, body). The two are loaded in turn, round after round, so that a
// change in the machine's load during the run touches both alike; each gets a warm-up first.

export type Rounds = { requestsPerSecond: Spread; p50Ms: Spread; p99Ms: Spread; statusErrors: number; socketErrors: number; runs: LoadResult[] };

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
};

export function summarizeRounds(runs: LoadResult[]): Rounds {
  return {
    requestsPerSecond: spread(runs.map((run) => run.requestsPerSecond)),
    p50Ms: spread(runs.map((run) => run.p50Ms)),
    p99Ms: spread(runs.map((run) => run.p99Ms)),
    statusErrors: runs.reduce((sum, run) => sum + run.statusErrors, 0),
    socketErrors: runs.reduce((sum, run) => sum + run.socketErrors, 0),
    runs,
  };
}

/**
 * Loads each of the given servers in turn, `settings.rounds` times, after a warm-up of each.
 * Returns the measured runs of each server, and the warm-ups apart.
 */
export async function alternate(urls: string[], headers: Record<string, string>, settings: BenchSettings) {
  const load = { threads: settings.threads, connections: settings.connections };
  const warmups: LoadResult[] = [];
  for (const url of urls) warmups.push(await runWrk(url, headers, { ...load, seconds: settings.warmupSeconds }));
  const runs: LoadResult[][] = urls.map(() => []);
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const [index, url] of urls.entries()) runs[index]!.push(await runWrk(url, headers, { ...load, seconds: settings.seconds }));
  }
  return { warmups, runs };
}

async function measureTarget(siteBase: string, target: LoadTarget, settings: BenchSettings): Promise<TargetResult> {
  const url = `${siteBase}${target.pathname}`;
  const answer: RecordedAnswer = await recordAnswer(url, target.headers);
  const bare = await startBareServer(answer);
  try {
    const { runs: [siteRuns, bareRuns] } = await alternate([url, `${bare.base}${target.pathname}`], target.headers, settings);
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
    };
  } finally {
    await bare.stop();
  }
}

export type ThroughputResult = { logLevel: string; database: "embedded"; targets: TargetResult[]; siteRssAfterBytes: number };

export const throughputSection = defineSection<ThroughputResult>({
  name: "throughput",
  description: "req/s and p99 of the site against a bare node:http server sending the same bytes (wrk)",
  usesWrk: true,
  async run(settings, progress) {
    const site = await startSite({ logLevel: settings.logLevel });
    try {
      const targets: TargetResult[] = [];
      for (const target of loadTargets) {
        targets.push(await measureTarget(site.base, target, settings));
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
      const problems = [expected ? `${expected} non-2xx` : "", target.site.socketErrors ? `${target.site.socketErrors} socket errors` : ""].filter(Boolean);
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
        problems.join(", ") || "ok",
      ];
    });
    return [
      `Throughput on loopback: wrk, ${settings.threads} thread, ${settings.connections} connections, ${settings.rounds} alternating rounds of ${settings.seconds} s;`,
      `median (range). Site on the embedded database, LOG_LEVEL=${result.logLevel}; its RSS after the load: ${megabytes(result.siteRssAfterBytes)} MB.`,
      table(["target", "status", "bytes", "site req/s", "site p99 ms", "bare req/s", "bare p99 ms", "ratio", "p99 ratio", "errors"], rows),
    ].join("\n");
  },
});
