import type { MediaFormat } from "#shared/media.ts";

// What a picture's file holds besides its picture, read from its structure: the segments of a
// JPEG, the chunks of a PNG or a WebP, the boxes of an AVIF. The library keeps a file as it is
// only when it holds nothing else (content:import's files named by their own hash, media-files.ts):
// each format's parts are taken from a short list of those that make the picture, and any other
// part (EXIF, XMP, an ICC profile, a comment, a text chunk, a maker's private segment) or any byte
// after the picture's end is named. sharp's metadata() is not enough alone: it says nothing of a
// JPEG's comment or a PNG's private chunk. One pass over the bytes, no decoding.

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, Math.min(to, bytes.length)));
const u16be = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const u32be = (bytes: Uint8Array, at: number) =>
  ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
const u32le = (bytes: Uint8Array, at: number) =>
  (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;

const CUT_SHORT = "a part cut short";
const AFTER_THE_END = "bytes after the picture's end";

/** JPEG: SOI, then tables, frames and scans up to EOI; APP0 only as a bare JFIF header (no thumbnail). */
function jpegExtra(bytes: Uint8Array): string | undefined {
  const hex = (marker: number) => marker.toString(16).toUpperCase();
  let at = 2;
  for (;;) {
    if (at + 2 > bytes.length) return CUT_SHORT;
    if (bytes[at] !== 0xff) return "bytes outside any segment";
    let marker = bytes[at + 1]!;
    // Fill bytes before a marker.
    while (marker === 0xff && at + 2 < bytes.length) marker = bytes[++at + 1]!;
    if (marker === 0xd9) return at + 2 === bytes.length ? undefined : AFTER_THE_END;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) return CUT_SHORT;
    const length = u16be(bytes, at + 2);
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length) return CUT_SHORT;
    if (marker === 0xfe) return "a comment (COM segment)";
    if (marker === 0xe0) {
      const bareJfif = length === 16 && ascii(bytes, at + 4, at + 9) === "JFIF\0" && !bytes[at + 16] && !bytes[at + 17];
      if (!bareJfif) return "an APP0 segment other than a bare JFIF header";
    } else if (marker >= 0xe1 && marker <= 0xef) {
      const name = ascii(bytes, at + 4, Math.min(end, at + 16))
        .split("\0")[0]!
        .replace(/[^\x20-\x7e]/g, "");
      return `an APP${marker - 0xe0} segment${name ? ` (${name})` : ""}`;
    } else {
      // Tables (DQT, DHT, DAC, DRI, DNL), frames (every SOFn) and scans.
      const picture = marker === 0xdb || marker === 0xdd || marker === 0xdc || (marker >= 0xc0 && marker <= 0xcf);
      if (!(picture && marker !== 0xc8) && marker !== 0xda) return `a segment of marker ${hex(marker)}`;
    }
    at = end;
    if (marker !== 0xda) continue;
    // A scan's entropy-coded data runs to the next marker that is neither a stuffed 0x00 nor a restart.
    for (;;) {
      at = bytes.indexOf(0xff, at);
      if (at < 0 || at + 1 >= bytes.length) return CUT_SHORT;
      const next = bytes[at + 1]!;
      if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) at += next === 0xff ? 1 : 2;
      else break;
    }
  }
}

/** PNG: its header, palette, transparency, pixel density and data, up to IEND. */
const PNG_CHUNKS = new Set(["IHDR", "PLTE", "tRNS", "pHYs", "IDAT", "IEND"]);

function pngExtra(bytes: Uint8Array): string | undefined {
  let at = 8;
  for (;;) {
    if (at + 12 > bytes.length) return CUT_SHORT;
    const length = u32be(bytes, at);
    const type = ascii(bytes, at + 4, at + 8);
    const end = at + 12 + length;
    if (end > bytes.length) return CUT_SHORT;
    if (!PNG_CHUNKS.has(type)) return `a chunk of type ${type.replace(/[^\x20-\x7e]/g, "?")}`;
    at = end;
    if (type === "IEND") return at === bytes.length ? undefined : AFTER_THE_END;
  }
}

/** The VP8X flags of what a WebP carries: an ICC profile, EXIF, XMP, frames. */
const VP8X_FLAGS: [number, string][] = [
  [0x20, "an ICC profile"],
  [0x08, "EXIF"],
  [0x04, "XMP"],
  [0x02, "animation"],
];

