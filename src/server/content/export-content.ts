import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { asc, inArray, sql } from "drizzle-orm";
import { stringify } from "yaml";
import type { ArticleDocument, ContentKind, ProjectDocument, TeamMemberDocument } from "#shared/content/documents.ts";
import { INDIA_OFFSET_MS, INDIA_UTC_OFFSET } from "#shared/india-time.ts";
import type { Database } from "../db/client.ts";
import { blogPosts, contentRedirects, contentRevisions } from "../db/schema.ts";
import { CONTENT_FOLDERS } from "./load-content.ts";
import { isLibraryFileName, MEDIA_FOLDER, mediaExportFiles } from "./media-files.ts";
import { canonicalDocument, contentTables, type DocumentOf } from "./revisions.ts";
import { TESTIMONIAL_FOLDERS, testimonialExportFiles } from "./testimonial-files.ts";
import type { TestimonialKind } from "./testimonials.ts";

// `npm run content:export`: the database's articles, projects and team members written as a
// content folder (docs/decisions/038-the-database-holds-the-content.md, section 6), in the format
// load-content.ts reads, written canonically so that export, import, export gives the same bytes.
// Each item is written as the public sees it: a public or scheduled item as its published
// revision, a draft or unpublished article as its head with `draft: true`. Trashed items, and the
// changes of a public item not published yet, are listed as not exported.

/** One file written, or one item left out and why. */
export type ExportLine = {
  kind: ContentKind | TestimonialKind | "redirect" | "media";
  file: string;
  title: string;
  detail: string;
};

export type ExportSummary = {
  written: ExportLine[];
  /** Files of the three folders (and library files of media/) that no item wrote, removed. */
  removed: string[];
  notExported: ExportLine[];
};

const yamlOptions = { lineWidth: 0 } as const;

/** `2025-01-05` when the moment is midnight in India, else `2025-01-05T09:30:00+05:30` (seconds' fractions kept). */
export function exportDate(iso: string): string {
  const moment = new Date(iso);
  const local = new Date(moment.getTime() + INDIA_OFFSET_MS).toISOString();
  const [day, time] = [local.slice(0, 10), local.slice(11, 23)];
  if (time === "00:00:00.000") return day;
  return `${day}T${time.endsWith(".000") ? time.slice(0, 8) : time}${INDIA_UTC_OFFSET}`;
}

/** The text of an article file: front matter in a fixed order, then the body and one newline. */
export function articleFileText(document: ArticleDocument, draft: boolean): string {
  const front: Record<string, unknown> = { title: document.title };
  if (document.excerpt) front.excerpt = document.excerpt;
  if (document.category) front.category = document.category;
  if (document.imageUrl) front.image = document.imageUrl;
  if (document.imageAlt) front.imageAlt = document.imageAlt;
  if (document.publishedAt) front.publishedAt = exportDate(document.publishedAt);
  if (document.author) front.author = document.author;
  if (draft) front.draft = true;
  return `---\n${stringify(front, yamlOptions)}---\n${document.body ? `\n${document.body}\n` : ""}`;
}

export function projectFileText(document: ProjectDocument): string {
  const file: Record<string, unknown> = {
    title: document.title,
    description: document.description,
    category: document.category,
    image: document.imageUrl,
    year: document.year,
  };
  if (document.capacity) file.capacity = document.capacity;
  if (document.timeline) file.timeline = document.timeline;
  return stringify(file, yamlOptions);
}

/** A member's file: their document, and `order`, the place the team gives them now (decision 043). */
export function teamMemberFileText(document: TeamMemberDocument, order: number): string {
  const file: Record<string, unknown> = {
    name: document.name,
    title: document.title,
    expertise: document.expertise,
    image: document.imageUrl,
  };
  if (document.email) file.email = document.email;
  if (document.linkedinUrl) file.linkedinUrl = document.linkedinUrl;
  file.order = order;
  return stringify(file, yamlOptions);
}

