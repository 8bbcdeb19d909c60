import { createHash } from "node:crypto";
import sharp, { type Metadata, type OutputInfo, type Sharp, type SharpOptions } from "sharp";
import {
  MEDIA_EXTENSIONS,
  MEDIA_LIMITS,
  MEDIA_WIDTHS,
  MEDIA_VARIANT_FORMATS,
  type MediaFormat,
  type MediaVariantFormat,
  variantWidths,
} from "#shared/media.ts";
import { hasControlCharacters, lineBreakOrTab } from "#shared/schemas/text-rules.ts";
import { extraInFile } from "./container.ts";
import { declaredSize, type PixelSize, sniffPicture } from "./sniff.ts";

// The picture pipeline (docs/decisions/040-the-media-library.md): an upload is recognised from its
// bytes, its size in pixels read from its header and held to 40 megapixels before anything is
// decoded, then decoded strictly (a truncated or corrupt file is refused, never half-kept), turned
// upright from its EXIF orientation, converted to sRGB and encoded again with no metadata at all:
// that re-encode is the kept original, and the SHA-256 of its bytes its key. Every width of the
// ladder is made from it in AVIF, WebP and JPEG. sharp keeps no metadata unless asked
// (withMetadata, keepExif, keepIccProfile…), and nothing here asks.

// Memory: no cache of decoded images, one libvips thread per pipeline; the processing line
// (processing-queue.ts) admits jobs by their weight (pictureWeight, variantWeight) within a budget.
sharp.cache(false);
sharp.concurrency(1);

/** A refusal of an upload, in words that name the rule, with its HTTP status. */
export class MediaRefusal extends Error {
  constructor(
    readonly status: 400 | 413 | 415 | 422,
    message: string,
  ) {
    super(message);
  }
}

export const MEDIA_CONTENT_TYPES: Record<MediaFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
};

/** One file of a picture as media_files keeps it. */
export type PictureFile = { name: string; contentType: string; width: number; height: number; bytes: Buffer };

/** An upload made ready: its key, its kept original and every variant of its ladder. */
export type PreparedPicture = {
  key: string;
  format: MediaFormat;
  width: number;
  height: number;
  original: PictureFile;
  variants: PictureFile[];
};

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const grouped = (value: number) => value.toLocaleString("en-US");
const LIMIT_MB = MEDIA_LIMITS.bytes / 1024 / 1024;
const LIMIT_MP = MEDIA_LIMITS.pixels / 1_000_000;

/** What an upload bigger than the limit is told. */
export function tooLargeMessage(fileName: string | undefined, bytes?: number): string {
  const size = bytes === undefined ? "larger than 20 MB" : megabytes(bytes);
  return `${fileName ? `“${fileName}” is` : "The upload is"} ${size}; a picture may be at most ${LIMIT_MB} MB.`;
}

export const NOT_A_PICTURE_RULE = "is not a JPEG, PNG, WebP or AVIF picture";

/** Refuses a picture of a side over MEDIA_LIMITS.side or longer than 1:MEDIA_LIMITS.aspect, from its size alone. */
function checkShape(fileName: string, width: number, height: number): void {
  const size = `${grouped(width)} × ${grouped(height)} pixels`;
  if (Math.max(width, height) > MEDIA_LIMITS.side)
    throw new MediaRefusal(
      422,
      `“${fileName}” is ${size}; a side may be at most ${grouped(MEDIA_LIMITS.side)} pixels.`,
    );
  if (Math.max(width, height) > MEDIA_LIMITS.aspect * Math.min(width, height))
    throw new MediaRefusal(
      422,
      `“${fileName}” is ${size}; the library takes pictures no longer than 1:${MEDIA_LIMITS.aspect} (a panorama or a banner fits).`,
    );
}

/** What an upload is told when its picture cannot be made into every width the site serves. */
export const cannotBeMadeReady = (fileName: string) =>
  new MediaRefusal(
    422,
    `“${fileName}” could not be made into the sizes the site shows, so it was not kept. Export it again as a JPEG or PNG and upload that.`,
  );

