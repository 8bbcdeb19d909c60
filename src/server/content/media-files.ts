import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { parse as parseYaml, stringify } from "yaml";
import { z } from "zod";
import { MEDIA_EXTENSIONS, MEDIA_KEY_PATTERN, MEDIA_LIMITS, type MediaFormat } from "#shared/media.ts";
import { hasControlCharacters, lineBreakOrTab } from "#shared/schemas/text-rules.ts";
import type { Database, Transaction } from "../db/client.ts";
import { media, mediaFiles } from "../db/schema.ts";
import { insertPicture, mediaProcessing } from "../media/media-store.ts";
import {
  keyOf,
  inspectPicture,
  MediaRefusal,
  MEDIA_CONTENT_TYPES,
  originalName,
  pictureWeight,
  type PreparedPicture,
  preparePicture,
  sizeIfKeptAsIs,
} from "../media/pipeline.ts";
import { sniffPicture } from "../media/sniff.ts";

// The media library as files (docs/content.md, docs/decisions/040-the-media-library.md): the
// folder media/ of a content folder holds each picture's kept original as <key>.<jpg|png|webp|avif>
// and a small <key>.yaml beside it (key, file name, alt text, decorative, the old /images/ address
// of a picture brought in from public/images). The seed and content:import read it; content:export
// writes it. A file whose SHA-256 begins with its key may be the library's own clean output (an
// export, or the committed seed): it is stored as it is, unprocessed, once it is shown to hold its
// picture alone (no EXIF, GPS, XMP, ICC profile, comment or private part) and to decode to its end
// (sizeIfKeptAsIs); a name is no proof, since anyone can name a file by its hash. Any other goes
// through the whole upload pipeline (it may then get another key, which the import says).

export const MEDIA_FOLDER = "media";

/** An old address of a picture brought in from public/images. */
export const OLD_IMAGE_ADDRESS = /^\/images\/[a-z0-9/_-]+\.(?:svg|png|jpe?g|webp|avif)$/;

/** One picture of a content folder's media/. */
export type MediaFileEntry = {
  /** Its picture's file, relative to the content folder: media/<key>.png. */
  file: string;
  key: string;
  format: MediaFormat;
  bytes: Buffer;
  fileName: string;
  alt: string;
  decorative: boolean;
  sourcePath: string | null;
};

export type MediaProblem = { file: string; field: string; message: string };

const mediaYaml = z.strictObject({
  key: z.string({ error: "must be text" }).regex(MEDIA_KEY_PATTERN, "must be 16 lower-case hexadecimal digits"),
  fileName: z
    .string({ error: "must be text" })
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .refine((value) => !hasControlCharacters(value) && !lineBreakOrTab.test(value), "must be one line of text"),
  alt: z
    .string({ error: "must be text" })
    .trim()
    .max(300, "must be at most 300 characters")
    .refine((value) => !hasControlCharacters(value) && !lineBreakOrTab.test(value), "must be one line of text")
    .default(""),
  decorative: z.boolean({ error: "must be true or false" }).default(false),
  sourcePath: z
    .string({ error: "must be text" })
    .max(300, "must be at most 300 characters")
    .regex(OLD_IMAGE_ADDRESS, "must be an old address under /images/")
    .optional(),
});

const EXTENSION_FORMATS: Record<string, MediaFormat> = { jpg: "jpeg", png: "png", webp: "webp", avif: "avif" };

