import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { MEDIA_VARIANT_FORMATS, variantWidths } from "#shared/media.ts";
import {
  HTML_AS_JPEG,
  metadataMarks,
  oversizedJpeg,
  phonePhoto,
  pixelBombPng,
  plainPicture,
  readExif,
  SVG_WITH_SCRIPT,
  truncatedJpeg,
} from "../../../test/media-fixtures.ts";
import { cleanFileName, keyOf, keptOriginal, MediaRefusal, preparePicture } from "./pipeline.ts";
import { declaredSize, sniffPicture } from "./sniff.ts";

// The picture pipeline with the real sharp: what is refused and with which words, what the kept
// original is (upright, sRGB, no metadata at all), and the ladder (never wider than the picture).

async function refusal(bytes: Buffer, name: string): Promise<MediaRefusal> {
  try {
    await keptOriginal(bytes, name);
  } catch (error) {
    if (error instanceof MediaRefusal) return error;
    throw error;
  }
  throw new Error(`${name} was accepted`);
}

describe("recognising a picture by its bytes", () => {
  it("knows the four formats by their magic numbers, whatever the name", async () => {
    for (const format of ["jpeg", "png", "webp", "avif"] as const) {
      const bytes = await plainPicture(format, { width: 300, height: 200 });
      expect(sniffPicture(bytes)).toEqual({ format });
      expect(declaredSize(bytes, format)).toEqual({ width: 300, height: 200 });
    }
  });

  it("names what something else is", () => {
    expect(sniffPicture(SVG_WITH_SCRIPT)).toEqual({ format: undefined, looksLike: "an SVG drawing" });
    expect(sniffPicture(HTML_AS_JPEG)).toEqual({ format: undefined, looksLike: "an HTML document" });
    expect(sniffPicture(Buffer.from("GIF89a...."))).toEqual({ format: undefined, looksLike: "a GIF" });
    expect(sniffPicture(Buffer.alloc(0))).toEqual({ format: undefined, looksLike: undefined });
  });

  it("reads a pixel bomb's size from its header", () => {
    expect(declaredSize(pixelBombPng(), "png")).toEqual({ width: 50_000, height: 50_000 });
  });
});