/** A file name as the library keeps it: no folders, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? "")
    .split(/[\\/]/)
    .pop()!
    .normalize("NFC")
    .split("")
    .filter((char) => !hasControlCharacters(char) && !lineBreakOrTab.test(char))
    .join("")
    .trim()
    .slice(0, 200);
  return base || "picture";
}

/** Every sharp() call of the library: never more pixels than the limit, failing on a damaged file. */
export const decode = (input: Buffer, raw?: SharpOptions["raw"]) =>
  sharp(input, {
    limitInputPixels: MEDIA_LIMITS.pixels,
    failOn: "error",
    sequentialRead: true,
    ...(raw ? { raw } : {}),
  });

const damaged = (fileName: string) =>
  new MediaRefusal(
    422,
    `“${fileName}” is damaged or incomplete: its picture data cannot be read to the end, so it was not kept. Upload the whole file again.`,
  );

/** The encoder settings of each kept original, by its format. */
function encodeOriginal(pipeline: Sharp, format: MediaFormat): Sharp {
  switch (format) {
    case "jpeg":
      return pipeline.jpeg({ quality: 85, mozjpeg: true });
    case "png":
      return pipeline.png({ compressionLevel: 9 });
    case "webp":
      return pipeline.webp({ quality: 85, effort: 4 });
    case "avif":
      return pipeline.avif({ quality: 60, effort: 2 });
  }
}

/** The encoder settings of the variants: small files, each width made in well under a second. */
function encodeVariant(pipeline: Sharp, format: MediaVariantFormat, hasAlpha: boolean): Sharp {
  switch (format) {
    case "avif":
      return pipeline.avif({ quality: 50, effort: 2, chromaSubsampling: "4:2:0" });
    case "webp":
      return pipeline.webp({ quality: 75, effort: 4 });
    case "jpeg":
      return (hasAlpha ? pipeline.flatten({ background: "#ffffff" }) : pipeline).jpeg({ quality: 80, mozjpeg: true });
  }
}

export const keyOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 16);

export const originalName = (format: MediaFormat) => `original.${MEDIA_EXTENSIONS[format]}`;
export const variantName = (width: number, format: MediaVariantFormat) => `${width}.${MEDIA_EXTENSIONS[format]}`;

/** What an upload's header says, once it has passed every rule that needs no decoding. */
export type InspectedPicture = {
  format: MediaFormat;
  width: number;
  height: number;
  /** Channels as stored (3 for RGB, 4 with alpha or for CMYK). */
  channels: number;
  /** A progressive JPEG or an interlaced PNG: decoded whole, not line by line. */
  progressive: boolean;
  /** Its EXIF orientation turns it a quarter (5 to 8): turned upright, it is held whole. */
  quarterTurn: boolean;
};

/**
 * Checks an upload from its bytes and header alone (nothing decoded): refused (MediaRefusal)
 * unless it is a still JPEG, PNG, WebP or AVIF of at most 20 MB and 40 megapixels, of a shape
 * the library takes. What it says is what the line weighs the job by (pictureWeight).
 */
