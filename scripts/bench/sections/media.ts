import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { createSession } from "../../../src/server/admin/door/sessions.ts";
import { inviteStaff } from "../../../src/server/admin/staff/staff-repository.ts";
import { type Database, openDatabase } from "../../../src/server/db/client.ts";
import { applyMigrations } from "../../../src/server/db/migrate.ts";
import { syntheticPhoto } from "../../../src/server/media/media-bench.ts";
import {
  createScratchDatabase,
  postgresAnswers,
  residentBytes,
  type SiteProcess,
  sleep,
  startSite,
} from "../processes.ts";
import { table } from "../report.ts";
import { defineSection } from "../section.ts";

// The media library (docs/performance.md, "Media library"), against one production instance on
// the embedded database and one over PostgreSQL (when one answers at BENCH_POSTGRES_URL), through
// its HTTP routes as the back office's uploader sends them:
// - Upload to ready: a 12-megapixel camera-like JPEG posted to /admin/api/media; timed from the
//   request to the answer, which comes once the kept original and every width in AVIF, WebP and
//   JPEG are stored. UPLOAD_RUNS different photos.
// - Ten at once: ten different 12-megapixel JPEGs posted together; the server process's resident
//   memory (VmRSS of /proc/<pid>/status) sampled every SAMPLE_MS, and its peak against the target
//   (under 1 GB on either database: docs/decisions/047-a-memory-budget-for-making-pictures.md).
// - An article page's picture bytes at 375 px (on the embedded database's instance): Chromium
//   (DPR 2, as a phone) opens an article, scrolls to the end so every lazy picture loads, and the
//   bodies of the picture responses are summed. The first visit makes the variants it asks for
//   (decision 040), so the page is loaded once before it is measured.

const MEGAPIXELS = 12;
const UPLOAD_RUNS = 3;
const AT_ONCE = 10;
const SAMPLE_MS = 50;
const PEAK_TARGET_MB = 1024;
const ARTICLE = "/blog/arc-flash-studies-ieee-1584-2018";

type Summary = { p50: number; max: number; runs: number };

export type MediaRun = {
  database: string;
  uploadToReady: Summary;
  atOnce: {
    pictures: number;
    ms: number;
    startRssMb: number;
    idleRssMb: number;
    peakRssMb: number;
    afterRssMb: number;
    ready: number;
    refused: string[];
  };
};

export type MediaResult = {
  photoBytes: number;
  runs: MediaRun[];
  articleImages: { path: string; responses: number; bytes: number; widest: string } | null;
};

const round = (value: number) => Math.round(value * 10) / 10;
const megabytes = (bytes: number) => round(bytes / 2 ** 20);

async function signedInAdmin(db: Database): Promise<string> {
  const now = new Date();
  const { member } = await inviteStaff(db, { email: "bench@example.com", name: "Bench", role: "admin" }, now);
  return `staff_session=${await createSession(db, member.id, { method: "passkey", device: "bench", now })}`;
}

/** One picture posted as the uploader posts it; the answer's status (0: no answer) and how long it took. */
async function upload(site: SiteProcess, cookie: string, bytes: Buffer, name: string) {
  const body = new FormData();
  body.append("file", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), name);
  const started = performance.now();
  try {
    const response = await fetch(`${site.base}/admin/api/media`, {
      method: "POST",
      headers: { cookie, origin: site.base, accept: "application/json" },
      body,
    });
    const answer = (await response.json()) as { key?: string; message?: string };
    return { status: response.status, ms: performance.now() - started, message: answer.message ?? "" };
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    return { status: 0, ms: performance.now() - started, message: `no answer: ${cause?.message ?? String(error)}` };
  }
}

