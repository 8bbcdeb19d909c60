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
  /** The picture's key: older content may name it by another form of its address. */
  key: string;
  /** Its name for people (pictureName): its alt text, else its file name in words. */
  label: string;
  /** A small variant to show in the chooser; null when there is none. */
  thumbnail: string | null;
  /** The library's alt text; "" when decorative. */
  alt: string;
  decorative: boolean;
};

/** At most this many characters of alt text name a picture; a longer one is cut at a word. */
const NAME_LENGTH = 80;

/** "ieee-519_harmonics.v2.png" → "Ieee 519 harmonics v2": a file name as words. */
function fileNameWords(fileName: string): string {
  const words = fileName
    .replace(/\.[a-z0-9]+$/i, "")
    .replace(/[-_.]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Untitled picture";
}

/**
 * A picture's name in the back office's choosers and fields: its alt text (what it shows, in
 * words someone wrote), cut at a word after 80 characters; a decorative picture, which has none,
 * by its file name (or its old address's) in words.
 */
export function pictureName(picture: { alt: string; fileName: string; sourcePath: string | null }): string {
  const alt = picture.alt.replace(/\s+/g, " ").trim();
  if (alt) {
    if (alt.length <= NAME_LENGTH) return alt;
    const cut = alt.slice(0, NAME_LENGTH + 1);
    const space = cut.lastIndexOf(" ");
    return `${(space > NAME_LENGTH / 2 ? cut.slice(0, space) : cut.slice(0, NAME_LENGTH)).replace(/[\s,;:.-]+$/, "")}…`;
  }
  return fileNameWords(picture.sourcePath ? (picture.sourcePath.split("/").pop() ?? "") : picture.fileName);
}

/** The smallest width of a picture's ladder, in WebP: the thumbnail the back office shows. */
export function thumbnailOf(picture: { key: string; width: number }): string {
  return mediaVariantPath(picture.key, variantWidths(picture.width)[0]!, "webp");
}

/** The rule above: alt text given, or marked decorative. */
export const offeredPictures = or(eq(media.decorative, true), ne(media.alt, ""));

/** What a choice is made of: the picture's reference, its thumbnail and its name. */
export const choiceColumns = {
  key: media.key,
  format: media.format,
  width: media.width,
  fileName: media.fileName,
  alt: media.alt,
  decorative: media.decorative,
  sourcePath: media.sourcePath,
};

export async function mediaChoices(db: Database): Promise<MediaChoice[]> {
  const rows = await db
    .select(choiceColumns)
    .from(media)
    .where(offeredPictures)
    .orderBy(desc(media.createdAt), asc(media.fileName));
  return rows.map((row) => ({
    url: row.sourcePath ?? mediaReference(row.key, row.format as MediaFormat),
    key: row.key,
    label: pictureName(row),
    thumbnail: thumbnailOf(row),
    alt: row.alt,
    decorative: row.decorative,
  }));
}
