import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createSession } from "../../../src/server/admin/door/sessions.ts";
import { inviteStaff } from "../../../src/server/admin/staff/staff-repository.ts";
import { analyticsHousekeeping } from "../../../src/server/analytics/rollup.ts";
import { type DatabaseHandle, openDatabase, queryRows } from "../../../src/server/db/client.ts";
import { applyMigrations } from "../../../src/server/db/migrate.ts";
import { addIndiaDays, indiaDay } from "../../../src/shared/india-time.ts";
import { createScratchDatabase, postgresAnswers, sleep, startSite } from "../processes.ts";
import { table } from "../report.ts";
import { defineSection } from "../section.ts";

// The analytics report over a busy site's data (docs/performance/2026-11-26-analytics-report.md):
// 1,000,000 page views over the last 89 days (every day before today rolled up), with enquiries and
// subscriptions, in the embedded database and on PostgreSQL. The production server answers a
// 731-day report (the longest) and the 30-day dashboard (the default) while this process asks
// for /healthz and a cached page every 20 ms: on the embedded database a long query holds up the
// site's one thread, and the other requests with it.

const VIEWS = 1_000_000;
const DAYS = 89;
const ENQUIRIES = 2_000;
const SUBSCRIPTIONS = 1_000;
const RUNS = 5;
const PROBE_EVERY_MS = 20;
const PATHS = [
  "/",
  "/about",
  "/services",
  "/services/grid-integration",
  "/services/renewable-energy",
  "/services/system-design",
  "/industries",
  "/industries/solar",
  "/projects",
  "/projects/kutch-solar-park-grid-connection",
  "/blog",
  "/blog/arc-flash-studies-ieee-1584-2018",
  "/contact",
  "/careers",
];

type Probe = { p50: number; max: number; count: number };
type Timing = { name: string; ms: number[]; healthz: Probe; page: Probe };
export type AnalyticsReportResult = {
  database: "embedded" | "postgres";
  views: number;
  seedSeconds: number;
  rollUpSeconds: number;
  /** The housekeeping run that finds nothing to roll up, as every instance runs it every 10 minutes. */
  idleHousekeepingMs: number;
  timings: Timing[];
}[];

/** The views, enquiries and subscriptions, a member of staff and a session; returns the session's cookie. */
export async function seed(handle: DatabaseHandle, now: Date): Promise<string> {
  const db = handle.db;
  const first = new Date(now.getTime() - DAYS * 86_400_000);
  const step = (DAYS * 86_400) / VIEWS;
  await queryRows(
    db,
    sql`insert into page_views (at, path, referrer_host, utm_source, utm_campaign, device, visitor_hash, views)
        select ${first.toISOString()}::timestamptz + (i * ${step}::float8 * interval '1 second'),
               (${`{${PATHS.join(",")}}`}::text[])[1 + i % ${PATHS.length}],
               (array[null, null, 'google.com', 'linkedin.com', 'bing.com', null])[1 + i % 6],
               case when i % 10 = 0 then (array['newsletter', 'google', 'linkedin'])[1 + i % 3] end,
               case when i % 20 = 0 then (array['nov-launch', 'arc-flash'])[1 + i % 2] end,
               (array['desktop', 'mobile', 'tablet', 'desktop'])[1 + i % 4],
               'visitor-' || ((i::bigint * 7919) % 3500), 1
        from generate_series(0, ${VIEWS - 1}) as i`,
  );
  await queryRows(
    db,
    sql`insert into contact_submissions (first_name, last_name, email, company, service, message, created_at, visitor_hash, landing_page, attribution_source)
        select 'Visitor' || i, 'Shah', 'visitor' || i || '@example.com', 'Company ' || i, 'grid-integration',
               'We need a grid connectivity study for a 50 MW solar plant near Bhuj.',
               ${first.toISOString()}::timestamptz + (i * ${(DAYS * 86_400) / ENQUIRIES}::float8 * interval '1 second'),
               'visitor-' || ((i * 31) % 3500), '/services', (array['google', null])[1 + i % 2]
        from generate_series(0, ${ENQUIRIES - 1}) as i`,
  );
  await queryRows(
    db,
    sql`insert into newsletter_subscribers (email, created_at)
        select 'reader' || i || '@example.com', ${first.toISOString()}::timestamptz + (i * ${(DAYS * 86_400) / SUBSCRIPTIONS}::float8 * interval '1 second')
        from generate_series(0, ${SUBSCRIPTIONS - 1}) as i`,
  );
  await queryRows(db, sql`analyze`);
  const { member } = await inviteStaff(db, { email: "bench@example.com", name: "Bench", role: "admin" }, now);
  const id = await createSession(db, member.id, { method: "passkey", device: "bench", now });
  return `staff_session=${id}`;
}

const round = (value: number) => Math.round(value * 10) / 10;

function probeSummary(samples: number[]): Probe {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: round(sorted[Math.floor(sorted.length / 2)] ?? 0),
    max: round(sorted.at(-1) ?? 0),
    count: sorted.length,
  };
}

/** Asks for `url` every PROBE_EVERY_MS (one at a time) until stopped; the time of each answer. */
function probe(url: string) {
  const samples: number[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      samples.push(performance.now() - started);
      await sleep(PROBE_EVERY_MS);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return probeSummary(samples);
    },
  };
}

