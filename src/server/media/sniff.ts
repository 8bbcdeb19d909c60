import type { MediaFormat } from "#shared/media.ts";

// What a file is, from its first bytes (its magic number), never from its name or the type a
// browser declared; and a picture's size in pixels read from its header, without decoding it. The
// library takes JPEG, PNG, WebP and AVIF (docs/decisions/040-the-media-library.md); anything else
// is named, so that the refusal can say what the file really is.

/** Something that is not a picture the library takes, in words: "an SVG drawing", "an HTML document". */
export type Sniffed = { format: MediaFormat } | { format: undefined; looksLike: string | undefined };

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, Math.min(to, bytes.length)));

/** The brands of an ISO-BMFF file (HEIF, AVIF, MP4): its major brand and compatible brands, or undefined. */
function isoBrands(bytes: Uint8Array): string[] | undefined {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== "ftyp") return undefined;
  const size = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(size >= 16 ? size : 16, bytes.length, 256);
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
  return brands;
}

/** What the text at the start of a file is, when it is text a browser would run or draw. */
function textKind(bytes: Uint8Array): string | undefined {
  let start = 0;
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) start = 3;
  while (start < bytes.length && (bytes[start] === 0 || bytes[start]! <= 0x20)) start += 1;
  const head = ascii(bytes, start, start + 1024).toLowerCase();
  if (/^<\?xml[\s\S]*<svg[\s>]/.test(head) || head.startsWith("<svg")) return "an SVG drawing";
  if (/^<!doctype svg/.test(head)) return "an SVG drawing";
  if (/^(<!doctype html|<html|<head|<body|<script|<iframe|<!--|<meta|<div|<p[\s>])/.test(head))
    return "an HTML document";
  if (head.startsWith("<?xml")) return "an XML document";
  if (head.startsWith("%pdf")) return "a PDF document";
  return undefined;
}

/** Recognises a picture by its bytes: one of the four formats, or what it looks like instead. */
export function sniffPicture(bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { format: "jpeg" };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { format: "png" };
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return { format: "webp" };
  const brands = isoBrands(bytes);
  if (brands) {
    if (brands.includes("avif") || brands.includes("avis")) return { format: "avif" };
    if (brands.some((brand) => ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].includes(brand)))
      return { format: undefined, looksLike: "a HEIC photo" };
    return { format: undefined, looksLike: "a video or another ISO media file" };
  }
  if (ascii(bytes, 0, 4) === "GIF8") return { format: undefined, looksLike: "a GIF" };
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return { format: undefined, looksLike: "a TIFF file" };
  if (ascii(bytes, 0, 2) === "BM") return { format: undefined, looksLike: "a BMP file" };
  return { format: undefined, looksLike: textKind(bytes) };
}

export type PixelSize = { width: number; height: number };

const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const u32be = (bytes: Uint8Array, at: number) =>
  ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
const u16le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const u24le = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);

function jpegSize(bytes: Uint8Array): PixelSize | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = u16be(bytes, at + 2);
    // Start of frame: every SOFn but DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    }
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

function webpSize(bytes: Uint8Array): PixelSize | undefined {
  const chunk = ascii(bytes, 12, 16);
  if (chunk === "VP8X" && bytes.length >= 30) return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  if (chunk === "VP8 " && bytes.length >= 30)
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  if (chunk === "VP8L" && bytes.length >= 25) {
    const bits = bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** AVIF: the largest `ispe` (image spatial extent) property of the file's first 64 KB. */
function avifSize(bytes: Uint8Array): PixelSize | undefined {
  let best: PixelSize | undefined;
  const end = Math.min(bytes.length, 65_536) - 16;
  for (let at = 4; at < end; at += 1) {
    if (bytes[at] !== 0x69 || ascii(bytes, at, at + 4) !== "ispe") continue;
    const size = { width: u32be(bytes, at + 8), height: u32be(bytes, at + 12) };
    if (!best || size.width * size.height > best.width * best.height) best = size;
  }
  return best;
}

/**
 * A picture's size as its header declares it, before anything is decoded (so a pixel bomb is
 * known by its header alone), or undefined when the header cannot be read.
 */
export function declaredSize(bytes: Uint8Array, format: MediaFormat): PixelSize | undefined {
  let size: PixelSize | undefined;
  if (format === "png") {
    size =
      bytes.length >= 24 && ascii(bytes, 12, 16) === "IHDR"
        ? { width: u32be(bytes, 16), height: u32be(bytes, 20) }
        : undefined;
  } else if (format === "jpeg") size = jpegSize(bytes);
  else if (format === "webp") size = webpSize(bytes);
  else size = avifSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}
