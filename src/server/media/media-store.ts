import { and, eq, inArray, sql } from "drizzle-orm";
import { MEDIA_VARIANT_FORMATS, type MediaFormat, type MediaVariantFormat, variantWidths } from "#shared/media.ts";
import type { Database, Tx } from "../db/client.ts";
import { media, mediaFiles } from "../db/schema.ts";
import { bumpContentVersion } from "../content/data-version.ts";
import {
  type MediaUse,
  mediaUsage,
  type TestimonialMediaUse,
  testimonialUsesOf,
  usesOf,
} from "../content/media-usage.ts";
import {
  cannotBeMadeReady,
  inspectPicture,
  makeLadder,
  makeVariant,
  MediaRefusal,
  originalName,
  type PictureFile,
  pictureWeight,
  reencodeOriginal,
  variantName,
  variantWeight,
} from "./pipeline.ts";
import { type Place, ProcessingQueue } from "./processing-queue.ts";

// The library's storage: a picture is a `media` row and its files are `media_files` rows (the kept
// original and the variants), written in one transaction, so a picture is either all there or not
// at all, and every instance serves what any instance stored. docs/decisions/040-the-media-library.md.

const MB = 1024 * 1024;
/**
 * The memory this process sets aside for making pictures: the jobs running together weigh at most
 * this (pictureWeight, variantWeight), and a heavier one runs alone. Over PostgreSQL, two
 * 12-megapixel photos at once; on the embedded database, whose own memory is in the same process,
 * one. docs/decisions/047-a-memory-budget-for-making-pictures.md.
 */
export const MEDIA_MEMORY_BUDGET = { postgres: 384 * MB, pglite: 192 * MB } as const;
/**
 * Uploads that may be arriving or waiting for a slot besides those being made (each holds its
 * file, at most 20 MB, while it waits): ten at once are taken, an eleventh waiting one is not.
 */
export const MEDIA_UPLOADS_WAITING = 10;
/** Missing variants of public pictures that may wait for a slot (each holds nothing while it waits). */
export const MEDIA_VARIANTS_WAITING = 64;

/**
 * This process's line for making pictures: uploads and missing variants share its budget, the
 * PostgreSQL one until the site sets its database's (site.ts).
 */
export const mediaProcessing = new ProcessingQueue(MEDIA_MEMORY_BUDGET.postgres);

/** A library picture as serving needs it. */
export type MediaRow = { id: string; key: string; format: MediaFormat; width: number; height: number };

export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const mediaColumns = { id: media.id, key: media.key, format: media.format, width: media.width, height: media.height };

export async function findMediaByKey(db: Database, key: string): Promise<MediaRow | undefined> {
  const [row] = await db.select(mediaColumns).from(media).where(eq(media.key, key));
  return row as MediaRow | undefined;
}

export async function readMediaFile(
  db: Database,
  mediaId: string,
  name: string,
): Promise<{ contentType: string; bytes: Buffer } | undefined> {
  const [row] = await db
    .select({ contentType: mediaFiles.contentType, bytes: mediaFiles.bytes })
    .from(mediaFiles)
    .where(and(eq(mediaFiles.mediaId, mediaId), eq(mediaFiles.name, name)));
  return row ? { contentType: row.contentType, bytes: asBuffer(row.bytes) } : undefined;
}

/** The file names a picture of this width is served under: its original and every variant. */
export function servedNames(row: Pick<MediaRow, "format" | "width">): Set<string> {
  const names = new Set([originalName(row.format)]);
  for (const width of variantWidths(row.width))
    for (const format of MEDIA_VARIANT_FORMATS) names.add(variantName(width, format));
  return names;
}

/** The width and format a variant's name stands for ("640.avif"), or undefined for the original. */
export function variantOf(name: string): { width: number; format: MediaVariantFormat } | undefined {
  const match = /^([1-9]\d{0,3})\.(avif|webp|jpg)$/.exec(name);
  if (!match) return undefined;
  return { width: Number(match[1]), format: match[2] === "jpg" ? "jpeg" : (match[2] as MediaVariantFormat) };
}

async function insertFiles(tx: Tx, mediaId: string, files: PictureFile[]) {
  if (!files.length) return;
  await tx
    .insert(mediaFiles)
    .values(files.map((file) => ({ mediaId, ...file })))
    .onConflictDoNothing();
}

export type NewPicture = {
  key: string;
  format: MediaFormat;
  original: PictureFile;
  variants: PictureFile[];
  fileName: string;
  uploadedBytes: number;
  alt?: string;
  decorative?: boolean;
  sourcePath?: string | null;
  createdBy: { id: string | null; label: string };
};

/**
 * Stores a picture in the caller's transaction: its row and its files. A picture with the same
 * key is there already: nothing is written and its id comes back with `existing`.
 */
export async function insertPicture(tx: Tx, picture: NewPicture): Promise<{ id: string; existing: boolean }> {
  const [inserted] = await tx
    .insert(media)
    .values({
      key: picture.key,
      fileName: picture.fileName,
      format: picture.format,
      width: picture.original.width,
      height: picture.original.height,
      uploadedBytes: picture.uploadedBytes,
      alt: picture.decorative ? "" : (picture.alt ?? ""),
      decorative: picture.decorative ?? false,
      sourcePath: picture.sourcePath ?? null,
      createdById: picture.createdBy.id,
      createdByLabel: picture.createdBy.label.slice(0, 200),
    })
    .onConflictDoNothing({ target: media.key })
    .returning({ id: media.id });
  if (!inserted) {
    const [existing] = await tx.select({ id: media.id }).from(media).where(eq(media.key, picture.key));
    return { id: existing!.id, existing: true };
  }
  await insertFiles(tx, inserted.id, [picture.original, ...picture.variants]);
  // Public pages draw library pictures (their alt text among them): a change moves the version.
  await bumpContentVersion(tx);
  return { id: inserted.id, existing: false };
}

