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

// The media library (docs/performance.md, "Media library"), against one production instance on its
// embedded database, through its HTTP routes as the back office's uploader sends them:
// - Upload to ready: a 12-megapixel camera-like JPEG posted to /admin/api/media; timed from the
//   request to the answer, which comes once the kept original and every width in AVIF, WebP and
//   JPEG are stored. UPLOAD_RUNS different photos.
// - Ten at once: ten different 12-megapixel JPEGs posted together; the server process's resident
//   memory (VmRSS of /proc/<pid>/status) sampled every SAMPLE_MS, its peak above the idle level.
// - An article page's picture bytes at 375 px: Chromium (DPR 2, as a phone) opens an article,
//   scrolls to the end so every lazy picture loads, and the bodies of the picture responses are
//   summed. The first visit makes the variants it asks for (decision 040), so the page is loaded
//   once before it is measured.

const MEGAPIXELS = 12;
const UPLOAD_RUNS = 3;
const AT_ONCE = 10;
const SAMPLE_MS = 50;
const ARTICLE = "/blog/arc-flash-studies-ieee-1584-2018";

type Summary = { p50: number; max: number; runs: number };

export type MediaResult = {
  database: string;
  photoBytes: number;
  uploadToReady: Summary;
  atOnce: { pictures: number; ms: number; idleRssMb: number; peakRssMb: number; ready: number; refused: number };
  articleImages: { path: string; responses: number; bytes: number; widest: string };
};

const round = (value: number) => Math.round(value * 10) / 10;

async function signedInAdmin(db: Database): Promise<string> {
  const now = new Date();
  const { member } = await inviteStaff(db, { email: "bench@example.com", name: "Bench", role: "admin" }, now);
  return `staff_session=${await createSession(db, member.id, { method: "passkey", device: "bench", now })}`;
}

/** One picture posted as the uploader posts it; the answer's status and how long it took. */
async function upload(site: SiteProcess, cookie: string, bytes: Buffer, name: string) {
  const body = new FormData();
  body.append("file", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), name);
  const started = performance.now();
  const response = await fetch(`${site.base}/admin/api/media`, {
    method: "POST",
    headers: { cookie, origin: site.base, accept: "application/json" },
    body,
  });
  const answer = (await response.json()) as { key?: string; message?: string };
  return { status: response.status, ms: performance.now() - started, answer };
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
  description: `the media library: a ${MEGAPIXELS}-megapixel JPEG from upload to ready, memory while ${AT_ONCE} arrive at once, an article's picture bytes at 375 px`,
  usesWrk: false,
  async run(settings, progress) {
    // Over PostgreSQL when one answers (as the firm runs the site: the server's memory is then the
    // site's alone), else on the embedded database, whose memory is part of the process's.
    const server = settings.postgresUrl && (await postgresAnswers(settings.postgresUrl));
    const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-media-"));
    const dataDir = path.join(scratch, "data");
    const database = server ? await createScratchDatabase(settings.postgresUrl) : undefined;
    try {
      const handle = await openDatabase(database ? { databaseUrl: database.url, dataDir: "unused" } : { dataDir });
      let cookie: string;
      try {
        await applyMigrations(handle.db);
        cookie = await signedInAdmin(handle.db);
      } finally {
        await handle.close();
      }
      const site = await startSite(
        database
          ? { logLevel: settings.logLevel, databaseUrl: database.url }
          : { logLevel: settings.logLevel, dataDir },
      );
      try {
        const photos = await Promise.all(
          Array.from({ length: UPLOAD_RUNS + AT_ONCE }, (_, index) => syntheticPhoto(MEGAPIXELS, index + 1)),
        );
        progress(`media: ${photos.length} photos of ${MEGAPIXELS} MP made (${photos[0]!.length} bytes each, about)`);

        const samples: number[] = [];
        for (let run = 0; run < UPLOAD_RUNS; run += 1) {
          const result = await upload(site, cookie, photos[run]!, `photo-${run}.jpg`);
          if (result.status !== 201) throw new Error(`the upload answered ${result.status}: ${result.answer.message}`);
          samples.push(result.ms);
          progress(`media: ${MEGAPIXELS} MP upload ready after ${round(result.ms)} ms`);
        }
        samples.sort((a, b) => a - b);

        await sleep(1000);
        const idle = residentBytes(site.pid);
        let peak = idle;
        const sampler = setInterval(() => {
          peak = Math.max(peak, residentBytes(site.pid));
        }, SAMPLE_MS);
        const started = performance.now();
        let outcomes: { status: number }[];
        try {
          outcomes = await Promise.all(
            photos.slice(UPLOAD_RUNS).map((bytes, index) => upload(site, cookie, bytes, `at-once-${index}.jpg`)),
          );
        } finally {
          clearInterval(sampler);
        }
        const atOnceMs = performance.now() - started;
        const ready = outcomes.filter((outcome) => outcome.status === 201).length;
        progress(
          `media: ${AT_ONCE} at once: ${ready} ready in ${round(atOnceMs)} ms, peak RSS ${round(peak / 2 ** 20)} MB`,
        );

        const articleImages = await articleImageBytes(site);
        progress(`media: ${ARTICLE} at 375 px loads ${articleImages.bytes} bytes of pictures`);
        return {
          database: database ? "PostgreSQL" : "embedded (PGlite, in the process)",
          photoBytes: photos[0]!.length,
          uploadToReady: {
            p50: round(samples[Math.floor((samples.length - 1) / 2)]!),
            max: round(samples.at(-1)!),
            runs: samples.length,
          },
          atOnce: {
            pictures: AT_ONCE,
            ms: round(atOnceMs),
            idleRssMb: round(idle / 2 ** 20),
            peakRssMb: round(peak / 2 ** 20),
            ready,
            refused: outcomes.length - ready,
          },
          articleImages,
        };
      } finally {
        await site.stop();
      }
    } finally {
      await database?.drop();
      await rm(scratch, { recursive: true, force: true });
    }
  },
  format(result) {
    return [
      `Media library: one production instance, database ${result.database} (${MEGAPIXELS} MP JPEGs of ${result.photoBytes} bytes)`,
      table(
        ["measured", "p50", "max", "runs"],
        [
          [
            `upload to ready (original + every width in AVIF, WebP, JPEG)`,
            result.uploadToReady.p50,
            result.uploadToReady.max,
            result.uploadToReady.runs,
          ],
        ],
      ),
      table(
        ["uploads at once", "ready", "refused", "all ready after (ms)", "idle RSS (MB)", "peak RSS (MB)"],
        [
          [
            result.atOnce.pictures,
            result.atOnce.ready,
            result.atOnce.refused,
            result.atOnce.ms,
            result.atOnce.idleRssMb,
            result.atOnce.peakRssMb,
          ],
        ],
      ),
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
    ].join("\n\n");
  },
});