type ExportRow = {
  id: string;
  label: string | null;
  status: string;
  publishedAt: Date | null;
  headRevisionId: number | null;
  publishedRevisionId: number | null;
  deletedAt: Date | null;
  /** A team member's place in the team (null for the other kinds). */
  order: number | null;
};

async function rowsOf(db: Database, kind: ContentKind): Promise<ExportRow[]> {
  const table = contentTables[kind].table as unknown as typeof blogPosts;
  return (await db
    .select({
      id: table.id,
      label: kind === "team-member" ? contentTables["team-member"].table.name : table.title,
      status: table.status,
      publishedAt: kind === "article" ? blogPosts.publishedAt : sql<null>`null`,
      headRevisionId: table.headRevisionId,
      publishedRevisionId: table.publishedRevisionId,
      deletedAt: table.deletedAt,
      order: kind === "team-member" ? contentTables["team-member"].table.order : sql<null>`null`,
    })
    .from(table)) as ExportRow[];
}

async function documents(
  db: Database,
  ids: number[],
): Promise<Map<number, { document: Record<string, unknown>; number: number; by: string }>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      id: contentRevisions.id,
      document: contentRevisions.document,
      number: contentRevisions.number,
      by: contentRevisions.authorLabel,
    })
    .from(contentRevisions)
    .where(inArray(contentRevisions.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Writes every item that is not in the trash into `outDir` (articles/, projects/, team/ and
 * redirects.yaml) and removes the other .md and .yaml files of those three folders; and every
 * picture of the media library into media/, removing the library files no picture wrote.
 */
export async function exportContent(db: Database, outDir: string): Promise<ExportSummary> {
  const summary: ExportSummary = { written: [], removed: [], notExported: [] };
  const writtenFiles = new Set<string>();
  const slugsById = new Map<string, string>();
  const files = new Map<string, string>();

  for (const kind of ["article", "project", "team-member"] as const) {
    const rows = await rowsOf(db, kind);
    const revisions = await documents(
      db,
      rows.flatMap((row) => [row.headRevisionId, row.publishedRevisionId]).filter((id): id is number => id !== null),
    );
    const entries: { file: string; text: string; line: ExportLine }[] = [];
    for (const row of rows) {
      const head = row.headRevisionId === null ? undefined : revisions.get(row.headRevisionId);
      const published = row.publishedRevisionId === null ? undefined : revisions.get(row.publishedRevisionId);
      const shown = row.status === "published" ? published : head;
      const title = row.label ?? String((kind === "team-member" ? shown?.document.name : shown?.document.title) ?? "");
      const folder = CONTENT_FOLDERS[kind];
      const slugOf = (revision: typeof shown) => String(revision?.document.slug ?? "");
      const fileOf = (slug: string) => path.posix.join(folder, `${slug}${kind === "article" ? ".md" : ".yaml"}`);
      const leftOut = (detail: string) =>
        summary.notExported.push({ kind, file: fileOf(slugOf(shown ?? head) || row.id), title, detail });
      if (row.deletedAt) {
        leftOut("in the trash");
        continue;
      }
      if (!shown) {
        leftOut("has no revision yet");
        continue;
      }
      if (row.status !== "published" && kind !== "article") {
        leftOut(`is ${row.status}: only articles can be written as drafts`);
        continue;
      }
      const slug = slugOf(shown);
      if (!slug) {
        leftOut("has no slug yet");
        continue;
      }
      let text: string;
      if (kind === "article") {
        const document = canonicalDocument("article", shown.document as unknown as ArticleDocument);
        if (row.status === "published") {
          // The time the public sees: the published copy's.
          if (row.publishedAt) document.publishedAt = new Date(row.publishedAt).toISOString();
        } else if (!document.title) {
          leftOut("is a draft without a title");
          continue;
        }
        text = articleFileText(document, row.status !== "published");
      } else if (kind === "project") {
        text = projectFileText(canonicalDocument("project", shown.document as unknown as DocumentOf<"project">));
      } else {
        text = teamMemberFileText(
          canonicalDocument("team-member", shown.document as unknown as DocumentOf<"team-member">),
          row.order ?? 0,
        );
      }
      const file = fileOf(slug);
      slugsById.set(row.id, slug);
      entries.push({
        file,
        text,
        line: { kind, file, title, detail: row.status === "published" ? "published" : `${row.status} (draft: true)` },
      });
      if (row.status === "published" && head && published && row.headRevisionId !== row.publishedRevisionId) {
        summary.notExported.push({
          kind,
          file,
          title,
          detail: `its changes since publishing (revision ${head.number} by ${head.by}) are not published, so not exported`,
        });
      }
    }
    for (const entry of entries.sort((a, b) => a.file.localeCompare(b.file))) {
      files.set(entry.file, entry.text);
      writtenFiles.add(entry.file);
      summary.written.push(entry.line);
    }
  }

  // Testimonials and client logos (testimonial-files.ts).
  const quoted = await testimonialExportFiles(db);
  for (const [file, text] of quoted.files) {
    files.set(file, text);
    writtenFiles.add(file);
  }
  summary.written.push(...quoted.written);
  summary.notExported.push(...quoted.notExported);

  // Old addresses of the items exported, by kind and old slug.
  const redirects = await db
    .select()
    .from(contentRedirects)
    .orderBy(asc(contentRedirects.kind), asc(contentRedirects.oldSlug));
  const redirectFile: Record<string, Record<string, string>> = {};
  for (const redirect of redirects) {
    const slug = slugsById.get(redirect.articleId ?? redirect.projectId ?? "");
    if (!slug) continue;
    const key = redirect.kind === "article" ? "articles" : "projects";
    (redirectFile[key] ??= {})[redirect.oldSlug] = slug;
    summary.written.push({
      kind: "redirect",
      file: "redirects.yaml",
      title: `${redirect.kind === "article" ? "/blog" : "/projects"}/${redirect.oldSlug}`,
      detail: `leads to ${slug}`,
    });
  }
  const ordered = Object.fromEntries(
    ["articles", "projects"].filter((key) => redirectFile[key]).map((key) => [key, redirectFile[key]]),
  );
  files.set("redirects.yaml", stringify(ordered, yamlOptions));

  // The media library: each picture's kept original and its YAML (media-files.ts).
  const pictures = await mediaExportFiles(db);
  for (const picture of pictures.lines)
    summary.written.push({ kind: "media", file: picture.file, title: picture.title, detail: "picture" });
  await mkdir(path.join(outDir, MEDIA_FOLDER), { recursive: true });
  for (const [file, bytes] of pictures.files) await writeFile(path.join(outDir, file), bytes);
  for (const name of (await readdir(path.join(outDir, MEDIA_FOLDER))).sort()) {
    const file = path.posix.join(MEDIA_FOLDER, name);
    if (!isLibraryFileName(name) || pictures.files.has(file)) continue;
    await rm(path.join(outDir, MEDIA_FOLDER, name), { force: true });
    summary.removed.push(file);
  }

  const folders = [...Object.values(CONTENT_FOLDERS), ...Object.values(TESTIMONIAL_FOLDERS)];
  for (const folder of folders) await mkdir(path.join(outDir, folder), { recursive: true });
  for (const [file, text] of files) await writeFile(path.join(outDir, file), text);
  for (const folder of folders) {
    const entries = await readdir(path.join(outDir, folder), { withFileTypes: true });
    for (const name of entries
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort()) {
      const file = path.posix.join(folder, name);
      if (!/\.(md|yaml)$/.test(name) || writtenFiles.has(file)) continue;
      await rm(path.join(outDir, folder, name), { force: true });
      summary.removed.push(file);
    }
  }
  return summary;
}
