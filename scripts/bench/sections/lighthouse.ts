import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startSite } from "../processes.ts";
import { kilobytes, spread, table } from "../report.ts";
import { lighthouseRoutes } from "../routes.ts";
import { defineSection } from "../section.ts";

// Lighthouse, mobile form factor with its default simulated throttling (150 ms RTT, 1.6 Mbps,
// 4x CPU slowdown), in Debian's Chromium; each route `lighthouseRuns` times, the median kept.

const chromeFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

type Run = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  bytes: number;
  failing: string[];
};
export type LighthouseRow = Omit<Run, "failing"> & { route: string; failingAudits: string[] };

export const lighthouseSection = defineSection<LighthouseRow[]>({
  name: "lighthouse",
  description: "Lighthouse (mobile, simulated throttling) on the main routes, median of BENCH_RUNS runs",
  usesWrk: false,
  async run(settings, progress) {
    const site = await startSite({ logLevel: "warn" });
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      chromeFlags,
    });
    const rows: LighthouseRow[] = [];
    try {
      for (const route of lighthouseRoutes) {
        const runs: Run[] = [];
        for (let run = 0; run < settings.lighthouseRuns; run += 1) {
          const result = await lighthouse(`${site.base}${route}`, {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            formFactor: "mobile",
          });
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
        const pick = (key: Exclude<keyof Run, "failing">) => spread(runs.map((run) => run[key])).median;
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
        progress(`lighthouse: ${route} done`);
      }
    } finally {
      await chrome.kill();
      await site.stop();
    }
    return rows;
  },
  format: (rows, settings) =>
    [
      `Lighthouse, mobile, median of ${settings.lighthouseRuns}`,
      table(
        ["route", "perf", "a11y", "bp", "seo", "FCP ms", "LCP ms", "TBT ms", "CLS", "bytes"],
        rows.map((row) => [
          row.route,
          row.performance,
          row.accessibility,
          row.bestPractices,
          row.seo,
          row.fcpMs,
          row.lcpMs,
          row.tbtMs,
          row.cls.toFixed(3),
          kilobytes(row.bytes),
        ]),
      ),
      ...rows
        .filter((row) => row.failingAudits.length)
        .map((row) => `${row.route} failing: ${row.failingAudits.join(", ")}`),
    ].join("\n"),
});