export async function inspectPicture(bytes: Buffer, fileName: string): Promise<InspectedPicture> {
  if (bytes.length === 0) throw new MediaRefusal(400, `“${fileName}” is empty (0 bytes): there is no picture in it.`);
  if (bytes.length > MEDIA_LIMITS.bytes) throw new MediaRefusal(413, tooLargeMessage(fileName, bytes.length));
  const sniffed = sniffPicture(bytes);
  if (!sniffed.format) {
    const what = sniffed.looksLike ? ` (it is ${sniffed.looksLike})` : "";
    const svg = sniffed.looksLike === "an SVG drawing" ? " SVG can carry scripts, so the library never takes it." : "";
    throw new MediaRefusal(415, `“${fileName}” ${NOT_A_PICTURE_RULE}${what}.${svg}`);
  }
  const format = sniffed.format;
  // The header alone, before anything is decoded: a pixel bomb is refused here.
  const declared = declaredSize(bytes, format);
  const tooMany = (width: number, height: number) =>
    new MediaRefusal(
      422,
      `“${fileName}” is ${grouped(width)} × ${grouped(height)} pixels; the most is ${LIMIT_MP} megapixels.`,
    );
  if (declared && declared.width * declared.height > MEDIA_LIMITS.pixels)
    throw tooMany(declared.width, declared.height);
  if (declared) checkShape(fileName, declared.width, declared.height);
  let metadata: Metadata;
  try {
    metadata = await decode(bytes).metadata();
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message))
      throw new MediaRefusal(422, `“${fileName}” is larger than ${LIMIT_MP} megapixels, the most a picture may be.`);
    throw damaged(fileName);
  }
  const decodedFormat = metadata.format === "heif" && metadata.compression === "av1" ? "avif" : metadata.format;
  if (decodedFormat !== format) throw new MediaRefusal(415, `“${fileName}” ${NOT_A_PICTURE_RULE}.`);
  if (!metadata.width || !metadata.height) throw damaged(fileName);
  if (metadata.width * metadata.height > MEDIA_LIMITS.pixels) throw tooMany(metadata.width, metadata.height);
  checkShape(fileName, metadata.width, metadata.height);
  if ((metadata.pages ?? 1) > 1)
    throw new MediaRefusal(
      422,
      `“${fileName}” is animated (${metadata.pages} frames); the library takes still pictures only.`,
    );
  return {
    format,
    width: metadata.width,
    height: metadata.height,
    channels: Math.min(4, Math.max(1, metadata.channels ?? 4)),
    progressive: metadata.isProgressive === true,
    quarterTurn: (metadata.orientation ?? 1) >= 5,
  };
}

/**
 * An inspected upload made into its kept original: decoded strictly, turned upright, in sRGB,
 * encoded again with no metadata. Refused (MediaRefusal) when its data cannot be read to the end.
 */
export async function reencodeOriginal(
  bytes: Buffer,
  fileName: string,
  inspected: InspectedPicture,
): Promise<{ key: string; format: MediaFormat; original: PictureFile; hasAlpha: boolean }> {
  const { format } = inspected;
  let encoded: { data: Buffer; info: OutputInfo };
  try {
    encoded = await encodeOriginal(decode(bytes).rotate().toColourspace("srgb"), format).toBuffer({
      resolveWithObject: true,
    });
  } catch (error) {
    if (/pixel limit/i.test((error as Error).message))
      throw new MediaRefusal(422, `“${fileName}” is larger than ${LIMIT_MP} megapixels, the most a picture may be.`);
    throw damaged(fileName);
  }
  const { data, info } = encoded;
  return {
    key: keyOf(data),
    format,
    hasAlpha: info.channels === 4 || info.channels === 2,
    original: {
      name: originalName(format),
      contentType: MEDIA_CONTENT_TYPES[format],
      width: info.width,
      height: info.height,
      bytes: data,
    },
  };
}

/**
 * The size of a file that may be kept as it is, as the library's own original, or undefined when
 * it must go through the pipeline instead. It must hold its picture alone (container.ts: no EXIF,
 * XMP, IPTC, ICC profile, comment, text or private part, nothing after its end), and sharp must
 * read no metadata in it either; its header must declare no more than the limits allow (before
 * anything is decoded); and it must be one still frame of its own format that decodes to its end,
 * with the same bounds as an upload (`decode`: the pixel limit, failing on a damaged file).
 */