describe("refusals, each naming its rule", () => {
  it("an SVG with a script", async () => {
    const error = await refusal(SVG_WITH_SCRIPT, "logo.svg");
    expect(error.status).toBe(415);
    expect(error.message).toBe(
      "“logo.svg” is not a JPEG, PNG, WebP or AVIF picture (it is an SVG drawing). SVG can carry scripts, so the library never takes it.",
    );
  });

  it("an HTML page named photo.jpg", async () => {
    const error = await refusal(HTML_AS_JPEG, "photo.jpg");
    expect(error.status).toBe(415);
    expect(error.message).toBe("“photo.jpg” is not a JPEG, PNG, WebP or AVIF picture (it is an HTML document).");
  });

  it("an empty file", async () => {
    const error = await refusal(Buffer.alloc(0), "empty.jpg");
    expect(error.status).toBe(400);
    expect(error.message).toBe("“empty.jpg” is empty (0 bytes): there is no picture in it.");
  });

  it("a truncated JPEG", async () => {
    const error = await refusal(await truncatedJpeg(), "cut.jpg");
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/^“cut\.jpg” is damaged or incomplete/);
  });

  it("a PNG declaring 50,000 × 50,000 pixels, from its header, without decoding it", async () => {
    const error = await refusal(pixelBombPng(), "bomb.png");
    expect(error.status).toBe(422);
    expect(error.message).toBe("“bomb.png” is 50,000 × 50,000 pixels; the most is 40 megapixels.");
  });

  it.each([
    [1, 40_000_000, "“line.png” is 1 × 40,000,000 pixels; a side may be at most 16,383 pixels."],
    [100_000, 1, "“line.png” is 100,000 × 1 pixels; a side may be at most 16,383 pixels."],
    [
      16_000,
      500,
      "“line.png” is 16,000 × 500 pixels; the library takes pictures no longer than 1:20 (a panorama or a banner fits).",
    ],
  ])("a PNG declaring %i × %i pixels, of an extreme shape, from its header", async (width, height, message) => {
    const error = await refusal(pixelBombPng(width, height), "line.png");
    expect(error.status).toBe(422);
    expect(error.message).toBe(message);
  });

  it("a real picture longer than 1:20 is refused; one of 1:20 is kept", async () => {
    const long = await refusal(await plainPicture("png", { width: 2_100, height: 100 }), "long.png");
    expect(long.status).toBe(422);
    expect(long.message).toMatch(/no longer than 1:20/);
    const kept = await keptOriginal(await plainPicture("png", { width: 2_000, height: 100 }), "banner.png");
    expect([kept.original.width, kept.original.height]).toEqual([2_000, 100]);
  });

  it("a file over 20 MB", async () => {
    const error = await refusal(oversizedJpeg(), "big.jpg");
    expect(error.status).toBe(413);
    expect(error.message).toBe("“big.jpg” is 25.0 MB; a picture may be at most 20 MB.");
  });

  it("an animated WebP", async () => {
    const frames = await Promise.all(
      ["#f59e0b", "#1d4ed8", "#15803d"].map((background) =>
        sharp({ create: { width: 32, height: 32, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const animated = await sharp(frames, { join: { animated: true } })
      .webp({ loop: 0 })
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(3);
    const error = await refusal(animated, "moving.webp");
    expect(error.status).toBe(422);
    expect(error.message).toBe("“moving.webp” is animated (3 frames); the library takes still pictures only.");
  });
});

describe("the kept original", () => {
  it("is upright, in sRGB, and carries no EXIF, GPS, XMP or ICC at all", async () => {
    const photo = await phonePhoto();
    // The fixture really carries what a phone writes.
    expect(readExif(photo)).toMatchObject({ hasExif: true, hasGps: true, orientation: 6, make: "FixtureCam" });
    expect(readExif(photo).gpsEntries).toBeGreaterThanOrEqual(4);

    const kept = await keptOriginal(photo, "site.jpg");
    expect(kept.format).toBe("jpeg");
    expect(kept.key).toBe(keyOf(kept.original.bytes));
    const metadata = await sharp(kept.original.bytes).metadata();
    // Stored 1200 × 900 on its side: upright it is 900 wide, 1200 high.
    expect([metadata.width, metadata.height]).toEqual([900, 1200]);
    expect(metadata.orientation).toBeUndefined();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.space).toBe("srgb");
    expect(readExif(kept.original.bytes)).toEqual({ hasExif: false, hasGps: false, gpsEntries: 0 });
    expect(metadataMarks(kept.original.bytes)).toEqual([]);
    // Upright, the red quarter is at the top right.
    const { data, info } = await sharp(kept.original.bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const [r1, , b1] = pixel(info.width - 50, 50);
    const [r2, , b2] = pixel(50, 50);
    expect(r1).toBeGreaterThan(150);
    expect(b1).toBeLessThan(150);
    expect(b2).toBeGreaterThan(150);
    expect(r2).toBeLessThan(100);
  });

  it("is the same bytes, so the same key, for the same upload", async () => {
    const photo = await phonePhoto({ width: 600, height: 400 });
    const [first, second] = [await keptOriginal(photo, "a.jpg"), await keptOriginal(photo, "b.jpg")];
    expect(first.key).toBe(second.key);
  });

  it("keeps the format uploaded, whatever the name says", async () => {
    const png = await plainPicture("png", { alpha: true });
    const kept = await keptOriginal(png, "photo.jpg");
    expect(kept.format).toBe("png");
    expect(kept.original.name).toBe("original.png");
    expect(kept.hasAlpha).toBe(true);
  });
});

describe("the ladder", () => {
  it("makes every width in AVIF, WebP and JPEG, none wider than the picture, none with metadata", async () => {
    const prepared = await preparePicture(await phonePhoto({ width: 1000, height: 700 }), "narrow.jpg");
    // Upright: 700 wide.
    expect(prepared.width).toBe(700);
    const widths = variantWidths(700);
    expect(widths).toEqual([320, 480, 640, 700]);
    expect(prepared.variants.map((file) => file.name).sort()).toEqual(
      widths.flatMap((width) => ["avif", "webp", "jpg"].map((ext) => `${width}.${ext}`)).sort(),
    );
    for (const file of prepared.variants) {
      const metadata = await sharp(file.bytes).metadata();
      expect(file.width, file.name).toBeLessThanOrEqual(700);
      expect(metadata.width, file.name).toBe(file.width);
      expect(metadata.height, file.name).toBe(Math.round((file.width * 1000) / 700));
      expect(metadata.exif, file.name).toBeUndefined();
      expect(metadataMarks(file.bytes), file.name).toEqual([]);
    }
    expect(MEDIA_VARIANT_FORMATS).toEqual(["avif", "webp", "jpeg"]);
  });

  it("flattens a transparent picture onto white for the JPEG only", async () => {
    const prepared = await preparePicture(await plainPicture("png", { width: 400, height: 300, alpha: true }), "t.png");
    const jpeg = prepared.variants.find((file) => file.name === "320.jpg")!;
    const webp = prepared.variants.find((file) => file.name === "320.webp")!;
    expect((await sharp(jpeg.bytes).metadata()).hasAlpha).toBe(false);
    expect((await sharp(webp.bytes).metadata()).hasAlpha).toBe(true);
  });
});

describe("file names", () => {
  it("keeps the name alone, without folders or control characters", () => {
    expect(cleanFileName("C:\\Users\\me\\photo.jpg")).toBe("photo.jpg");
    expect(cleanFileName("../../etc/passwd")).toBe("passwd");
    expect(cleanFileName("a\u0000b\nc.png")).toBe("abc.png");
    expect(cleanFileName("")).toBe("picture");
  });
});