export type UploadOutcome = { id: string; key: string; existing: boolean };

/**
 * An upload, from its place in line to stored: checked from its header and weighed, then, once
 * the line admits its weight, the kept original; when its key is in the library already, that
 * picture (nothing more is made); else every variant, then one transaction. Throws MediaRefusal
 * for a file the library does not take (the place is left).
 */
export async function uploadPicture(
  db: Database,
  place: Place,
  upload: { bytes: Buffer; fileName: string; createdBy: { id: string | null; label: string } },
): Promise<UploadOutcome> {
  let inspected;
  try {
    inspected = await inspectPicture(upload.bytes, upload.fileName);
  } catch (error) {
    place.leave();
    throw error;
  }
  const prepared = await place.run(pictureWeight(inspected), async () => {
    const kept = await reencodeOriginal(upload.bytes, upload.fileName, inspected);
    const found = await findMediaByKey(db, kept.key);
    if (found) return { kept, existingId: found.id, variants: [] as PictureFile[] };
    // An encoder's error is the picture's, never the site's: 422 with what to do, not a 500.
    const variants = await makeLadder(kept.original, kept.hasAlpha).catch((error: unknown) => {
      if (error instanceof MediaRefusal) throw error;
      throw cannotBeMadeReady(upload.fileName);
    });
    return { kept, existingId: undefined, variants };
  });
  const { kept } = prepared;
  if (prepared.existingId) return { id: prepared.existingId, key: kept.key, existing: true };
  const stored = await db.transaction((tx) =>
    insertPicture(tx, {
      key: kept.key,
      format: kept.format,
      original: kept.original,
      variants: prepared.variants,
      fileName: upload.fileName,
      uploadedBytes: upload.bytes.length,
      createdBy: upload.createdBy,
    }),
  );
  return { ...stored, key: kept.key };
}

/** Variants being made now in this process, by media id and name: a second request waits for the first. */
const making = new Map<string, Promise<PictureFile | undefined>>();

/**
 * A variant that is not stored yet, made from the kept original (in line, bounded), stored (a
 * variant another instance stored meanwhile wins: on conflict do nothing) and returned.
 * Undefined when the original is missing. Throws ProcessingBusy when the line is full.
 */
export async function makeMissingVariant(db: Database, row: MediaRow, name: string): Promise<PictureFile | undefined> {
  const wanted = variantOf(name);
  if (!wanted) return undefined;
  const id = `${row.id}/${name}`;
  const running = making.get(id);
  if (running) return running;
  const work = (async () => {
    const original = await readMediaFile(db, row.id, originalName(row.format));
    if (!original) return undefined;
    const file = await mediaProcessing.run(MEDIA_VARIANTS_WAITING, variantWeight(row, wanted.width), () =>
      makeVariant(original.bytes, wanted.width, wanted.format),
    );
    await insertFiles(db, row.id, [file]);
    return file;
  })();
  making.set(id, work);
  try {
    return await work;
  } finally {
    making.delete(id);
  }
}

/** Writes a picture's alt text, or marks it decorative (then its alt is ""). False: no such picture. */
export async function setAltText(
  db: Database,
  id: string,
  value: { alt: string; decorative: boolean },
): Promise<{ before: { alt: string; decorative: boolean } } | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ alt: media.alt, decorative: media.decorative })
      .from(media)
      .where(eq(media.id, id))
      .for("update");
    if (!before) return undefined;
    const next = { alt: value.decorative ? "" : value.alt, decorative: value.decorative };
    if (next.alt !== before.alt || next.decorative !== before.decorative) {
      await tx.update(media).set(next).where(eq(media.id, id));
      await bumpContentVersion(tx);
    }
    return { before };
  });
}

/** The bytes each picture keeps (original and variants together), by media id. */
export async function storedBytes(db: Database, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ mediaId: mediaFiles.mediaId, bytes: sql<string>`sum(octet_length(${mediaFiles.bytes}))` })
    .from(mediaFiles)
    .where(inArray(mediaFiles.mediaId, ids))
    .groupBy(mediaFiles.mediaId);
  return new Map(rows.map((row) => [row.mediaId, Number(row.bytes)]));
}

export type DeleteOutcome =
  | { deleted: { key: string; fileName: string; sourcePath: string | null } }
  | { inUse: (MediaUse | TestimonialMediaUse)[] }
  | undefined;

/**
 * Deletes a picture and its files, unless the content names it (mediaUsage: any article, project
 * or team member, head or published copy, trash included): then nothing changes and the items
 * come back. Undefined: no such picture.
 */
export async function deletePicture(db: Database, id: string): Promise<DeleteOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ key: media.key, fileName: media.fileName, sourcePath: media.sourcePath })
      .from(media)
      .where(eq(media.id, id))
      .for("update");
    if (!row) return undefined;
    // A testimonial's or a client logo's logo too (decision 061).
    const uses = [...usesOf(await mediaUsage(tx), row), ...(await testimonialUsesOf(tx, row))];
    if (uses.length) return { inUse: uses };
    await tx.delete(media).where(eq(media.id, id));
    await bumpContentVersion(tx);
    return { deleted: row };
  });
}