export async function sizeIfKeptAsIs(bytes: Buffer, format: MediaFormat): Promise<PixelSize | undefined> {
  if (bytes.length === 0 || bytes.length > MEDIA_LIMITS.bytes || sniffPicture(bytes).format !== format)
    return undefined;
  if (extraInFile(bytes, format) !== undefined) return undefined;
  const declared = declaredSize(bytes, format);
  if (!declared || declared.width * declared.height > MEDIA_LIMITS.pixels) return undefined;
  try {
    checkShape("", declared.width, declared.height);
    const metadata = await decode(bytes).metadata();
    const decodedFormat = metadata.format === "heif" && metadata.compression === "av1" ? "avif" : metadata.format;
    if (decodedFormat !== format || metadata.width !== declared.width || metadata.height !== declared.height)
      return undefined;
    if ((metadata.pages ?? 1) > 1) return undefined;
    const carried = [metadata.exif, metadata.xmp, metadata.iptc, metadata.icc, metadata.tifftagPhotoshop];
    if (carried.some(Boolean) || metadata.comments?.length) return undefined;
    // Every pixel read, streamed, shrunk to one (stats() read them too, ten times slower; a
    // nearest-pixel resize skipped the end of a PNG): a damaged file throws here.
    await decode(bytes).resize(1, 1, { fit: "fill" }).raw().toBuffer();
  } catch {
    return undefined;
  }
  return declared;
}

/**
 * Checks an upload and makes its kept original: refused (MediaRefusal) unless it is a still JPEG,
 * PNG, WebP or AVIF of at most 20 MB and 40 megapixels that decodes to its end.
 */
export async function keptOriginal(
  bytes: Buffer,
  fileName: string,
): Promise<{ key: string; format: MediaFormat; original: PictureFile; hasAlpha: boolean }> {
  return reencodeOriginal(bytes, fileName, await inspectPicture(bytes, fileName));
}

// What a job holds at its peak, in bytes per pixel, measured with the real sharp on pictures of 3
// to 40 megapixels (docs/decisions/047-a-memory-budget-for-making-pictures.md has the figures),
// rounded up: every estimate is at or over what was measured, by at most about twice.
const MB = 1024 * 1024;
/** libvips' and the encoders' own state, and the files a job makes. */
const JOB_OVERHEAD = 16 * MB;
/**
 * Decoding an upload and encoding its kept original, per pixel, by format and channels: mozjpeg
 * encodes a progressive JPEG from all its coefficients at once; WebP and AVIF encode a whole frame.
 */
const REENCODE_PER_PIXEL: Record<MediaFormat, (channels: number) => number> = {
  jpeg: () => 8,
  png: (channels) => 2 * channels,
  webp: (channels) => 7 * channels,
  avif: (channels) => 13 * channels,
};
/**
 * Decoding a kept original again, per pixel: a progressive JPEG's coefficients (mozjpeg writes
 * progressive JPEGs), a whole WebP or AVIF frame; a PNG is read line by line.
 */
const DECODE_ORIGINAL_PER_PIXEL: Record<MediaFormat, (channels: number) => number> = {
  jpeg: () => 3,
  png: () => 0,
  webp: (channels) => channels,
  avif: (channels) => 6 * channels,
};
/** Making a width of the ladder, per pixel of it: the decoded width and its three encoders at once. */
const LADDER_PER_PIXEL = (channels: number) => 16 * channels;
/** Making one variant, per pixel of it: the decoded width and one encoder (AVIF's the largest). */
const VARIANT_PER_PIXEL = (channels: number) => 8 * channels;

/** The width × height of a picture's widest variant (the ladder's top, or its own width). */
function topVariantPixels(width: number, height: number): number {
  const top = Math.min(width, MEDIA_WIDTHS[MEDIA_WIDTHS.length - 1]!);
  return top * Math.max(1, Math.round((height * top) / width));
}

/**
 * The memory an upload's job will take at its peak, from its header alone: its kept original
 * made (decoding the upload whole when it is progressive or turned, then encoding), or its ladder
 * made (the kept original decoded again, the widest variant in three formats at once), whichever
 * is more. The processing line (processing-queue.ts) admits jobs by it.
 */
