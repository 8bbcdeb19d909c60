import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { type Database, openDatabase, queryRows } from "../../../src/server/db/client.ts";
import { applyMigrations } from "../../../src/server/db/migrate.ts";
import { createScratchDatabase, postgresAnswers, root, sleep, startSite } from "../processes.ts";
import { table } from "../report.ts";
import { defineSection } from "../section.ts";

// Backup and restore (docs/performance.md, "Backup and restore") of a site of ARTICLES articles,
// PICTURES pictures and ENQUIRIES enquiries, seeded with SQL:
// - `npm run backup` (scripts/backup.ts, run as `node --import tsx` under GNU time, whose %M is the
//   process's peak resident memory) on the embedded database with no site running (it opens the
//   files) and on PostgreSQL: its time, the archive's size, the process's peak memory.
// - `npm run restore` of that archive into a fresh embedded database and a fresh PostgreSQL
//   database (bench_restore_<random>, dropped after): its time and peak memory.
// - The embedded database with the site running: /about and /readyz (which asks the database)
//   requested every REQUEST_EVERY_MS, each on its own, while `npm run backup` has the site make the
//   backup from a copy of its database's files, then while that backup's restore drill runs in a
//   child process of the site (until the site logs its end): the longest wait and the p95, against
//   the same requests before.

const ARTICLES = 1_000;
const PICTURES = 300;
const ENQUIRIES = 100_000;
const REQUEST_EVERY_MS = 50;
const BASELINE_MS = 3_000;
/** A picture's files: the kept original and seven widths (sizes varied by up to ±20% per picture). */
const LADDER: { name: string; contentType: string; width: number; kb: number }[] = [
  { name: "original.jpg", contentType: "image/jpeg", width: 4000, kb: 1500 },
  { name: "480.avif", contentType: "image/avif", width: 480, kb: 20 },
  { name: "960.avif", contentType: "image/avif", width: 960, kb: 55 },
  { name: "1600.avif", contentType: "image/avif", width: 1600, kb: 120 },
  { name: "480.webp", contentType: "image/webp", width: 480, kb: 30 },
  { name: "960.webp", contentType: "image/webp", width: 960, kb: 85 },
  { name: "1600.webp", contentType: "image/webp", width: 1600, kb: 190 },
  { name: "1600.jpg", contentType: "image/jpeg", width: 1600, kb: 300 },
];

type Measured = { seconds: number; peakRssMb: number; output: string };
export type BackupBenchResult = {
  seeded: { database: string; seconds: number; databaseMb: number }[];
  backups: { database: string; seconds: number; archiveMb: number; peakRssMb: number }[];
  restores: { into: string; seconds: number; peakRssMb: number }[];
  whileRunning: {
    /** What ran: the command through the site's socket, or the site's own backup and its drill. */
    how: string;
    seconds: number;
    /** The site process's resident memory (VmRSS) before, and its peak (VmHWM) by the end of this. */
    siteRssMb: { before: number; peak: number };
    pages: ({ pathname: string; baselineP95: number; baselineMax: number; baselineNotOk: string } & PageWaits)[];
  }[];
};

const round = (value: number) => Math.round(value * 10) / 10;
const megabytes = (bytes: number) => round(bytes / 2 ** 20);

