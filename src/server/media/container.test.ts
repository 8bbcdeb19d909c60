import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { FIXTURE_XMP, phonePhoto, plainPicture, truncatedJpeg } from "../../../test/media-fixtures.ts";
import { extraInFile } from "./container.ts";
import { keptOriginal, sizeIfKeptAsIs } from "./pipeline.ts";

// What a picture's file carries besides its picture (container.ts), and whether content:import may
// keep a file as it is (sizeIfKeptAsIs): the pipeline's own originals hold their picture alone, and
// every carrier of metadata sharp writes, a comment, a private chunk, a byte after the end or a
// file cut short is named.

const FORMATS = ["jpeg", "png", "webp", "avif"] as const;

/** The pipeline's kept original of a plain picture in a format. */
const keptOf = async (format: (typeof FORMATS)[number], alpha = false) =>
  (await keptOriginal(await plainPicture(format, { width: 300, height: 200, alpha }), "x")).original.bytes;

/** The same picture with one more PNG chunk before IEND. */
function withPngChunk(png: Buffer, type: string, data: string): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  // The CRC is left zero: the structure is read, not checked.
  const chunk = Buffer.concat([length, Buffer.from(type + data, "latin1"), Buffer.alloc(4)]);
  return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
}

describe("what a picture's file carries besides its picture", () => {
  it("nothing, for the pipeline's own originals of every format, with and without transparency", async () => {
    for (const format of FORMATS) {
      for (const alpha of [false, true])
        expect(extraInFile(await keptOf(format, alpha), format), format).toBeUndefined();
    }
  });

  it("names EXIF, an ICC profile and XMP as sharp writes them in each format", async () => {
    const named: Record<string, (string | undefined)[]> = {};
    for (const format of FORMATS) {
      const plain = await plainPicture(format, { width: 300, height: 200 });
      const carriers = [
        sharp(plain).withExif({ IFD0: { Make: "FixtureCam" } }),
        sharp(plain).withIccProfile("p3"),
        sharp(plain).withXmp(FIXTURE_XMP),
      ];
      named[format] = await Promise.all(
        carriers.map(async (carrier) => extraInFile(await carrier.toFormat(format).toBuffer(), format)),
      );
    }
    expect(named).toEqual({
      jpeg: ["an APP1 segment (Exif)", "an APP2 segment (ICC_PROFILE)", "an APP1 segment (http://ns.ad)"],
      png: ["a chunk of type eXIf", "a chunk of type iCCP", "a chunk of type zTXt"],
      webp: ["EXIF (in its VP8X flags)", "an ICC profile (in its VP8X flags)", "XMP (in its VP8X flags)"],
      avif: ["an item of type Exif", "a colour property of kind rICC (an ICC profile)", "an item of type mime"],
    });
  });

  it("names what sharp's metadata() does not see: a JPEG comment, a PNG text or private chunk, bytes after the end", async () => {
    const jpeg = await keptOf("jpeg");
    const comment = Buffer.from([0xff, 0xfe, 0x00, 0x0c, ...Buffer.from("23N 72E ok", "latin1")]);
    const commented = Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]);
    expect((await sharp(commented).metadata()).comments).toBeUndefined();
    expect(extraInFile(commented, "jpeg")).toBe("a comment (COM segment)");
    const png = await keptOf("png");
    expect(extraInFile(withPngChunk(png, "tEXt", "GPS\u000023N 72E"), "png")).toBe("a chunk of type tEXt");
    expect(extraInFile(withPngChunk(png, "prVt", "anything"), "png")).toBe("a chunk of type prVt");
    for (const format of ["jpeg", "png", "webp"] as const) {
      const trailing = Buffer.concat([await keptOf(format), Buffer.from("GPS 23N 72E")]);
      expect(extraInFile(trailing, format), format).toBe("bytes after the picture's end");
    }
  });

  it("names a file cut short", async () => {
    for (const format of FORMATS) {
      const whole = await keptOf(format);
      expect(extraInFile(whole.subarray(0, whole.length - 1), format), format).toBe("a part cut short");
    }
  });
});

describe("whether content:import may keep a file as it is", () => {
  it("yes, with its size, for the pipeline's own originals", async () => {
    for (const format of FORMATS)
      expect(await sizeIfKeptAsIs(await keptOf(format), format)).toEqual({ width: 300, height: 200 });
  });

  it("no, for a photo with its GPS position, a file that does not decode, or a file of another format", async () => {
    expect(await sizeIfKeptAsIs(await phonePhoto(), "jpeg")).toBeUndefined();
    expect(await sizeIfKeptAsIs(await truncatedJpeg(), "jpeg")).toBeUndefined();
    expect(await sizeIfKeptAsIs(await keptOf("png"), "jpeg")).toBeUndefined();
    // Whole in its structure, wrong in its data: sharp reads its header, then fails on its pixels.
    const png = await keptOf("png");
    const idat = png.indexOf("IDAT") + 4;
    const scrambled = Buffer.from(png);
    scrambled.fill(0x5a, idat + 2, idat + 20);
    expect(extraInFile(scrambled, "png")).toBeUndefined();
    expect(await sizeIfKeptAsIs(scrambled, "png")).toBeUndefined();
  });
});
