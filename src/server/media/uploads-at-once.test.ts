import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { variantWidths } from "#shared/media.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { media, mediaFiles } from "../db/schema.ts";
import { syntheticPhoto } from "./media-bench.ts";
import { MEDIA_UPLOADS_WAITING, mediaProcessing, uploadPicture } from "./media-store.ts";
import { ProcessingBusy } from "./processing-queue.ts";

// Uploads arriving together take their places in the processing line (decision 040: ten places;
// decision 047: as many made at once as fit its memory budget): as many as the line holds are all
// made ready, each with its whole ladder of variants, one more is turned away at once, and the
// line empties. How long a 12-megapixel photo takes, and how much memory ten at once cost, are
// measured by `npm run bench -- --only media` (docs/performance.md), not here.

const AT_ONCE = MEDIA_UPLOADS_WAITING;

describe.each(testDrivers)("uploads at once on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver, { from: "empty" });
  });
  afterAll(async () => {
    await database.drop();
  });

  it(`makes ${AT_ONCE} pictures sent together ready, each with every variant, and the line empties`, async () => {
    // Small, different photos: what is tested is the line, not the encoder's speed.
    const photos = await Promise.all(Array.from({ length: AT_ONCE }, (_, index) => syntheticPhoto(0.2, index + 2)));
    const outcomes = await Promise.all(
      photos.map((bytes, index) =>
        uploadPicture(database.db, mediaProcessing.enter(MEDIA_UPLOADS_WAITING), {
          bytes,
          fileName: `together-${index}.jpg`,
          createdBy: { id: null, label: "test" },
        }),
      ),
    );
    expect(outcomes.filter((outcome) => !outcome.existing)).toHaveLength(AT_ONCE);
    expect(mediaProcessing.counts()).toEqual({ running: 0, waiting: 0 });
    const ids = outcomes.map((outcome) => outcome.id);
    const rows = await database.db
      .select({ id: media.id, width: media.width })
      .from(media)
      .where(inArray(media.id, ids));
    expect(rows).toHaveLength(AT_ONCE);
    for (const row of rows) {
      const [files] = await database.db.select({ n: count() }).from(mediaFiles).where(eq(mediaFiles.mediaId, row.id));
      // The kept original and each width of its ladder in AVIF, WebP and JPEG.
      expect(files!.n, row.id).toBe(1 + variantWidths(row.width).length * 3);
    }
  });

  it("refuses the one beyond the line at once, with nothing stored for it, and takes uploads again after", async () => {
    const photos = await Promise.all(
      Array.from({ length: AT_ONCE + 1 }, (_, index) => syntheticPhoto(0.2, index + 100)),
    );
    const settled = await Promise.allSettled(
      photos.map((bytes, index) =>
        (async () => {
          const place = mediaProcessing.enter(MEDIA_UPLOADS_WAITING);
          return uploadPicture(database.db, place, {
            bytes,
            fileName: `beyond-${index}.jpg`,
            createdBy: { id: null, label: "test" },
          });
        })(),
      ),
    );
    const refused = settled.filter((result) => result.status === "rejected");
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(ProcessingBusy);
    expect(settled.filter((result) => result.status === "fulfilled")).toHaveLength(AT_ONCE);
    expect(mediaProcessing.counts()).toEqual({ running: 0, waiting: 0 });
    const again = await uploadPicture(database.db, mediaProcessing.enter(MEDIA_UPLOADS_WAITING), {
      bytes: photos.at(-1)!,
      fileName: "again.jpg",
      createdBy: { id: null, label: "test" },
    });
    expect(again.existing).toBe(false);
  });
});