/** Reads media/ of a content folder: each picture with its YAML, or a problem naming the file. */
export async function readMediaFolder(
  contentDir: string,
): Promise<{ media: MediaFileEntry[]; problems: MediaProblem[] }> {
  const dir = path.join(contentDir, MEDIA_FOLDER);
  const result: { media: MediaFileEntry[]; problems: MediaProblem[] } = { media: [], problems: [] };
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return result;
    throw error;
  }
  const problem = (name: string, field: string, message: string) =>
    result.problems.push({ file: path.posix.join(MEDIA_FOLDER, name), field, message });
  const pictures = new Map<string, string[]>();
  for (const name of names) {
    const match = /^(.+)\.(jpg|png|webp|avif)$/.exec(name);
    if (match) pictures.set(match[1]!, [...(pictures.get(match[1]!) ?? []), name]);
  }
  for (const name of names.filter((candidate) => candidate.endsWith(".yaml"))) {
    const stem = name.slice(0, -".yaml".length);
    if (!MEDIA_KEY_PATTERN.test(stem)) {
      problem(name, "(file name)", "must be the picture's key (16 lower-case hexadecimal digits) and .yaml");
      continue;
    }
    try {
      const source = await readFile(path.join(dir, name), "utf8");
      if (hasControlCharacters(source)) {
        problem(name, "(file)", "must not contain control characters");
        continue;
      }
      const parsed = mediaYaml.safeParse(parseYaml(source));
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          problem(
            name,
            issue.path.length ? issue.path.join(".") : "(file)",
            issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message,
          );
        continue;
      }
      if (parsed.data.key !== stem) {
        problem(name, "key", `must be the file's name (${stem})`);
        continue;
      }
      const found = pictures.get(stem) ?? [];
      pictures.delete(stem);
      if (found.length !== 1) {
        problem(
          name,
          "(picture)",
          found.length
            ? `has ${found.length} pictures beside it (${found.join(", ")}); keep one`
            : `has no picture ${stem}.<jpg|png|webp|avif> beside it`,
        );
        continue;
      }
      const pictureName = found[0]!;
      const size = (await stat(path.join(dir, pictureName))).size;
      if (size > MEDIA_LIMITS.bytes) {
        problem(pictureName, "(file)", `is ${(size / 1024 / 1024).toFixed(1)} MB; a picture may be at most 20 MB`);
        continue;
      }
      const bytes = await readFile(path.join(dir, pictureName));
      const sniffed = sniffPicture(bytes);
      const extension = pictureName.slice(pictureName.lastIndexOf(".") + 1);
      if (!sniffed.format || sniffed.format !== EXTENSION_FORMATS[extension]) {
        problem(pictureName, "(file)", `is not a ${extension === "jpg" ? "JPEG" : extension.toUpperCase()} picture`);
        continue;
      }
      result.media.push({
        file: path.posix.join(MEDIA_FOLDER, pictureName),
        key: stem,
        format: sniffed.format,
        bytes,
        fileName: parsed.data.fileName,
        alt: parsed.data.decorative ? "" : parsed.data.alt,
        decorative: parsed.data.decorative,
        sourcePath: parsed.data.sourcePath ?? null,
      });
    } catch (error) {
      problem(name, "(file)", `could not be read or parsed: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  for (const [stem, found] of pictures)
    for (const name of found) problem(name, "(file)", `has no ${stem}.yaml beside it (file name, alt text)`);
  // One old address, one picture.
  const bySource = new Map<string, string>();
  result.media = result.media.filter((entry) => {
    if (!entry.sourcePath) return true;
    const other = bySource.get(entry.sourcePath);
    if (!other) {
      bySource.set(entry.sourcePath, entry.key);
      return true;
    }
    problem(`${entry.key}.yaml`, "sourcePath", `is ${other}.yaml's already`);
    return false;
  });
  return result;
}

/** What the importer says of a picture it weighed. */
export type MediaImportLine = { file: string; title: string; detail: string; added: boolean };

/**
 * Brings a content folder's pictures into the library, in the importer's transaction. A picture
 * whose key is in the library already is left as the library has it (its alt text is the
 * library's); a new one is added. A file whose bytes hash to its key, holding its picture alone and
 * decoding to its end, is stored as it is (only its original: every variant is made when first
 * asked for); any other goes through the pipeline. Either is weighed in the media processing line
 * (media-store.ts), one picture at a time, as an upload is: an import waits its turn rather than
 * adding to the pictures being made at once.
 */