/** WebP: one RIFF of the picture's chunks (VP8, VP8L, or VP8X with ALPH and VP8), nothing after it. */
function webpExtra(bytes: Uint8Array): string | undefined {
  if (bytes.length < 12) return CUT_SHORT;
  const riffEnd = 8 + u32le(bytes, 4);
  if (riffEnd > bytes.length) return CUT_SHORT;
  if (riffEnd < bytes.length) return AFTER_THE_END;
  for (let at = 12; at < riffEnd;) {
    if (at + 8 > riffEnd) return CUT_SHORT;
    const type = ascii(bytes, at, at + 4);
    const length = u32le(bytes, at + 4);
    const end = at + 8 + length + (length & 1);
    if (end > riffEnd) return CUT_SHORT;
    if (type === "VP8X") {
      const flags = bytes[at + 8] ?? 0;
      const carried = VP8X_FLAGS.find(([flag]) => flags & flag);
      if (carried) return `${carried[1]} (in its VP8X flags)`;
    } else if (type !== "VP8 " && type !== "VP8L" && type !== "ALPH")
      return `a chunk of type ${type.replace(/[^\x20-\x7e]/g, "?")}`;
    at = end;
  }
  return undefined;
}

type Box = { type: string; start: number; end: number };

/** The ISO-BMFF boxes from `from` to `to`, or a problem. */
function boxesOf(bytes: Uint8Array, from: number, to: number): Box[] | string {
  const boxes: Box[] = [];
  for (let at = from; at < to;) {
    if (at + 8 > to) return CUT_SHORT;
    let size = u32be(bytes, at);
    let start = at + 8;
    if (size === 1) {
      if (at + 16 > to) return CUT_SHORT;
      size = u32be(bytes, at + 8) * 2 ** 32 + u32be(bytes, at + 12);
      start = at + 16;
    } else if (size === 0) size = to - at;
    const end = at + size;
    if (end > to || end < start) return CUT_SHORT;
    boxes.push({ type: ascii(bytes, at + 4, at + 8), start, end });
    at = end;
  }
  return boxes;
}

/** The boxes of one type. */
const only = (boxes: Box[], type: string) => boxes.filter((box) => box.type === type);

/**
 * AVIF: ftyp, meta and mdat, every item an AV1 image (an Exif or XMP item is metadata), and
 * every colour property nclx (an ICC profile is `prof` or `rICC`).
 */
function avifExtra(bytes: Uint8Array): string | undefined {
  const top = boxesOf(bytes, 0, bytes.length);
  if (typeof top === "string") return top;
  const other = top.find((box) => !["ftyp", "meta", "mdat"].includes(box.type));
  if (other) return `a box of type ${other.type.replace(/[^\x20-\x7e]/g, "?")}`;
  const [meta, ...moreMeta] = only(top, "meta");
  if (!meta || moreMeta.length) return "no single meta box";
  // meta, iinf and infe are full boxes: a version and flags before their contents.
  const inMeta = boxesOf(bytes, meta.start + 4, meta.end);
  if (typeof inMeta === "string") return inMeta;
  for (const iinf of only(inMeta, "iinf")) {
    const version = bytes[iinf.start]!;
    const entries = boxesOf(bytes, iinf.start + (version === 0 ? 6 : 8), iinf.end);
    if (typeof entries === "string") return entries;
    for (const infe of entries) {
      if (infe.type !== "infe") return `a box of type ${infe.type.replace(/[^\x20-\x7e]/g, "?")} among its items`;
      const infeVersion = bytes[infe.start]!;
      if (infeVersion < 2) return "an item of an old kind";
      const typeAt = infe.start + 4 + (infeVersion === 2 ? 2 : 4) + 2;
      const itemType = ascii(bytes, typeAt, typeAt + 4);
      if (itemType !== "av01") return `an item of type ${itemType.replace(/[^\x20-\x7e]/g, "?")}`;
    }
  }
  for (const iprp of only(inMeta, "iprp")) {
    const properties = boxesOf(bytes, iprp.start, iprp.end);
    if (typeof properties === "string") return properties;
    for (const ipco of only(properties, "ipco")) {
      const inIpco = boxesOf(bytes, ipco.start, ipco.end);
      if (typeof inIpco === "string") return inIpco;
      for (const colr of only(inIpco, "colr")) {
        const kind = ascii(bytes, colr.start, colr.start + 4);
        if (kind !== "nclx") return `a colour property of kind ${kind.replace(/[^\x20-\x7e]/g, "?")} (an ICC profile)`;
      }
    }
  }
  return undefined;
}

/**
 * What a picture's file carries besides its picture, in words ("an APP1 segment (Exif)", "a tEXt
 * chunk", "bytes after the picture's end"), or undefined when it holds its picture alone.
 */
export function extraInFile(bytes: Uint8Array, format: MediaFormat): string | undefined {
  switch (format) {
    case "jpeg":
      return jpegExtra(bytes);
    case "png":
      return pngExtra(bytes);
    case "webp":
      return webpExtra(bytes);
    case "avif":
      return avifExtra(bytes);
  }
}
