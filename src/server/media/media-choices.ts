import { asc, desc, eq, ne, or } from "drizzle-orm";
import { type MediaFormat, mediaReference, mediaVariantPath, variantWidths } from "#shared/media.ts";
import type { Database } from "../db/client.ts";
import { media } from "../db/schema.ts";

// The pictures an editor may choose (an article's cover, a project's image, a member's photo):
// the media library's pictures, newest first, by the reference content stores
// (src/shared/media.ts, mediaReference), with what the chooser shows of each.
// The rule (docs/decisions/040-the-media-library.md): a picture is offered once it has alt text
// or is marked decorative; the library's page lists the others as "Needs alt text".

export type MediaChoice = {
  /** What the document stores: /media/<key>/original.<ext>, or the /images/… address of a picture brought in from public/images. */
  url: string;
  /** The file name (a picture brought in from public/images: its old address in words), for the chooser. */
  label: string;
  /** A small variant to show in the chooser; null when there is none. */
  thumbnail: string | null;
  /** The library's alt text; "" when decorative. */
  alt: string;
  decorative: boolean;
};

/** "/images/articles/arc-flash-studies.svg" → "Arc flash studies (articles)", as the chooser named these pictures before. */
export function oldAddressLabel(sourcePath: string): string {
  const parts = sourcePath.replace(/^\/images\//, "").split("/");
  const name = parts
    .pop()!
    .replace(/\.[a-z]+$/i, "")
    .replace(/[-_]+/g, " ")
    .trim();
  const words = name.charAt(0).toUpperCase() + name.slice(1);
  return parts.length ? `${words} (${parts.join("/")})` : words;
}

/** The smallest width of a picture's ladder, in WebP: the thumbnail the back office shows. */
export function thumbnailOf(picture: { key: string; width: number }): string {
  return mediaVariantPath(picture.key, variantWidths(picture.width)[0]!, "webp");
}

export async function mediaChoices(db: Database): Promise<MediaChoice[]> {
  const rows = await db
    .select({
      key: media.key,
      format: media.format,
      width: media.width,
      fileName: media.fileName,
      alt: media.alt,
      decorative: media.decorative,
      sourcePath: media.sourcePath,
    })
    .from(media)
    .where(or(eq(media.decorative, true), ne(media.alt, "")))
    .orderBy(desc(media.createdAt), asc(media.fileName));
  return rows.map((row) => ({
    url: row.sourcePath ?? mediaReference(row.key, row.format as MediaFormat),
    label: row.sourcePath ? oldAddressLabel(row.sourcePath) : row.fileName,
    thumbnail: thumbnailOf(row),
    alt: row.alt,
    decorative: row.decorative,
  }));
}