export function pictureWeight(picture: InspectedPicture): number {
  const pixels = picture.width * picture.height;
  const { channels, format } = picture;
  let perPixel = REENCODE_PER_PIXEL[format](channels);
  if (picture.progressive) perPixel += format === "jpeg" ? 2 * channels : channels;
  if (picture.quarterTurn) perPixel += channels;
  // Turned upright, a picture's width is its height.
  const [width, height] = picture.quarterTurn ? [picture.height, picture.width] : [picture.width, picture.height];
  const ladder =
    pixels * DECODE_ORIGINAL_PER_PIXEL[format](channels) + topVariantPixels(width, height) * LADDER_PER_PIXEL(channels);
  return JOB_OVERHEAD + Math.max(pixels * perPixel, ladder);
}

/**
 * The memory one missing variant takes to make: its picture's kept original decoded, and the
 * variant in one format. From the stored size alone: a picture other than a JPEG may have alpha.
 */
export function variantWeight(picture: { format: MediaFormat; width: number; height: number }, width: number): number {
  const channels = picture.format === "jpeg" ? 3 : 4;
  const made = Math.min(width, picture.width);
  const variantPixels = made * Math.max(1, Math.round((picture.height * made) / picture.width));
  return (
    JOB_OVERHEAD +
    picture.width * picture.height * DECODE_ORIGINAL_PER_PIXEL[picture.format](channels) +
    variantPixels * VARIANT_PER_PIXEL(channels)
  );
}

/** One width of a picture in one format, made from its kept original (never wider than it). */
export async function makeVariant(original: Buffer, width: number, format: MediaVariantFormat): Promise<PictureFile> {
  const pipeline = decode(original).resize({ width, withoutEnlargement: true });
  const metadata = await decode(original).metadata();
  const { data, info } = await encodeVariant(pipeline, format, metadata.hasAlpha === true).toBuffer({
    resolveWithObject: true,
  });
  return {
    name: variantName(width, format),
    contentType: MEDIA_CONTENT_TYPES[format],
    width: info.width,
    height: info.height,
    bytes: data,
  };
}

/**
 * Every variant of the ladder, made from one decode of the kept original at the ladder's top
 * width (1600 pixels, or the picture's own width when narrower), largest first.
 */
export async function makeLadder(original: PictureFile, hasAlpha: boolean): Promise<PictureFile[]> {
  const widths = variantWidths(original.width);
  const top = widths[widths.length - 1]!;
  const base = await decode(original.bytes)
    .resize({ width: top, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels };
  const files: PictureFile[] = [];
  // The three formats of a width at once: a lone upload uses both cores; each holds little.
  for (const width of [...widths].reverse()) {
    files.push(
      ...(await Promise.all(
        MEDIA_VARIANT_FORMATS.map(async (format) => {
          const pipeline = decode(base.data, raw).resize({ width, withoutEnlargement: true });
          const { data, info } = await encodeVariant(pipeline, format, hasAlpha).toBuffer({ resolveWithObject: true });
          return {
            name: variantName(width, format),
            contentType: MEDIA_CONTENT_TYPES[format],
            width: info.width,
            height: info.height,
            bytes: data,
          };
        }),
      )),
    );
  }
  return files;
}

/** An upload made ready: refused, or its kept original and every variant. */
export async function preparePicture(
  bytes: Buffer,
  fileName: string,
  inspected?: InspectedPicture,
): Promise<PreparedPicture> {
  // A caller that weighed the job has inspected the file already: its header is not read again.
  const kept = inspected ? await reencodeOriginal(bytes, fileName, inspected) : await keptOriginal(bytes, fileName);
  const variants = await makeLadder(kept.original, kept.hasAlpha);
  return {
    key: kept.key,
    format: kept.format,
    width: kept.original.width,
    height: kept.original.height,
    original: kept.original,
    variants,
  };
}