/** The site on a database of its own: three uploads in turn, then ten at once; the article's pictures when asked. */
async function measure(
  database: string,
  start: () => Promise<{ site: SiteProcess; cookie: string }>,
  photos: Buffer[],
  progress: (line: string) => void,
  withArticle: boolean,
): Promise<{ run: MediaRun; articleImages: MediaResult["articleImages"] }> {
  const { site, cookie } = await start();
  try {
    const startRss = residentBytes(site.pid);
    const samples: number[] = [];
    for (let run = 0; run < UPLOAD_RUNS; run += 1) {
      const result = await upload(site, cookie, photos[run]!, `photo-${run}.jpg`);
      if (result.status !== 201)
        throw new Error(`${database}: the upload answered ${result.status}: ${result.message}`);
      samples.push(result.ms);
      progress(`media: ${database}: ${MEGAPIXELS} MP upload ready after ${round(result.ms)} ms`);
    }
    samples.sort((a, b) => a - b);

    await sleep(1000);
    const idle = residentBytes(site.pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentBytes(site.pid));
    }, SAMPLE_MS);
    const started = performance.now();
    let outcomes: { status: number; message: string }[];
    try {
      outcomes = await Promise.all(
        photos.slice(UPLOAD_RUNS).map((bytes, index) => upload(site, cookie, bytes, `at-once-${index}.jpg`)),
      );
    } finally {
      clearInterval(sampler);
    }
    const atOnceMs = performance.now() - started;
    peak = Math.max(peak, residentBytes(site.pid));
    await sleep(1000);
    const after = residentBytes(site.pid);
    const ready = outcomes.filter((outcome) => outcome.status === 201).length;
    const refused = outcomes
      .filter((outcome) => outcome.status !== 201)
      .map((outcome) => `${outcome.status} ${outcome.message}`);
    progress(
      `media: ${database}: ${AT_ONCE} at once: ${ready} ready in ${round(atOnceMs)} ms, peak RSS ${megabytes(peak)} MB${refused.length ? `; not ready: ${refused.join(" | ")}` : ""}`,
    );

    const articleImages = withArticle ? await articleImageBytes(site) : null;
    if (articleImages) progress(`media: ${ARTICLE} at 375 px loads ${articleImages.bytes} bytes of pictures`);
    return {
      run: {
        database,
        uploadToReady: {
          p50: round(samples[Math.floor((samples.length - 1) / 2)]!),
          max: round(samples.at(-1)!),
          runs: samples.length,
        },
        atOnce: {
          pictures: AT_ONCE,
          ms: round(atOnceMs),
          startRssMb: megabytes(startRss),
          idleRssMb: megabytes(idle),
          peakRssMb: megabytes(peak),
          afterRssMb: megabytes(after),
          ready,
          refused,
        },
      },
      articleImages,
    };
  } finally {
    await site.stop();
  }
}

async function articleImageBytes(site: SiteProcess): Promise<MediaResult["articleImages"]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const visit = async () => {
      const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });
      const page = await context.newPage();
      const images: { url: string; bytes: number }[] = [];
      page.on("response", (response) => {
        if (response.request().resourceType() !== "image") return;
        images.push({ url: new URL(response.url()).pathname, bytes: 0 });
        const entry = images.at(-1)!;
        void response.body().then(
          (body) => (entry.bytes = body.length),
          () => {},
        );
      });
      await page.goto(`${site.base}${ARTICLE}`, { waitUntil: "load" });
      for (let y = 0; y < 40; y += 1) {
        const done = await page.evaluate(() => {
          window.scrollBy(0, window.innerHeight);
          return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight;
        });
        await sleep(100);
        if (done) break;
      }
      await page.waitForLoadState("networkidle");
      await sleep(300);
      await context.close();
      return images;
    };
    await visit();
    const images = await visit();
    const widest = images.reduce((best, image) => (image.bytes > best.bytes ? image : best), { url: "-", bytes: 0 });
    return {
      path: ARTICLE,
      responses: images.length,
      bytes: images.reduce((sum, image) => sum + image.bytes, 0),
      widest: `${widest.url} (${widest.bytes} bytes)`,
    };
  } finally {
    await browser.close();
  }
}