export async function importMediaFiles(
  tx: Transaction,
  entries: MediaFileEntry[],
  actor: { label: string },
): Promise<{ lines: MediaImportLine[]; unchanged: number; problems: MediaProblem[] }> {
  const lines: MediaImportLine[] = [];
  const problems: MediaProblem[] = [];
  let unchanged = 0;
  const known = new Map(
    (await tx.select({ key: media.key, sourcePath: media.sourcePath }).from(media)).map((row) => [row.key, row]),
  );
  const sources = new Map([...known.values()].filter((row) => row.sourcePath).map((row) => [row.sourcePath!, row.key]));
  for (const entry of entries) {
    if (known.has(entry.key)) {
      unchanged += 1;
      continue;
    }
    const line = (detail: string, added = true) =>
      lines.push({ file: entry.file, title: entry.fileName, detail, added });
    const holder = entry.sourcePath ? sources.get(entry.sourcePath) : undefined;
    if (holder) {
      line(`its old address ${entry.sourcePath} is the picture ${holder}'s already`, false);
      continue;
    }
    let weighed:
      { clean: true; picture: Omit<PreparedPicture, "width" | "height"> } | { clean: false; picture: PreparedPicture };
    try {
      // The import holds one place in line at a time, so it may wait as long as the line takes;
      // its job is weighed from the header as an upload's is (a file refused here is a problem).
      const inspected = await inspectPicture(entry.bytes, entry.fileName);
      weighed = await mediaProcessing.run(Number.POSITIVE_INFINITY, pictureWeight(inspected), async () => {
        const size = keyOf(entry.bytes) === entry.key ? await sizeIfKeptAsIs(entry.bytes, entry.format) : undefined;
        if (!size)
          return { clean: false as const, picture: await preparePicture(entry.bytes, entry.fileName, inspected) };
        const original = {
          name: originalName(entry.format),
          contentType: MEDIA_CONTENT_TYPES[entry.format],
          width: size.width,
          height: size.height,
          bytes: entry.bytes,
        };
        return { clean: true as const, picture: { key: entry.key, format: entry.format, original, variants: [] } };
      });
    } catch (error) {
      if (!(error instanceof MediaRefusal)) throw error;
      problems.push({ file: entry.file, field: "(file)", message: error.message });
      continue;
    }
    const { clean, picture } = weighed;
    if (!clean && known.has(picture.key)) {
      line(`made again through the pipeline, it is the library's picture ${picture.key}`, false);
      continue;
    }
    await insertPicture(tx, {
      ...picture,
      fileName: entry.fileName,
      uploadedBytes: entry.bytes.length,
      alt: entry.alt,
      decorative: entry.decorative,
      sourcePath: entry.sourcePath,
      createdBy: { id: null, label: actor.label },
    });
    known.set(picture.key, { key: picture.key, sourcePath: entry.sourcePath });
    if (entry.sourcePath) sources.set(entry.sourcePath, picture.key);
    line(
      clean
        ? "added as it is"
        : `added through the pipeline: its key is ${picture.key}${picture.key === entry.key ? "" : `, not ${entry.key} (content naming /media/${entry.key}/ shows no picture)`}`,
    );
  }
  return { lines, unchanged, problems };
}

/** The YAML of a picture, canonical: fixed key order, sourcePath only when it has one. */
export function mediaYamlText(entry: {
  key: string;
  fileName: string;
  alt: string;
  decorative: boolean;
  sourcePath: string | null;
}): string {
  const file: Record<string, unknown> = {
    key: entry.key,
    fileName: entry.fileName,
    alt: entry.alt,
    decorative: entry.decorative,
  };
  if (entry.sourcePath) file.sourcePath = entry.sourcePath;
  return stringify(file, { lineWidth: 0 });
}

/** Every picture of the library as files (the kept original and its YAML), by file name, oldest first. */
export async function mediaExportFiles(
  db: Database,
): Promise<{ files: Map<string, Buffer | string>; lines: { file: string; title: string }[] }> {
  const rows = await db.select().from(media).orderBy(media.key);
  const files = new Map<string, Buffer | string>();
  const lines: { file: string; title: string }[] = [];
  for (const row of rows) {
    const format = row.format as MediaFormat;
    const [original] = await db
      .select({ bytes: mediaFiles.bytes })
      .from(mediaFiles)
      .where(and(eq(mediaFiles.mediaId, row.id), eq(mediaFiles.name, originalName(format))));
    if (!original) continue;
    const picture = path.posix.join(MEDIA_FOLDER, `${row.key}.${MEDIA_EXTENSIONS[format]}`);
    files.set(picture, Buffer.from(original.bytes));
    files.set(path.posix.join(MEDIA_FOLDER, `${row.key}.yaml`), mediaYamlText(row));
    lines.push({ file: picture, title: row.fileName });
  }
  return { files, lines };
}

/** Whether a file name in media/ is one content:export writes (and so may remove when it no longer does). */
export const isLibraryFileName = (name: string) => /^[0-9a-f]{16}\.(?:yaml|jpg|png|webp|avif)$/.test(name);
