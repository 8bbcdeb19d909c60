import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { variantWidths } from "#shared/media.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/databases.ts";
import { applyMigrations } from "../db/migrate.ts";
import { syntheticPhoto, timeUploadToReady, uploadsAtOnce } from "./media-bench.ts";
import { mediaProcessing } from "./media-store.ts";

// The bench's measures of the library, run once here so that they keep working, with the bounds
// decision 040 states: a 12-megapixel photo ready (every variant stored) in seconds, and ten
// uploads at once holding the process's memory within a few hundred megabytes.

describe("the media bench's measures", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await applyMigrations(database.db);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("times a 12-megapixel photo from upload to ready", { timeout: 120_000 }, async () => {
    const photo = await syntheticPhoto(12);
    const result = await timeUploadToReady(database.db, photo, "twelve.jpg");
    expect(result.existing).toBe(false);
    expect(result.files).toBe(1 + variantWidths(3000).length * 3);
    // A few seconds on the bench's machine; a generous bound for a busy test run.
    expect(result.ms).toBeLessThan(60_000);
    console.log(
      `12 MP upload to ready: ${(result.ms / 1000).toFixed(1)} s, ${result.files} files, ${(result.storedBytes / 1024 / 1024).toFixed(1)} MB`,
    );
  });

  it("holds the memory of ten uploads at once within its bound", { timeout: 240_000 }, async () => {
    const photos = await Promise.all(Array.from({ length: 10 }, (_, index) => syntheticPhoto(3, index + 2)));
    const result = await uploadsAtOnce(database.db, photos);
    expect(result).toMatchObject({ ready: 10, refused: 0 });
    expect(mediaProcessing.counts()).toEqual({ running: 0, waiting: 0 });
    const grown = result.peakRss - result.baselineRss;
    expect(grown).toBeLessThan(512 * 1024 * 1024);
    console.log(
      `10 uploads of 3 MP at once: ${(result.ms / 1000).toFixed(1)} s, peak RSS +${(grown / 1024 / 1024).toFixed(0)} MB`,
    );
  });
});