export const mediaSection = defineSection<MediaResult>({
  name: "media",
  description: `the media library: a ${MEGAPIXELS}-megapixel JPEG from upload to ready, the peak memory while ${AT_ONCE} arrive at once (embedded and PostgreSQL), an article's picture bytes at 375 px`,
  usesWrk: false,
  async run(settings, progress) {
    const photos = await Promise.all(
      Array.from({ length: UPLOAD_RUNS + AT_ONCE }, (_, index) => syntheticPhoto(MEGAPIXELS, index + 1)),
    );
    progress(`media: ${photos.length} photos of ${MEGAPIXELS} MP made (${photos[0]!.length} bytes each, about)`);
    const runs: MediaRun[] = [];

    // The embedded database, whose memory is part of the process's.
    const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-media-"));
    let articleImages: MediaResult["articleImages"];
    try {
      const dataDir = path.join(scratch, "data");
      const embedded = await measure(
        "embedded (PGlite, in the process)",
        async () => {
          const handle = await openDatabase({ dataDir });
          let cookie: string;
          try {
            await applyMigrations(handle.db);
            cookie = await signedInAdmin(handle.db);
          } finally {
            await handle.close();
          }
          return { site: await startSite({ logLevel: settings.logLevel, dataDir }), cookie };
        },
        photos,
        progress,
        true,
      );
      runs.push(embedded.run);
      articleImages = embedded.articleImages;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }

    // PostgreSQL, as the firm runs the site: the server's memory is then the site's alone.
    if (settings.postgresUrl && (await postgresAnswers(settings.postgresUrl))) {
      const database = await createScratchDatabase(settings.postgresUrl);
      try {
        const server = await measure(
          "PostgreSQL",
          async () => {
            const handle = await openDatabase({ databaseUrl: database.url, dataDir: "unused" });
            let cookie: string;
            try {
              await applyMigrations(handle.db);
              cookie = await signedInAdmin(handle.db);
            } finally {
              await handle.close();
            }
            return { site: await startSite({ logLevel: settings.logLevel, databaseUrl: database.url }), cookie };
          },
          photos,
          progress,
          false,
        );
        runs.push(server.run);
      } finally {
        await database.drop();
      }
    }
    return { photoBytes: photos[0]!.length, runs, articleImages };
  },
  format(result) {
    return [
      `Media library: one production instance per database (${MEGAPIXELS} MP JPEGs of ${result.photoBytes} bytes)`,
      table(
        ["upload to ready (original + every width in AVIF, WebP, JPEG), ms", "p50", "max", "runs"],
        result.runs.map((run) => [run.database, run.uploadToReady.p50, run.uploadToReady.max, run.uploadToReady.runs]),
      ),
      table(
        [
          `${AT_ONCE} uploads at once`,
          "ready",
          "not ready",
          "all answered after (ms)",
          "RSS at start (MB)",
          "RSS before (MB)",
          "peak RSS (MB)",
          "RSS after (MB)",
          `peak under ${PEAK_TARGET_MB} MB`,
        ],
        result.runs.map((run) => [
          run.database,
          run.atOnce.ready,
          run.atOnce.refused.length,
          run.atOnce.ms,
          run.atOnce.startRssMb,
          run.atOnce.idleRssMb,
          run.atOnce.peakRssMb,
          run.atOnce.afterRssMb,
          run.atOnce.peakRssMb < PEAK_TARGET_MB ? "yes" : "NO",
        ]),
      ),
      ...(result.runs.some((run) => run.atOnce.refused.length)
        ? [
            result.runs
              .flatMap((run) => run.atOnce.refused.map((refusal) => `${run.database}: not ready: ${refusal}`))
              .join("\n"),
          ]
        : []),
      ...(result.articleImages
        ? [
            table(
              ["article page at 375 px, DPR 2", "picture responses", "picture bytes", "largest"],
              [
                [
                  result.articleImages.path,
                  result.articleImages.responses,
                  result.articleImages.bytes,
                  result.articleImages.widest,
                ],
              ],
            ),
          ]
        : []),
    ].join("\n\n");
  },
});
