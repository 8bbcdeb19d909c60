import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "../../../src/server/db/client.ts";
import { startSite } from "../processes.ts";
import { showSpread, table } from "../report.ts";
import { loadTargets } from "../routes.ts";
import { defineSection } from "../section.ts";
import { alternate, type Rounds, summarizeRounds } from "./throughput.ts";

// What counting page views costs (docs/decisions/032): the same build with ANALYTICS on and off,
// two processes loaded in turn on cached pages, as a browser asks for them (wrk sends no user
// agent of its own, and a request without one is taken for a bot and not counted). Afterwards the
// counting site's database is opened to show that every view was written, the last batch at
// shutdown.

const TARGETS = new Set(["page / (brotli)", "page with ?query"]);
const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

export type AnalyticsBenchResult = {
  targets: { name: string; on: Rounds; off: Rounds; ratio: number; cpuRatio: number }[];
  /** Rows in the counting site's page_views, and the answers wrk counted from that site (warm-ups included). */
  viewsWritten: number;
  requestsAnswered: number;
};

export const analyticsSection = defineSection<AnalyticsBenchResult>({
  name: "analytics",
  description: "cost of counting page views: cached pages with ANALYTICS on against the same site with it off (wrk)",
  usesWrk: true,
  async run(settings, progress) {
    const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-analytics-"));
    const dataDir = path.join(scratch, "data");
    const on = await startSite({ logLevel: settings.logLevel, dataDir, env: { ANALYTICS: "true" } });
    const off = await startSite({ logLevel: settings.logLevel, env: { ANALYTICS: "false" } }).catch(
      async (error: unknown) => {
        await on.stop();
        throw error;
      },
    );
    let requestsAnswered = 0;
    const targets: AnalyticsBenchResult["targets"] = [];
    try {
      for (const target of loadTargets.filter((candidate) => TARGETS.has(candidate.name))) {
        const headers = { ...target.headers, "user-agent": BROWSER };
        const {
          warmups,
          runs: [onRuns, offRuns],
        } = await alternate(
          [
            { url: `${on.base}${target.pathname}`, pid: on.pid },
            { url: `${off.base}${target.pathname}`, pid: off.pid },
          ],
          headers,
          settings,
        );
        const counting = summarizeRounds(onRuns!);
        const notCounting = summarizeRounds(offRuns!);
        requestsAnswered += warmups[0]!.requests + onRuns!.reduce((sum, run) => sum + run.requests, 0);
        targets.push({
          name: target.name,
          on: counting,
          off: notCounting,
          ratio: Number((counting.requestsPerSecond.median / notCounting.requestsPerSecond.median).toFixed(2)),
          cpuRatio: Number((counting.cpuUsPerRequest.median / notCounting.cpuUsPerRequest.median).toFixed(2)),
        });
        progress(`analytics: ${target.name} done`);
      }
    } finally {
      await off.stop();
      await on.stop();
    }
    try {
      const database = await openDatabase({ dataDir });
      try {
        const [row] = await queryRows<{ count: number }>(
          database.db,
          sql`select coalesce(sum(views), 0)::int as count from page_views`,
        );
        return { targets, viewsWritten: Number(row?.count ?? 0), requestsAnswered };
      } finally {
        await database.close();
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
  format(result, settings) {
    return [
      `Analytics: cached pages with ANALYTICS=true and =false, a browser's user agent, wrk ${settings.connections} connections, ${settings.rounds} alternating rounds of ${settings.seconds} s; median (range).`,
      table(
        ["target", "on req/s", "on p99 ms", "off req/s", "off p99 ms", "on / off", "CPU µs/req on / off", "CPU ratio"],
        result.targets.map((target) => [
          target.name,
          showSpread(target.on.requestsPerSecond),
          showSpread(target.on.p99Ms, 1),
          showSpread(target.off.requestsPerSecond),
          showSpread(target.off.p99Ms, 1),
          target.ratio.toFixed(2),
          `${target.on.cpuUsPerRequest.median} / ${target.off.cpuUsPerRequest.median}`,
          target.cpuRatio.toFixed(2),
        ]),
      ),
      `Views written by the counting site: ${result.viewsWritten.toLocaleString("en-US")} for ${result.requestsAnswered.toLocaleString("en-US")} answers wrk counted (warm-ups included; plus the start-up's first page, minus requests cut off at the end of a run).`,
    ].join("\n");
  },
});
