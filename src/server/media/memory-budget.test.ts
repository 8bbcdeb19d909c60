import { count, eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { variantWidths } from "#shared/media.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { parseConfig } from "../config.ts";
import { media, mediaFiles } from "../db/schema.ts";
import { startSite } from "../site.ts";
import { syntheticPhoto } from "./media-bench.ts";
import {
  findMediaByKey,
  MEDIA_MEMORY_BUDGET,
  MEDIA_UPLOADS_WAITING,
  makeMissingVariant,
  mediaProcessing,
  uploadPicture,
} from "./media-store.ts";
import { inspectPicture, type InspectedPicture, pictureWeight, variantWeight } from "./pipeline.ts";
import { type Admission, ProcessingQueue } from "./processing-queue.ts";

// The memory budget of making pictures (docs/decisions/047-a-memory-budget-for-making-pictures.md),
// with the real sharp, real pictures and the real store: uploads sent together are weighed from
// their headers and admitted together only while their weights fit the budget (watched through
// the line's admissions, not timed); a picture heavier than the whole budget is made alone, and
// every answer is still the whole picture. The line's own rules with jobs the test settles:
// processing-queue.test.ts. What twelve-megapixel photos cost the server's memory: `npm run bench
// -- --only media` (docs/performance.md).

const weightOf = async (bytes: Buffer) => pictureWeight(await inspectPicture(bytes, "x"));
const MB = 1024 * 1024;

describe("what a picture weighs", () => {
  const photo = (overrides: Partial<InspectedPicture> = {}): InspectedPicture => ({
    format: "jpeg",
    width: 4000,
    height: 3000,
    channels: 3,
    progressive: false,
    quarterTurn: false,
    ...overrides,
  });

  it("lets two 12-megapixel photos be made at once over PostgreSQL, one on the embedded database", () => {
    const weight = pictureWeight(photo());
    expect(Math.floor(MEDIA_MEMORY_BUDGET.postgres / weight)).toBe(2);
    expect(Math.floor(MEDIA_MEMORY_BUDGET.pglite / weight)).toBe(1);
  });

  it("weighs by pixels and by what decoding them takes, not by the file's bytes", () => {
    // The review's 40-megapixel progressive JPEG of 596 KB took 575 MB to make.
    const progressive40 = pictureWeight(photo({ width: 7300, height: 5479, progressive: true }));
    expect(progressive40).toBeGreaterThan(540 * MB);
    expect(progressive40).toBeGreaterThan(pictureWeight(photo({ width: 7300, height: 5479 })));
    expect(pictureWeight(photo({ quarterTurn: true }))).toBeGreaterThan(pictureWeight(photo()));
    expect(pictureWeight(photo({ format: "avif" }))).toBeGreaterThan(pictureWeight(photo({ format: "webp" })));
    expect(pictureWeight(photo({ format: "png", channels: 4 }))).toBeGreaterThan(
      pictureWeight(photo({ format: "png" })),
    );
    // A tall picture's widest variant is all of it.
    expect(pictureWeight(photo({ width: 800, height: 16_000 }))).toBeGreaterThan(pictureWeight(photo()));
    // One variant weighs less than the whole ladder, and more when it is wider.
    const row = { format: "jpeg" as const, width: 4000, height: 3000 };
    expect(variantWeight(row, 1600)).toBeGreaterThan(variantWeight(row, 320));
    expect(variantWeight(row, 1600)).toBeLessThan(pictureWeight(photo()));
  });
});

describe.each(testDrivers)("the memory budget on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
  });
  afterAll(async () => {
    await database.drop();
  });

  const stored = async (ids: string[]) => {
    const rows = await database.db
      .select({ id: media.id, width: media.width })
      .from(media)
      .where(inArray(media.id, ids));
    const files = new Map<string, number>();
    for (const row of rows) {
      const [found] = await database.db.select({ n: count() }).from(mediaFiles).where(eq(mediaFiles.mediaId, row.id));
      files.set(row.id, found!.n);
    }
    return { rows, files };
  };

  it("admits uploads sent together only while their weights fit, makes a heavier one alone, and stores every one whole", async () => {
    const small = await Promise.all(
      Array.from({ length: 5 }, (_, index) => syntheticPhoto(0.2, driver.length * 10 + index)),
    );
    const heavy = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#3a6f8f" } })
      .jpeg({ progressive: true })
      .toBuffer();
    const smallWeights = await Promise.all(small.map(weightOf));
    const heavyWeight = await weightOf(heavy);
    // Room for two of the small ones at a time; the heavy one outweighs the whole budget.
    const budget = Math.max(...smallWeights) * 2.5;
    expect(heavyWeight).toBeGreaterThan(budget);

    const queue = new ProcessingQueue(budget);
    const admissions: Admission[] = [];
    queue.watch((admission) => admissions.push(admission));
    const uploads = [small[0]!, small[1]!, heavy, ...small.slice(2)];
    const outcomes = await Promise.all(
      uploads.map((bytes, index) =>
        uploadPicture(database.db, queue.enter(MEDIA_UPLOADS_WAITING), {
          bytes,
          fileName: `together-${index}.jpg`,
          createdBy: { id: null, label: "test" },
        }),
      ),
    );

    expect(admissions).toHaveLength(uploads.length);
    for (const admission of admissions)
      expect(admission.running === 1 || admission.admitted <= budget, JSON.stringify(admission)).toBe(true);
    expect(admissions.filter((admission) => admission.weight === heavyWeight)).toEqual([
      { weight: heavyWeight, admitted: heavyWeight, running: 1 },
    ]);
    expect(queue.counts()).toEqual({ running: 0, waiting: 0 });
    expect(queue.admittedWeight()).toBe(0);

    expect(outcomes.filter((outcome) => !outcome.existing)).toHaveLength(uploads.length);
    const { rows, files } = await stored(outcomes.map((outcome) => outcome.id));
    expect(rows.map((row) => row.width).sort((a, b) => a - b)).toEqual([516, 516, 516, 516, 516, 3000]);
    // The kept original and each width of its ladder in AVIF, WebP and JPEG.
    for (const row of rows) expect(files.get(row.id), row.id).toBe(1 + variantWidths(row.width).length * 3);
  });

  it("weighs the site's uploads and missing variants in the process's line, with the budget of its database", async () => {
    const site = await startSite({
      config: parseConfig({ NODE_ENV: "test", DATA_DIR: "memory://" }),
      database: { ...database, close: async () => {} },
      syncContent: false,
    });
    try {
      expect(mediaProcessing.budgetBytes()).toBe(MEDIA_MEMORY_BUDGET[driver]);
      const admissions: Admission[] = [];
      const stop = mediaProcessing.watch((admission) => admissions.push(admission));
      try {
        const photo = await syntheticPhoto(0.3, 77);
        const { id, key } = await uploadPicture(database.db, mediaProcessing.enter(MEDIA_UPLOADS_WAITING), {
          bytes: photo,
          fileName: "weighed.jpg",
          createdBy: { id: null, label: "test" },
        });
        const row = await findMediaByKey(database.db, key);
        await database.db.delete(mediaFiles).where(eq(mediaFiles.name, "480.webp"));
        const variant = await makeMissingVariant(database.db, row!, "480.webp");
        expect(row!.id).toBe(id);
        expect((await sharp(variant!.bytes).metadata()).width).toBe(480);
        expect(admissions.map((admission) => admission.weight)).toEqual([
          await weightOf(photo),
          variantWeight(row!, 480),
        ]);
      } finally {
        stop();
      }
      expect(mediaProcessing.counts()).toEqual({ running: 0, waiting: 0 });
    } finally {
      await site.close();
      mediaProcessing.setBudget(MEDIA_MEMORY_BUDGET.postgres);
    }
  });
});
