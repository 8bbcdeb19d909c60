import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { MEDIA_EXTENSIONS, type MediaFormat, mediaReference } from "#shared/media.ts";
import { bumpContentVersion, refreshContentVersion } from "#server/content/data-version.ts";
import type { Database } from "#server/db/client.ts";
import { media, mediaFiles } from "#server/db/schema.ts";

// Pictures of the media library for the public pages' tests, made as the library keeps them: a
// real picture encoded by sharp, its row in `media` (keyed by the first 16 hex digits of the
// SHA-256 of the kept original) and that original in `media_files`; the content version then
// moves, as any change the public pages show moves it. The widths of the ladder are not stored:
// the pages only need the row, and the serving route makes a missing width from the original.

export type TestPicture = { id: string; key: string; reference: string; width: number; height: number };

let made = 0;

export async function addLibraryPicture(
  db: Database,
  options: {
    width: number;
    height: number;
    format?: Extract<MediaFormat, "jpeg" | "png">;
    alt?: string;
    decorative?: boolean;
    /** The old /images/… address content may still name it by. */
    sourcePath?: string;
  },
): Promise<TestPicture> {
  const format = options.format ?? "jpeg";
  made += 1;
  // A colour of its own, so every picture made has a key of its own.
  const background = { r: (made * 53) % 256, g: (made * 101) % 256, b: (made * 197) % 256 };
  const picture = sharp({ create: { width: options.width, height: options.height, channels: 3, background } });
  const bytes = await (format === "png" ? picture.png() : picture.jpeg({ quality: 80 })).toBuffer();
  const key = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const [row] = await db
    .insert(media)
    .values({
      key,
      fileName: `test-picture-${made}.${MEDIA_EXTENSIONS[format]}`,
      format,
      width: options.width,
      height: options.height,
      uploadedBytes: bytes.length,
      alt: options.alt ?? "",
      decorative: options.decorative ?? false,
      sourcePath: options.sourcePath ?? null,
      createdByLabel: "Test Writer",
    })
    .returning({ id: media.id });
  await db.insert(mediaFiles).values({
    mediaId: row!.id,
    name: `original.${MEDIA_EXTENSIONS[format]}`,
    contentType: `image/${format}`,
    width: options.width,
    height: options.height,
    bytes,
  });
  await libraryChanged(db);
  return { id: row!.id, key, reference: mediaReference(key, format), width: options.width, height: options.height };
}

/** Changes a picture's words as the library's editor would, and moves the content version. */
export async function setPictureWords(
  db: Database,
  key: string,
  words: { alt: string; decorative: boolean },
): Promise<void> {
  await db.update(media).set(words).where(eq(media.key, key));
  await libraryChanged(db);
}

/** What every change to the library does after its write: the version moves, this process follows. */
async function libraryChanged(db: Database): Promise<void> {
  await bumpContentVersion(db);
  await refreshContentVersion(db);
}

type Attributes = Record<string, string>;
const entities: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
};
const attributesOf = (text: string): Attributes =>
  Object.fromEntries(
    [...text.matchAll(/\s([^\s=>/]+)(?:="([^"]*)")?/g)].map((part) => [
      part[1]!.toLowerCase(),
      (part[2] ?? "").replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => entities[entity] ?? entity),
    ]),
  );

/** A picture as a page's HTML draws it: its sources and its <img>. */
export type DrawnPicture = { sources: Attributes[]; img: Attributes };

/** Every <picture> of some HTML, in order. */
export function picturesIn(html: string): DrawnPicture[] {
  return [...html.matchAll(/<picture\b[^>]*>([\s\S]*?)<\/picture>/g)].map((match) => ({
    sources: [...match[1]!.matchAll(/<source\b([^>]*?)\/?>/g)].map((source) => attributesOf(source[1]!)),
    img: attributesOf(/<img\b([^>]*?)\/?>/.exec(match[1]!)?.[1] ?? ""),
  }));
}

/** Every <img> of some HTML, in order, inside a picture or not. */
export function imagesIn(html: string): Attributes[] {
  return [...html.matchAll(/<img\b([^>]*?)\/?>/g)].map((match) => attributesOf(match[1]!));
}