/** Runs a script of scripts/ under GNU time: its wall time, its peak resident memory, its output. */
async function timed(script: string, args: string[], env: Record<string, string>): Promise<Measured> {
  const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-time-"));
  const timeFile = path.join(scratch, "time");
  try {
    const started = performance.now();
    const child = spawn(
      "/usr/bin/time",
      ["-f", "%M", "-o", timeFile, process.execPath, "--import", "tsx", script, ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, stdio: "pipe" },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += String(chunk)));
    child.stderr.on("data", (chunk: Buffer) => (output += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`${script} ${args.join(" ")} exited with ${code}:\n${output.slice(-3000)}`);
    const kb = Number((await readFile(timeFile, "utf8")).trim().split("\n").at(-1));
    return { seconds: round(seconds), peakRssMb: round(kb / 1024), output };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const archiveOf = (measured: Measured) => measured.output.trimEnd().split("\n").at(-1)!.trim();

/** The site's content: articles with a revision each, enquiries, pictures with their files. */
async function seed(db: Database, progress: (line: string) => void, label: string): Promise<void> {
  const sentences = [
    "Grid connectivity studies confirm that a plant meets the grid code at its point of interconnection.",
    "We model the collector system, the inverters and the transformers in PSCAD and PSS/E before any steel is ordered.",
    "Protection coordination keeps a fault on one feeder from tripping the whole substation.",
    "Harmonic analysis measures the distortion that power electronics inject and sizes the filters that remove it.",
    "An arc flash study under IEEE 1584-2018 sets the incident energy, the boundaries and the labels for every panel.",
    "Load flow and short-circuit results feed the single-line diagram the utility reviews.",
    "Reactive power capability at the point of interconnection is checked across the full voltage range.",
    "Our engineers compare the relay settings against the manufacturer's curves and the utility's requirements.",
    "Reliability analysis estimates the energy not served and ranks the upgrades by their effect on it.",
    "The report lists every assumption, every model version and the data the client supplied.",
    "Dynamic simulations cover low-voltage ride-through, frequency response and the recovery after a fault.",
    "Commissioning tests verify on site what the models predicted in the office.",
  ];
  const list = sql.raw(`array[${sentences.map((s) => `'${s.replace(/'/g, "''")}'`).join(",")}]`);
  const started = performance.now();
  // Articles of about 5 KB, published, each with the revision it was published from.
  await queryRows(
    db,
    sql`insert into blog_posts (title, excerpt, content, category, image_url, image_alt, published_at, slug, author_name, status, created_at)
        select 'Study note ' || i || ': ' || (${list})[1 + i % 12],
               (${list})[1 + (i * 5) % 12],
               (select string_agg('## Part ' || k || E'\n\n' || (${list})[1 + (i + k) % 12] || ' ' || (${list})[1 + (i * 3 + k) % 12] || ' ' || (${list})[1 + (i * 7 + k * 5) % 12] || ' Figure ' || (i * k) % 97 || ' shows the case of ' || (10 + (i + k) % 240) || ' MW.', E'\n\n')
                from generate_series(1, 14) as k),
               (array['Grid Integration','Renewable Energy','Protection','Power Quality'])[1 + i % 4],
               '/media/' || lpad(to_hex(1 + i % ${PICTURES}), 16, '0') || '/1600.jpg', 'A substation at dusk',
               timestamptz '2026-11-01 06:00:00+00' - (i * interval '1 day'),
               'study-note-' || i, 'Engineer ' || (i % 12), 'published',
               timestamptz '2026-11-01 06:00:00+00' - (i * interval '1 day')
        from generate_series(1, ${ARTICLES}) as i`,
  );
  await queryRows(
    db,
    sql`insert into content_revisions (article_id, number, author_label, source, document, hash, created_at)
        select id, 1, 'seed', 'seed',
               jsonb_build_object('title', title, 'slug', slug, 'excerpt', excerpt, 'content', content, 'category', category,
                                  'imageUrl', image_url, 'imageAlt', image_alt, 'publishedAt', published_at, 'authorName', author_name),
               md5(content), created_at
        from blog_posts`,
  );
  await queryRows(
    db,
    sql`update blog_posts set head_revision_id = r.id, published_revision_id = r.id
        from content_revisions r where r.article_id = blog_posts.id`,
  );
  progress(`backup: ${label}: ${ARTICLES} articles stored`);
  await queryRows(
    db,
    sql`insert into contact_submissions (first_name, last_name, email, company, service, message, created_at, is_spam, spam_reason, status, first_reply_at)
        select 'Visitor' || i, (array['Patel','Shah','Desai','Mehta','Rao','Iyer','Joshi','Nair'])[1 + i % 8],
               'visitor' || i || '@example.com', 'Company ' || (i % 9973),
               (array['grid-integration','renewable-energy','system-design','reliability-analysis','regulatory-compliance','performance-optimization'])[1 + i % 6],
               'We need a ' || (array['grid connectivity','protection coordination','load flow','harmonic','arc flash','solar plant','substation','reliability'])[1 + i % 8]
                 || ' study for a ' || (10 + i % 240) || ' MW project near ' || (array['Ahmedabad','Vadodara','Surat','Rajkot','Bhuj','Pune'])[1 + i % 6]
                 || '. Please send a proposal and a timeline; our engineers will share the single-line diagram and the grid code requirements.',
               timestamptz '2026-11-23 06:00:00+00' - (i * interval '345 seconds'),
               i % 50 = 0, case when i % 50 = 0 then 'honeypot' end,
               case when i % 50 = 0 then 'spam' else (array['new','contacted','qualified','proposal-sent','won','lost'])[1 + i % 6] end,
               case when i % 4 = 0 then null else timestamptz '2026-11-23 06:00:00+00' - (i * interval '345 seconds') + ((i % 30) * interval '1 hour') end
        from generate_series(1, ${ENQUIRIES}) as i`,
  );
  progress(`backup: ${label}: ${ENQUIRIES} enquiries stored`);
  await queryRows(
    db,
    sql`insert into media (key, file_name, format, width, height, uploaded_bytes, alt, created_by_label, created_at)
        select lpad(to_hex(i), 16, '0'), 'site-photo-' || i || '.jpg', 'jpeg', 4000, 3000, 4200000 + i * 997,
               'Engineers at a substation, photo ' || i, 'Bench', timestamptz '2026-11-01 06:00:00+00' - (i * interval '1 day')
        from generate_series(1, ${PICTURES}) as i`,
  );
  const ids = await queryRows<{ id: string }>(db, sql`select id from media order by key`);
  // Incompressible bytes: slices of one random pool (gzip's window is 32 KB: it sees no repeat).
  const pool = randomBytes(16 * 2 ** 20);
  let offset = 0;
  for (const [index, { id }] of ids.entries()) {
    const rows = LADDER.map((file, n) => {
      const size = Math.round(file.kb * 1024 * (0.8 + (((index * 7 + n * 13) % 41) / 40) * 0.4));
      if (offset + size > pool.length) offset = (offset * 31 + 4099) % (pool.length / 2);
      const bytes = pool.subarray(offset, offset + size);
      offset += size;
      return sql`(${id}, ${file.name}, ${file.contentType}, ${file.width}, ${Math.round((file.width * 3) / 4)}, ${bytes})`;
    });
    await db.execute(
      sql`insert into media_files (media_id, name, content_type, width, height, bytes) values ${sql.join(rows, sql`, `)}`,
    );
  }
  await queryRows(db, sql`analyze`);
  progress(`backup: ${label}: ${PICTURES} pictures stored; seeded in ${round((performance.now() - started) / 1000)} s`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

type Sample = { at: number; ms: number; status: string };
type PageWaits = { p95: number; max: number; requests: number; notOk: string };

/** The p95 and longest wait of the samples, and how many answered other than 200, by status. */
function summarise(samples: Sample[]): PageWaits {
  const latencies = samples.filter((sample) => sample.status !== "no answer").map((sample) => sample.ms);
  latencies.sort((a, b) => a - b);
  const notOk = new Map<string, number>();
  for (const { status } of samples) if (status !== "200") notOk.set(status, (notOk.get(status) ?? 0) + 1);
  return {
    p95: round(percentile(latencies, 95)),
    max: round(latencies.at(-1) ?? 0),
    requests: samples.length,
    notOk: [...notOk].map(([status, count]) => `${count} × ${status}`).join(", ") || "none",
  };
}

/**
 * Requests `url` every REQUEST_EVERY_MS, each without waiting for the one before, until stopped:
 * every request's start (epoch ms), its time to the answer's end and its status.
 */
function poll(url: string) {
  const samples: Sample[] = [];
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const at = Date.now();
    const started = performance.now();
    const request: Promise<void> = fetch(url)
      .then(async (response) => {
        await response.arrayBuffer();
        samples.push({ at, ms: performance.now() - started, status: String(response.status) });
      })
      .catch(() => {
        samples.push({ at, ms: performance.now() - started, status: "no answer" });
      })
      .finally(() => pending.delete(request));
    pending.add(request);
  }, REQUEST_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await Promise.all(pending);
    return samples;
  };
}

/** A figure of /proc/<pid>/status (VmRSS, VmHWM) in MB. */
async function procStatusMb(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return round(kb / 1024);
}

/** The epoch ms of the first line of the site's JSON log whose msg is `msg`, once it is there. */
async function waitForLogLine(logFile: string, msg: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = await readFile(logFile, "utf8").catch(() => "");
    for (const line of text.split("\n")) {
      if (!line.includes(msg)) continue;
      try {
        const entry = JSON.parse(line) as { msg?: string; time?: number };
        if (entry.msg === msg && typeof entry.time === "number") return entry.time;
      } catch {
        // A line cut as it is written: read again.
      }
    }
    await sleep(500);
  }
  throw new Error(`the site did not log "${msg}" within ${timeoutMs / 1000} s (${logFile})`);
}