async function measure(
  database: "embedded" | "postgres",
  site: { base: string },
  cookie: string,
  today: string,
  progress: (line: string) => void,
): Promise<Timing[]> {
  const targets = [
    {
      name: `731-day report (API, ${addIndiaDays(today, -730)} to ${today})`,
      url: `/admin/api/analytics?from=${addIndiaDays(today, -730)}&to=${today}`,
    },
    { name: "30-day dashboard (/admin/analytics)", url: "/admin/analytics" },
  ];
  // The start-up's housekeeping done, and each request made once untimed: what follows is a site in use.
  await sleep(2000);
  for (const target of targets) await (await fetch(`${site.base}${target.url}`, { headers: { cookie } })).arrayBuffer();
  const timings: Timing[] = [];
  for (const target of targets) {
    const ms: number[] = [];
    const healthz: number[][] = [];
    const pages: number[][] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const health = probe(`${site.base}/healthz`);
      const page = probe(`${site.base}/about`);
      await sleep(100);
      const started = performance.now();
      const response = await fetch(`${site.base}${target.url}`, { headers: { cookie, accept: "text/html" } });
      await response.arrayBuffer();
      ms.push(round(performance.now() - started));
      if (response.status !== 200) throw new Error(`${target.url} answered ${response.status}`);
      const [h, p] = await Promise.all([health.stop(), page.stop()]);
      healthz.push([h.p50, h.max, h.count]);
      pages.push([p.p50, p.max, p.count]);
    }
    const worst = (runs: number[][]) => ({
      p50: Math.max(...runs.map((run) => run[0]!)),
      max: Math.max(...runs.map((run) => run[1]!)),
      count: runs.reduce((sum, run) => sum + run[2]!, 0),
    });
    timings.push({ name: target.name, ms, healthz: worst(healthz), page: worst(pages) });
    progress(`analytics-report: ${database}: ${target.name}: ${ms.join(", ")} ms`);
  }
  return timings;
}

async function run(
  database: "embedded" | "postgres",
  open: () => Promise<DatabaseHandle>,
  start: () => ReturnType<typeof startSite>,
  progress: (line: string) => void,
): Promise<AnalyticsReportResult[number]> {
  const now = new Date();
  const handle = await open();
  let cookie: string;
  let seedSeconds: number;
  let rollUpSeconds: number;
  let idleHousekeepingMs: number;
  try {
    await applyMigrations(handle.db);
    const seeding = performance.now();
    cookie = await seed(handle, now);
    seedSeconds = round((performance.now() - seeding) / 1000);
    progress(`analytics-report: ${database}: ${VIEWS} views stored in ${seedSeconds} s`);
    const rolling = performance.now();
    const { rolledDays } = await analyticsHousekeeping(handle.db, now, 90);
    rollUpSeconds = round((performance.now() - rolling) / 1000);
    progress(`analytics-report: ${database}: ${rolledDays.length} days rolled up in ${rollUpSeconds} s`);
    const idle = performance.now();
    await analyticsHousekeeping(handle.db, now, 90);
    idleHousekeepingMs = round(performance.now() - idle);
  } finally {
    await handle.close();
  }
  const site = await start();
  try {
    const timings = await measure(database, site, cookie, indiaDay(now), progress);
    return { database, views: VIEWS, seedSeconds, rollUpSeconds, idleHousekeepingMs, timings };
  } finally {
    await site.stop();
  }
}

export const analyticsReportSection = defineSection<AnalyticsReportResult>({
  name: "analytics-report",
  description:
    "the analytics report over 1,000,000 views (89 days): 731-day report, 30-day dashboard, /healthz meanwhile",
  usesWrk: false,
  async run(settings, progress) {
    const results: AnalyticsReportResult = [];
    const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-analytics-report-"));
    const dataDir = path.join(scratch, "data");
    try {
      results.push(
        await run(
          "embedded",
          () => openDatabase({ dataDir }),
          () => startSite({ logLevel: settings.logLevel, dataDir, env: { ANALYTICS: "true" } }),
          progress,
        ),
      );
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    if (settings.postgresUrl && (await postgresAnswers(settings.postgresUrl))) {
      const database = await createScratchDatabase(settings.postgresUrl);
      try {
        results.push(
          await run(
            "postgres",
            () => openDatabase({ databaseUrl: database.url, dataDir: "unused" }),
            () => startSite({ logLevel: settings.logLevel, databaseUrl: database.url, env: { ANALYTICS: "true" } }),
            progress,
          ),
        );
      } finally {
        await database.drop();
      }
    } else {
      progress("analytics-report: no PostgreSQL server answers at BENCH_POSTGRES_URL: embedded database only");
    }
    return results;
  },
  format(results) {
    return [
      `Analytics report over ${VIEWS.toLocaleString("en-US")} views over ${DAYS} days (all but today rolled up), production server; ${RUNS} runs each, ms. /healthz and /about (cached) asked every ${PROBE_EVERY_MS} ms meanwhile: their slowest answer over the runs.`,
      table(
        ["database", "request", "time per run", "/healthz p50 / max", "/about p50 / max"],
        results.flatMap((result) =>
          result.timings.map((timing) => [
            result.database,
            timing.name,
            timing.ms.join(", "),
            `${timing.healthz.p50} / ${timing.healthz.max}`,
            `${timing.page.p50} / ${timing.page.max}`,
          ]),
        ),
      ),
      ...results.map(
        (result) =>
          `${result.database}: stored in ${result.seedSeconds} s, rolled up in ${result.rollUpSeconds} s; housekeeping with nothing to roll up: ${result.idleHousekeepingMs} ms.`,
      ),
    ].join("\n");
  },
});
