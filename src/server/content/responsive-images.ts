import type { Database } from "../db/client.ts";
import { media } from "../db/schema.ts";
import { storedContentVersion, watchedContentVersion } from "./data-version.ts";
import { type MediaIndex, type MediaRow, mediaIndexOf } from "./media-index.ts";

export {
  FALLBACK_WIDTH,
  type ImageResolver,
  type MediaIndex,
  type MediaRow,
  mediaIndexOf,
  responsiveImage,
} from "./media-index.ts";

// How the public pages draw a library picture: a content reference (a document's imageUrl, the src
// of a Markdown image) turned into every width of its ladder in AVIF, WebP and JPEG, with its shape
// and its words (src/shared/media.ts, ResponsiveImage). The library is small, so its rows are read
// once per content version and kept in memory; a change to a picture moves the version as a change
// to an article does (docs/decisions/041-responsive-images.md). Reads `media`, never writes it.

/** Reads every picture's row: a few hundred small rows at most, never the files. */
export async function readMediaRows(db: Database): Promise<MediaRow[]> {
  return db
    .select({
      key: media.key,
      width: media.width,
      height: media.height,
      alt: media.alt,
      decorative: media.decorative,
      sourcePath: media.sourcePath,
    })
    .from(media);
}

/** The index of each database, with the content version it was read at. */
const kept = new WeakMap<Database, { version: string; index: Promise<MediaIndex> }>();

/**
 * The library's index as of the content version: read when the version has moved since it was
 * last read (one query), else the one kept. The version comes from this process's watcher of `db`
 * when there is one (no query), else from the database. It is read before the rows, so rows
 * changed meanwhile are at worst read again at the next version, never kept past it.
 */
export async function mediaIndex(db: Database): Promise<MediaIndex> {
  const version = watchedContentVersion(db) ?? (await storedContentVersion(db));
  const current = kept.get(db);
  if (current?.version === version) return current.index;
  const index = readMediaRows(db).then(mediaIndexOf);
  kept.set(db, { version, index });
  // A failed read is not kept: the next request tries again.
  index.catch(() => {
    if (kept.get(db)?.index === index) kept.delete(db);
  });
  return index;
}
