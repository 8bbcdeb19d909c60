import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { MediaItemView, MediaUseView, PictureChoicesAnswer } from "#shared/admin/pages.ts";
import { adminHref, type AdminRouteName } from "#shared/admin/routes.ts";
import type { ContentKind } from "#shared/content/documents.ts";
import { type MediaFormat, mediaReference } from "#shared/media.ts";
import type { Database } from "../../db/client.ts";
import { media } from "../../db/schema.ts";
import {
  type MediaUsage,
  mediaUsage,
  type TestimonialLogos,
  testimonialLogos,
  testimonialUsesIn,
  usesOf,
} from "../../content/media-usage.ts";
import type { TestimonialKind } from "../../content/testimonials.ts";
import { choiceColumns, offeredPictures, pictureName, thumbnailOf } from "../../media/media-choices.ts";
import { storedBytes } from "../../media/media-store.ts";

// The library's queries for its pages: a page of pictures with where each is used, and one picture.

export const MEDIA_PAGE_SIZE = 48;

/** A picture without alt text and not decorative: not offered to content yet. */
const needsAlt = and(eq(media.alt, ""), eq(media.decorative, false));

/**
 * The back office's editor of an item, by the route the table names for each kind ("article",
 * and the projects' and team's screens as they come), or null where there is none yet.
 */
const EDITOR_ROUTE = {
  article: "article",
  project: "project",
  "team-member": "teamMember",
  testimonial: "testimonial",
  "client-logo": "clientLogo",
} as const satisfies Record<ContentKind | TestimonialKind, AdminRouteName>;

function editorHref(kind: ContentKind | TestimonialKind, id: string): string {
  return adminHref(EDITOR_ROUTE[kind], { id });
}

type MediaRowFull = typeof media.$inferSelect;

function itemView(
  row: MediaRowFull,
  usage: MediaUsage,
  logos: TestimonialLogos,
  bytes: Map<string, number>,
): MediaItemView {
  const usedIn: MediaUseView[] = [...usesOf(usage, row), ...testimonialUsesIn(logos, row)].map((use) => ({
    kind: use.kind,
    title: use.title,
    trashed: use.trashed,
    href: editorHref(use.kind, use.id),
  }));
  return {
    id: row.id,
    key: row.key,
    fileName: row.fileName,
    format: row.format as MediaFormat,
    width: row.width,
    height: row.height,
    uploadedBytes: row.uploadedBytes,
    storedBytes: bytes.get(row.id) ?? 0,
    alt: row.alt,
    decorative: row.decorative,
    thumbnail: thumbnailOf(row),
    reference: mediaReference(row.key, row.format as MediaFormat),
    sourcePath: row.sourcePath,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdByLabel,
    usedIn,
  };
}

/** One page of the library, newest first (only those needing alt text with `needsAltOnly`), and the counts. */
export async function listMedia(
  db: Database,
  filter: { needsAltOnly: boolean },
  pageNumber: number,
): Promise<{ items: MediaItemView[]; more: boolean; total: number; needsAlt: number }> {
  const where: SQL | undefined = filter.needsAltOnly ? needsAlt : undefined;
  const [rows, [totals], [missing], usage] = await Promise.all([
    db
      .select()
      .from(media)
      .where(where)
      .orderBy(desc(media.createdAt), asc(media.fileName), asc(media.id))
      .limit(MEDIA_PAGE_SIZE + 1)
      .offset((pageNumber - 1) * MEDIA_PAGE_SIZE),
    db.select({ n: count() }).from(media),
    db.select({ n: count() }).from(media).where(needsAlt),
    mediaUsage(db),
  ]);
  const logos = await testimonialLogos(db);
  const shown = rows.slice(0, MEDIA_PAGE_SIZE);
  const bytes = await storedBytes(
    db,
    shown.map((row) => row.id),
  );
  return {
    items: shown.map((row) => itemView(row, usage, logos, bytes)),
    more: rows.length > MEDIA_PAGE_SIZE,
    total: totals!.n,
    needsAlt: missing!.n,
  };
}

/** One picture, or undefined. */
export async function loadMediaItem(db: Database, id: string): Promise<MediaItemView | undefined> {
  const [row] = await db.select().from(media).where(eq(media.id, id));
  if (!row) return undefined;
  const [usage, logos, bytes] = await Promise.all([mediaUsage(db), testimonialLogos(db), storedBytes(db, [row.id])]);
  return itemView(row, usage, logos, bytes);
}

/** The picture chooser's page size: one query of at most 49 rows, whatever the library holds. */
export const PICTURE_CHOICES_PAGE_SIZE = 48;

/** A LIKE pattern that finds `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * One page of the pictures content may use (alt text given, or decorative), newest first, those
 * whose alt text, file name or old address holds `q` (any case) when it is given.
 */
export async function pictureChoicesPage(
  db: Database,
  filter: { q: string; page: number },
): Promise<PictureChoicesAnswer> {
  const found = filter.q
    ? sql`(${media.alt} || ' ' || ${media.fileName} || ' ' || coalesce(${media.sourcePath}, '')) ilike ${containing(filter.q)}`
    : undefined;
  const rows = await db
    .select({ id: media.id, ...choiceColumns })
    .from(media)
    .where(and(offeredPictures, found))
    .orderBy(desc(media.createdAt), asc(media.fileName), asc(media.id))
    .limit(PICTURE_CHOICES_PAGE_SIZE + 1)
    .offset((filter.page - 1) * PICTURE_CHOICES_PAGE_SIZE);
  return {
    items: rows.slice(0, PICTURE_CHOICES_PAGE_SIZE).map((row) => ({
      mediaId: row.id,
      src: row.sourcePath ?? mediaReference(row.key, row.format as MediaFormat),
      name: pictureName(row),
      alt: row.decorative ? "" : row.alt,
      decorative: row.decorative,
      thumbnail: thumbnailOf(row),
      fileName: row.fileName,
    })),
    page: filter.page,
    more: rows.length > PICTURE_CHOICES_PAGE_SIZE,
  };
}
