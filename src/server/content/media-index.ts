import { createHash } from "node:crypto";
import {
  MEDIA_REFERENCE_PATTERN,
  MEDIA_VARIANT_FORMATS,
  type MediaVariantFormat,
  mediaVariantPath,
  type ResponsiveImage,
  variantWidths,
} from "#shared/media.ts";

// The media library's index as pure data and functions: what a content reference draws, from the
// library's rows. No database here, so that the renderer's worker thread (render-pool.ts) builds
// the same index from the rows it is sent. responsive-images.ts reads the rows and keeps the index.

/** The widths a browser that reads no srcset gets: the JPEG at this width, or the largest below. */
export const FALLBACK_WIDTH = 640;

/** What a picture's row says of it, as the index keeps it. */
export type MediaRow = {
  key: string;
  width: number;
  height: number;
  alt: string;
  decorative: boolean;
  sourcePath: string | null;
};

export type ImageResolver = (reference: string) => ResponsiveImage | null;

export type MediaIndex = {
  /** The picture a reference names, or null when the library does not know it. */
  resolve: ImageResolver;
  /**
   * Changes whenever any picture's addresses, shape or words do: what a cache of rendered bodies
   * keys by, so a body is rendered again when a picture it shows changes, and only then.
   */
  fingerprint: string;
  /** The rows it was made from: what the renderer's worker is sent to make the same index. */
  rows: readonly MediaRow[];
};

/** The widest of `widths` that is at most `limit`, or the narrowest when none is. */
function widestUpTo(widths: number[], limit: number): number {
  return widths.filter((width) => width <= limit).at(-1) ?? widths[0]!;
}

/** A picture's srcset in one format: "/media/<key>/320.avif 320w, …". */
function srcsetOf(key: string, widths: number[], format: MediaVariantFormat): string {
  return widths.map((width) => `${mediaVariantPath(key, width, format)} ${width}w`).join(", ");
}

/** A library picture as the public pages draw it. */
export function responsiveImage(row: MediaRow): ResponsiveImage {
  const widths = variantWidths(row.width);
  const srcset = Object.fromEntries(
    MEDIA_VARIANT_FORMATS.map((format) => [format, srcsetOf(row.key, widths, format)]),
  ) as Record<MediaVariantFormat, string>;
  return {
    src: mediaVariantPath(row.key, widestUpTo(widths, FALLBACK_WIDTH), "jpeg"),
    srcset,
    width: row.width,
    height: row.height,
    alt: row.decorative ? "" : row.alt,
  };
}

/** An index of the library's rows, by the references content may hold. */
export function mediaIndexOf(rows: MediaRow[]): MediaIndex {
  const byKey = new Map<string, MediaRow>();
  const bySourcePath = new Map<string, MediaRow>();
  for (const row of rows) {
    byKey.set(row.key, row);
    if (row.sourcePath) bySourcePath.set(row.sourcePath, row);
  }
  const images = new Map<MediaRow, ResponsiveImage>();
  const rowOf = (reference: string): MediaRow | undefined => {
    // A reference names the picture by its key; the extension is that of the kept original, but
    // the key alone decides (an editor's hand-written .png for a .jpg still shows the picture).
    const key = MEDIA_REFERENCE_PATTERN.exec(reference)?.[1];
    return key ? byKey.get(key) : bySourcePath.get(reference);
  };
  const sorted = [...rows].sort((a, b) => a.key.localeCompare(b.key));
  return {
    rows,
    resolve: (reference) => {
      const row = rowOf(reference);
      if (!row) return null;
      let image = images.get(row);
      if (!image) {
        image = responsiveImage(row);
        images.set(row, image);
      }
      return image;
    },
    fingerprint: createHash("sha256")
      .update(
        JSON.stringify(sorted.map((row) => [row.key, row.width, row.height, row.alt, row.decorative, row.sourcePath])),
      )
      .digest("hex")
      .slice(0, 16),
  };
}
