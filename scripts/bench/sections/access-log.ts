import { createReadStream } from "node:fs";
import { startSite } from "../processes.ts";
import { showSpread, table } from "../report.ts";
import { loadTargets } from "../routes.ts";
import { defineSection } from "../section.ts";
import { alternate, type Rounds, summarizeRounds } from "./throughput.ts";

// What the access log costs: the same build at LOG_LEVEL=info (one line per request) and at warn
// (none), two processes loaded in turn. The info site's log is counted afterwards, to show that
// every request was written, the last ones flushed at shutdown.

const TARGETS = new Set(["page / (brotli)", "API blog posts"]);

async function countLines(file: string, needle: string): Promise<number> {
  let count = 0;
  let carry = "";
  for await (const chunk of createReadStream(file, { encoding: "utf8" })) {
    const lines = (carry + chunk).split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) if (line.includes(needle)) count += 1;
  }
  if (carry.includes(needle)) count += 1;
  return count;
}

export type AccessLogResult = {
  targets: { name: string; info: Rounds; warn: Rounds; ratio: number; cpuRatio: number }[];
  /** Request lines in the info site's log, and the answers wrk counted from that site (warm-ups included). */
  linesWritten: number;
  requestsAnswered: number;
};

export const accessLogSection = defineSection<AccessLogResult>({
  name: "access-log",
  description: "cost of the access log: the site at LOG_LEVEL=info against the same site at warn (wrk)",
  usesWrk: true,
  async run(settings, progress) {
    const info = await startSite({ logLevel: "info" });
    const warn = await startSite({ logLevel: "warn" }).catch(async (error: unknown) => {
      await info.stop();
      throw error;
    });
    let requestsAnswered = 0;
    const targets: AccessLogResult["targets"] = [];
    try {
      for (const target of loadTargets.filter((candidate) => TARGETS.has(candidate.name))) {
        const {
          warmups,
          runs: [infoRuns, warnRuns],
        } = await alternate(
          [
            { url: `${info.base}${target.pathname}`, pid: info.pid },
            { url: `${warn.base}${target.pathname}`, pid: warn.pid },
          ],
          target.headers,
          settings,
        );
        const atInfo = summarizeRounds(infoRuns!);
        const atWarn = summarizeRounds(warnRuns!);
        requestsAnswered += warmups[0]!.requests + infoRuns!.reduce((sum, run) => sum + run.requests, 0);
        targets.push({
          name: target.name,
          info: atInfo,
          warn: atWarn,
          ratio: Number((atInfo.requestsPerSecond.median / atWarn.requestsPerSecond.median).toFixed(2)),
          cpuRatio: Number((atWarn.cpuUsPerRequest.median / atInfo.cpuUsPerRequest.median).toFixed(2)),
        });
        progress(`access-log: ${target.name} done`);
      }
    } finally {
      await warn.stop();
      await info.stop({ keepFiles: true });
    }
    try {
      return { targets, linesWritten: await countLines(info.logFile, '"msg":"request completed"'), requestsAnswered };
    } finally {
      await info.removeFiles();
    }
  },
  format(result, settings) {
    return [
      `Access log: the site at LOG_LEVEL=info and at warn, wrk ${settings.connections} connections, ${settings.rounds} alternating rounds of ${settings.seconds} s; median (range).`,
      table(
        [
          "target",
          "info req/s",
          "info p99 ms",
          "warn req/s",
          "warn p99 ms",
          "info / warn",
          "CPU µs/req info / warn",
          "CPU ratio",
        ],
        result.targets.map((target) => [
          target.name,
          showSpread(target.info.requestsPerSecond),
          showSpread(target.info.p99Ms, 1),
          showSpread(target.warn.requestsPerSecond),
          showSpread(target.warn.p99Ms, 1),
          target.ratio.toFixed(2),
          `${target.info.cpuUsPerRequest.median} / ${target.warn.cpuUsPerRequest.median}`,
          target.cpuRatio.toFixed(2),
        ]),
      ),
      `Lines in the info site's log: ${result.linesWritten.toLocaleString("en-US")} for ${result.requestsAnswered.toLocaleString("en-US")} answers wrk counted (warm-ups included; a line more per request still in flight when a run ended, and one for the first page).`,
    ].join("\n");
  },
});