async function databaseBytes(db: Database): Promise<number> {
  const [row] = await queryRows<{ bytes: number | string }>(
    db,
    sql`select pg_database_size(current_database()) as bytes`,
  );
  return Number(row?.bytes ?? 0);
}

export const backupSection = defineSection<BackupBenchResult>({
  name: "backup",
  description: `npm run backup and npm run restore of ${ARTICLES} articles, ${PICTURES} pictures and ${ENQUIRIES} enquiries (time, size, peak memory; embedded and PostgreSQL), and a running embedded site's wait during a backup`,
  usesWrk: false,
  async run(settings, progress) {
    const result: BackupBenchResult = { seeded: [], backups: [], restores: [], whileRunning: [] };
    const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-backup-"));
    try {
      // The embedded database, seeded in this process, then closed.
      const dataDir = path.join(scratch, "data");
      const seedStarted = performance.now();
      const embedded = await openDatabase({ dataDir });
      try {
        await applyMigrations(embedded.db);
        await seed(embedded.db, progress, "embedded");
        result.seeded.push({
          database: "embedded",
          seconds: round((performance.now() - seedStarted) / 1000),
          databaseMb: megabytes(await databaseBytes(embedded.db)),
        });
      } finally {
        await embedded.close();
      }

      // The backup with no site running: the command opens the files.
      const backupDir = path.join(scratch, "backups");
      const offline = await timed("scripts/backup.ts", ["--out", path.join(backupDir, "embedded")], {
        DATA_DIR: dataDir,
        BACKUP_DIR: backupDir,
      });
      const embeddedArchive = archiveOf(offline);
      result.backups.push({
        database: "embedded (no site running)",
        seconds: offline.seconds,
        archiveMb: megabytes((await stat(embeddedArchive)).size),
        peakRssMb: offline.peakRssMb,
      });
      progress(`backup: embedded: ${JSON.stringify(result.backups.at(-1))}`);

      // Its restore into a fresh embedded database.
      const restored = await timed("scripts/restore.ts", [embeddedArchive], {
        DATA_DIR: path.join(scratch, "restored"),
        BACKUP_DIR: backupDir,
      });
      result.restores.push({
        into: "a fresh embedded database",
        seconds: restored.seconds,
        peakRssMb: restored.peakRssMb,
      });
      progress(`backup: restore into embedded: ${JSON.stringify(result.restores.at(-1))}\n${restored.output.trim()}`);
      await rm(path.join(scratch, "restored"), { recursive: true, force: true });

      // The site running on the same database: its pages' waits while `npm run backup` has it make a
      // backup (from a copy of its database's files), then while that backup's drill runs.
      const pathnames = ["/about", "/readyz"];
      const pagesOf = (baselines: Sample[][], during: Sample[][], from: number, to: number) =>
        pathnames.map((pathname, index) => {
          const baseline = summarise(baselines[index]!);
          return {
            pathname,
            baselineP95: baseline.p95,
            baselineMax: baseline.max,
            baselineNotOk: baseline.notOk,
            ...summarise(during[index]!.filter((sample) => sample.at >= from && sample.at < to)),
          };
        });
      const site = await startSite({
        logLevel: settings.logLevel,
        dataDir,
        // Info: the site's log says when the backup's restore drill ends.
        env: { BACKUP_SCHEDULE: "false", LOG_LEVEL: "info" },
      });
      try {
        const baselineStops = pathnames.map((pathname) => poll(`${site.base}${pathname}`));
        await sleep(BASELINE_MS);
        const baselines = await Promise.all(baselineStops.map((stop) => stop()));
        const stops = pathnames.map((pathname) => poll(`${site.base}${pathname}`));
        await sleep(500);
        const rssBefore = await procStatusMb(site.pid, "VmRSS");
        const from = Date.now();
        const during = await timed("scripts/backup.ts", ["--out", path.join(backupDir, "running")], {
          DATA_DIR: dataDir,
          BACKUP_DIR: backupDir,
        });
        const made = Date.now();
        const peakAfterBackup = await procStatusMb(site.pid, "VmHWM");
        const drilled = await waitForLogLine(site.logFile, "the backup's restore drill passed", 900_000);
        await sleep(500);
        const samples = await Promise.all(stops.map((stop) => stop()));
        result.whileRunning.push(
          {
            how: "npm run backup: the site makes it, from a copy of its files",
            seconds: during.seconds,
            siteRssMb: { before: rssBefore, peak: peakAfterBackup },
            pages: pagesOf(baselines, samples, from, made),
          },
          {
            how: "that backup's restore drill, in a child process of the site",
            seconds: round((drilled - made) / 1000),
            siteRssMb: { before: rssBefore, peak: await procStatusMb(site.pid, "VmHWM") },
            pages: pagesOf(baselines, samples, made, drilled),
          },
        );
        result.backups.push({
          database: "embedded (site running: the site makes it)",
          seconds: during.seconds,
          archiveMb: megabytes((await stat(archiveOf(during))).size),
          peakRssMb: during.peakRssMb,
        });
        progress(`backup: while the site runs: ${JSON.stringify(result.whileRunning)}`);
      } finally {
        await site.stop();
      }
      await rm(dataDir, { recursive: true, force: true });

      if (settings.postgresUrl && (await postgresAnswers(settings.postgresUrl))) {
        const source = await createScratchDatabase(settings.postgresUrl);
        const restoreName = `bench_restore_${randomBytes(4).toString("hex")}`;
        const restoreUrl = new URL(settings.postgresUrl);
        restoreUrl.pathname = `/${restoreName}`;
        const admin = async (statement: string) => {
          const client = new pg.Client({ connectionString: settings.postgresUrl });
          await client.connect();
          try {
            await client.query(statement);
          } finally {
            await client.end();
          }
        };
        try {
          // Seeded through one client without the site's 15 s statement timeout (the enquiries' insert
          // with its trigram index takes longer on a busy machine).
          const pgSeedStarted = performance.now();
          const client = new pg.Client({ connectionString: source.url });
          await client.connect();
          try {
            const db = drizzlePg({ client }) as unknown as Database;
            await applyMigrations(db);
            await seed(db, progress, "postgres");
            result.seeded.push({
              database: "postgres",
              seconds: round((performance.now() - pgSeedStarted) / 1000),
              databaseMb: megabytes(await databaseBytes(db)),
            });
          } finally {
            await client.end();
          }
          const backup = await timed("scripts/backup.ts", ["--out", path.join(backupDir, "postgres")], {
            DATABASE_URL: source.url,
            BACKUP_DIR: backupDir,
          });
          const pgArchive = archiveOf(backup);
          result.backups.push({
            database: "postgres",
            seconds: backup.seconds,
            archiveMb: megabytes((await stat(pgArchive)).size),
            peakRssMb: backup.peakRssMb,
          });
          progress(`backup: postgres: ${JSON.stringify(result.backups.at(-1))}`);
          await admin(`create database ${restoreName}`);
          const restore = await timed("scripts/restore.ts", [pgArchive], {
            DATABASE_URL: restoreUrl.toString(),
            BACKUP_DIR: backupDir,
          });
          result.restores.push({
            into: "a fresh PostgreSQL database",
            seconds: restore.seconds,
            peakRssMb: restore.peakRssMb,
          });
          progress(
            `backup: restore into postgres: ${JSON.stringify(result.restores.at(-1))}\n${restore.output.trim()}`,
          );
        } finally {
          await admin(`drop database if exists ${restoreName} with (force)`);
          await source.drop();
        }
      } else {
        progress("backup: no PostgreSQL server answers at BENCH_POSTGRES_URL: measured on the embedded database only");
      }
      return result;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
  format(result) {
    const lines = [
      `Backup and restore of ${ARTICLES} articles, ${PICTURES} pictures (${LADDER.length} files each) and ${ENQUIRIES} enquiries (peak memory: GNU time's maximum resident set of the node process)`,
      table(
        ["seeded", "seconds", "database MB"],
        result.seeded.map((row) => [row.database, row.seconds, row.databaseMb]),
      ),
      table(
        ["npm run backup", "seconds", "archive MB", "peak RSS MB"],
        result.backups.map((row) => [row.database, row.seconds, row.archiveMb, row.peakRssMb]),
      ),
      table(
        ["npm run restore into", "seconds", "peak RSS MB"],
        result.restores.map((row) => [row.into, row.seconds, row.peakRssMb]),
      ),
    ];
    if (result.whileRunning.length > 0)
      lines.push(
        `A running embedded site, each page requested every ${REQUEST_EVERY_MS} ms: before, and during each of these (ms)`,
        table(
          [
            "during",
            "seconds",
            "site RSS MB before",
            "site peak RSS MB",
            "page",
            "before p95",
            "before max",
            "not 200 before",
            "during p95",
            "during max",
            "requests during",
            "not 200 during",
          ],
          result.whileRunning.flatMap((run) =>
            run.pages.map((page) => [
              run.how,
              run.seconds,
              run.siteRssMb.before,
              run.siteRssMb.peak,
              page.pathname,
              page.baselineP95,
              page.baselineMax,
              page.baselineNotOk,
              page.p95,
              page.max,
              page.requests,
              page.notOk,
            ]),
          ),
        ),
      );
    return lines.join("\n");
  },
});
