import { sql } from "drizzle-orm";
import { buildApp } from "../../../src/server/app.ts";
import { parseConfig } from "../../../src/server/config.ts";
import { type DatabaseHandle, openDatabase, queryRows } from "../../../src/server/db/client.ts";
import { applyMigrations } from "../../../src/server/db/migrate.ts";
import { createPageRenderer } from "../../../src/server/render/page-renderer.ts";
import { createScratchDatabase, postgresAnswers } from "../processes.ts";
import { table } from "../report.ts";
import { defineSection } from "../section.ts";

// The site search (docs/decisions/054-site-search.md) over 1,000 published articles, on the
// embedded database and on PostgreSQL: the time of GET /search?q=… through the app in process
// (inject: the query, the excerpts and the page's rendering, no network), each query `ITERATIONS`
// times after a warm-up. Articles are written as the studio's published copy, so the triggers
// of migration 0013 index them as they would a real publish.

const ARTICLES = 1000;
const ITERATIONS = 40;
const WARMUP = 3;

const queries: { name: string; q: string }[] = [
  { name: "a common word (every article)", q: "harmonics" },
  { name: "two words", q: "protection coordination" },
  { name: "a folded standard (IEEE-519)", q: "IEEE-519" },
  { name: "a synonym (LVRT)", q: "LVRT requirements" },
  { name: "a rare word (one article)", q: "quarrystone417" },
  { name: "a word found nowhere", q: "zzyzxqv" },
  { name: "12 words", q: "grid code study for a solar plant near Bhuj with reactive power and voltage" },
];

type Timing = { name: string; p50: number; p95: number; max: number };
export type SearchBenchResult = {
  database: "embedded" | "postgres";
  articles: number;
  seedSeconds: number;
  timings: Timing[];
}[];

/** 1,000 published articles of about 600 words each, from a power-system vocabulary, each with a word of its own. */
async function seed(handle: DatabaseHandle): Promise<void> {
  await queryRows(
    handle.db,
    sql`insert into blog_posts (title, excerpt, content, category, image_url, published_at, slug, status)
        select 'Study ' || i || ': ' || (array['Harmonic mitigation','Protection coordination','Grid code compliance','Arc flash','Battery storage sizing','Earthing design'])[1 + i % 6],
               'What we found in study ' || i || '.',
               '## Scope' || E'\n\n' || repeat(
                 'The plant connects at 33 kV to the GETCO substation. Harmonics from the drives were measured against IEEE 519 limits at the point of common coupling, '
                 || 'and the inverter''s low-voltage ride-through was checked against the CEA connectivity standards. Relay settings, protection coordination, '
                 || 'short circuit levels and the reactive power capability were studied for the utility. ', 12)
                 || E'\n\n## Findings\n\nThe quarrystone' || i || ' result was documented for the client.',
               'Grid Integration', '/images/articles/fault-ride-through-model-validation.svg',
               timestamptz '2026-01-01 00:00:00+00' + i * interval '1 hour', 'bench-study-' || i, 'published'
        from generate_series(1, ${ARTICLES}) as i`,
  );
  await queryRows(handle.db, sql`analyze search_documents`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function time(run: () => Promise<unknown>): Promise<{ p50: number; p95: number; max: number }> {
  for (let i = 0; i < WARMUP; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return { p50: round(percentile(samples, 50)), p95: round(percentile(samples, 95)), max: round(samples.at(-1) ?? 0) };
}

async function measure(database: "embedded" | "postgres", handle: DatabaseHandle, progress: (line: string) => void) {
  await applyMigrations(handle.db);
  const seeding = performance.now();
  await seed(handle);
  const seedSeconds = Math.round((performance.now() - seeding) / 100) / 10;
  progress(`search: ${database}: ${ARTICLES} articles stored and indexed in ${seedSeconds} s`);
  const config = parseConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    ANALYTICS: "false",
    SITE_URL: "http://localhost",
  });
  const app = await buildApp({
    config,
    db: handle.db,
    renderer: createPageRenderer({
      loadEntry: () => import("../../../src/web/entry-server.tsx"),
      assets: {
        base: { scripts: ["/assets/entry-client.js"], styles: ["/assets/entry-client.css"], preloads: [] },
        forIslands() {
          return this.base;
        },
      },
      siteUrl: config.siteUrl,
    }),
    logger: { level: "warn" },
  });
  const timings: Timing[] = [];
  try {
    for (const query of queries) {
      const url = `/search?${new URLSearchParams({ q: query.q }).toString()}`;
      timings.push({
        name: query.name,
        ...(await time(async () => {
          const answer = await app.inject({ method: "GET", url });
          if (answer.statusCode !== 200) throw new Error(`${url} answered ${answer.statusCode}`);
        })),
      });
      progress(`search: ${database}: ${query.name}: p95 ${timings.at(-1)!.p95} ms`);
    }
  } finally {
    await app.close();
  }
  return { database, articles: ARTICLES, seedSeconds, timings };
}

export const searchSection = defineSection<SearchBenchResult>({
  name: "search",
  description: "GET /search over 1,000 published articles, embedded and PostgreSQL (p50 and p95, in process)",
  usesWrk: false,
  async run(settings, progress) {
    const results: SearchBenchResult = [];
    const embedded = await openDatabase({ dataDir: "memory://" });
    try {
      results.push(await measure("embedded", embedded, progress));
    } finally {
      await embedded.close();
    }
    if (settings.postgresUrl && (await postgresAnswers(settings.postgresUrl))) {
      const scratch = await createScratchDatabase(settings.postgresUrl);
      const handle = await openDatabase({ databaseUrl: scratch.url, dataDir: "unused" });
      try {
        results.push(await measure("postgres", handle, progress));
      } finally {
        await handle.close();
        await scratch.drop();
      }
    } else {
      progress("search: no PostgreSQL server answers at BENCH_POSTGRES_URL: measured on the embedded database only");
    }
    return results;
  },
  format(results) {
    const rows = results.flatMap((result) =>
      result.timings.map((timing) => [result.database, timing.name, timing.p50, timing.p95, timing.max]),
    );
    return [
      `GET /search over ${results[0]?.articles ?? ARTICLES} articles (${ITERATIONS} requests each, ms)`,
      table(["database", "query", "p50", "p95", "max"], rows),
    ].join("\n");
  },
});
