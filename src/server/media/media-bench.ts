import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import type { Database } from "../db/client.ts";
import { mediaFiles } from "../db/schema.ts";
import { MEDIA_UPLOADS_WAITING, mediaProcessing, storedBytes, uploadPicture } from "./media-store.ts";
import { ProcessingBusy } from "./processing-queue.ts";

// What the bench measures of the media library (docs/performance.md): the time from an upload to
// "ready" (kept original and every variant stored) for a photo of a given size, and the memory of
// the process while ten uploads arrive at once. The bench calls these against a migrated database.

/**
 * A photo-like JPEG of about `megapixels` (4:3; smooth gradients and grain, so it compresses and
 * decodes as a camera's photo does, not as a flat colour). `seed` makes different photos.
 */
export async function syntheticPhoto(megapixels: number, seed = 1): Promise<Buffer> {
  const width = Math.round(Math.sqrt((megapixels * 1_000_000 * 4) / 3));
  const height = Math.round((width * 3) / 4);
  const raw = Buffer.alloc(width * height * 3);
  let state = seed >>> 0 || 1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      state = (state * 1103515245 + 12345) >>> 0;
      const grain = (state >>> 24) % 24;
      raw[at] = ((x * 255) / width + grain + seed) & 255;
      raw[at + 1] = ((y * 255) / height + Math.sin(x / 50) * 40 + grain) & 255;
      raw[at + 2] = (128 + Math.cos(y / 70) * 60 + grain) & 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

const actor = { id: null, label: "bench" };

/** One upload, from its bytes to stored with every variant: how long it took and what it stored. */
export async function timeUploadToReady(
  db: Database,
  bytes: Buffer,
  fileName = "bench.jpg",
): Promise<{ ms: number; files: number; storedBytes: number; existing: boolean }> {
  const started = performance.now();
  const outcome = await uploadPicture(db, mediaProcessing.enter(MEDIA_UPLOADS_WAITING), {
    bytes,
    fileName,
    createdBy: actor,
  });
  const ms = performance.now() - started;
  const stored = (await storedBytes(db, [outcome.id])).get(outcome.id) ?? 0;
  const [row] = await db.select({ n: count() }).from(mediaFiles).where(eq(mediaFiles.mediaId, outcome.id));
  const files = row!.n;
  return { ms, files, storedBytes: stored, existing: outcome.existing };
}

/**
 * Uploads arriving at once (each takes its place in line as the route does, so beyond the line's
 * bound one is refused as the route would refuse it): the process's resident memory sampled every
 * 20 ms throughout, its peak above the baseline, and how long until the last was ready.
 */
export async function uploadsAtOnce(
  db: Database,
  photos: Buffer[],
): Promise<{ ms: number; baselineRss: number; peakRss: number; ready: number; refused: number }> {
  const baselineRss = process.memoryUsage().rss;
  let peakRss = baselineRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  let refused = 0;
  try {
    const results = await Promise.all(
      photos.map(async (bytes, index) => {
        try {
          const place = mediaProcessing.enter(MEDIA_UPLOADS_WAITING);
          await uploadPicture(db, place, { bytes, fileName: `bench-${index}.jpg`, createdBy: actor });
          return true;
        } catch (error) {
          if (!(error instanceof ProcessingBusy)) throw error;
          refused += 1;
          return false;
        }
      }),
    );
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    return {
      ms: performance.now() - started,
      baselineRss,
      peakRss,
      ready: results.filter(Boolean).length,
      refused,
    };
  } finally {
    clearInterval(sampler);
  }
}
