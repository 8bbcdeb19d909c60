import path from "node:path";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { ArticleDocument, ContentKind, ProjectDocument, TeamMemberDocument } from "#shared/content/documents.ts";
import { inIndia } from "#shared/india-time.ts";
import { recordAudit } from "../admin/audit/audit.ts";
import { type Database, queryRows, type Transaction } from "../db/client.ts";
import { SCHEMA_LOCK_KEY } from "../db/migrate.ts";
import { blogPosts, contentRedirects, contentRevisions, projects, teamMembers } from "../db/schema.ts";
import { bumpContentVersion, markContentLoaded } from "./data-version.ts";
import {
  CONTENT_FOLDERS,
  type ContentProblem,
  readSiteContent,
  type SiteContent,
  type TeamMemberFile,
} from "./load-content.ts";
import { importMediaFiles, readMediaFolder } from "./media-files.ts";
import { publishRevision, unpublishItem } from "./publishing.ts";
import { appendRevision, canonicalDocument, contentTables, type DocumentOf, documentHash } from "./revisions.ts";
import { importTestimonialFiles } from "./testimonial-files.ts";
import type { TestimonialKind } from "./testimonials.ts";

// The importer: brings a content folder into the database, which holds the content
// (docs/decisions/038-the-database-holds-the-content.md, sections 1 and 6). In one transaction
// under the schema lock it compares each valid file's canonical document with the item's head
// revision and with what the studio did since the item was last imported:
//
// - the file equals the head (and says the item is public exactly when it is): nothing, said by a count;
// - the item is unchanged in the studio since its import: the file becomes a new revision (source
//   import or seed), published or taken off the site as the file says, and its origin hash;
// - the file is the one imported before (its hash is the origin hash) and the studio moved on:
//   nothing, for the studio's version rules;
// - otherwise (both changed, or the item was made in the studio): skipped and named, unless `force`.
//
// New files add items. With `prune`, an item from the files that the studio never changed and
// whose file is gone moves to the trash, except in a folder with a broken file. It never deletes a
// row, never changes a revision, never removes a redirect, a link or a presence row.

export type ImportSource = "seed" | "import";

/** What `npm run content:import` asks a running site to import (site-requests.ts): an absolute path, and the options. */
export type ImportRequest = {
  dir: string;
  options: Pick<ImportOptions, "force" | "prune" | "dryRun" | "actorLabel"> & { publicDir?: string };
};

/** What the site answers an import request: the import's summary, or why it failed. */
export type ImportAnswer = { summary: ImportSummary } | { error: string };

export type ImportOptions = {
  /** Write files over items changed in the studio (their revisions stay in history). */
  force?: boolean;
  /** Move to the trash the items from the files whose file is gone. */
  prune?: boolean;
  /** Work everything out and report it, then roll it all back. */
  dryRun?: boolean;
  /** "seed": the first start's import, once per database (the `content-seeded` key). */
  source?: ImportSource;
  /** Who imports, as revisions and the audit trail name them: "command line", "content files". */
  actorLabel?: string;
};

/** One item (or redirect) the import added, updated, trashed or skipped, by its file. */
export type ImportLine = {
  kind: ContentKind | TestimonialKind | "redirect" | "media";
  /** Its file, relative to the folder: articles/<slug>.md, team/<slug>.yaml, redirects.yaml. */
  file: string;
  /** Its title (a team member's name; a redirect's two addresses). */
  title: string;
  /** What happened, or why not: "published", "changed in the studio by Meera Shah on …". */
  detail: string;
};

export type ImportSummary = {
  added: ImportLine[];
  updated: ImportLine[];
  trashed: ImportLine[];
  skipped: ImportLine[];
  /** Files (and redirects) already as the database has them. */
  unchanged: number;
  /** Something was written (on a dry run: would have been). */
  changed: boolean;
  /** Something the public reads changed: the content version moved. */
  publicChanged: boolean;
  /** Broken files, left out. */
  problems: ContentProblem[];
  dryRun: boolean;
  /** A seed that found the database seeded already (by another instance): it wrote nothing. */
  alreadySeeded?: boolean;
};

/** Set once the first start has imported CONTENT_DIR: later starts read no content file. */
export const CONTENT_SEEDED_KEY = "content-seeded";

/** Who the seed, and the trash of a pruned item, name: the files themselves. */
export const CONTENT_FILES_LABEL = "content files";

/** An item as the importer weighs it: its bookkeeping and its head revision. */
type ItemRow = {
  id: string;
  /** The published copy's slug (null for a never-published article and a legacy team member). */
  slug: string | null;
  /** Title, or a team member's name, as published. */
  label: string | null;
  status: string;
  headRevisionId: number | null;
  publishedRevisionId: number | null;
  originHash: string | null;
  studioChangedAt: Date | null;
  studioChangedByLabel: string | null;
  deletedAt: Date | null;
  headHash: string | null;
  headDocument: Record<string, unknown> | null;
};

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "26 Nov 2026, 14:32", in India. */
export function formatStudioTime(moment: Date): string {
  const local = inIndia(moment);
  const two = (value: number) => String(value).padStart(2, "0");
  return `${local.getUTCDate()} ${months[local.getUTCMonth()]} ${local.getUTCFullYear()}, ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}`;
}

/** Why an item changed in the studio is not overwritten: "changed in the studio by Meera Shah on 26 Nov 2026, 14:32". */
function studioReason(row: ItemRow): string {
  if (!row.studioChangedAt) return "made in the studio";
  const by = row.studioChangedByLabel ? ` by ${row.studioChangedByLabel}` : "";
  const trash = row.deletedAt ? " (it is in the trash)" : "";
  return `changed in the studio${by} on ${formatStudioTime(new Date(row.studioChangedAt))}${trash}`;
}

const fileOf = (kind: ContentKind, slug: string) =>
  path.posix.join(CONTENT_FOLDERS[kind], `${slug}${kind === "article" ? ".md" : ".yaml"}`);

const addressOf = (kind: "article" | "project", slug: string) =>
  `${kind === "article" ? "/blog" : "/projects"}/${slug}`;

/** The title a line shows for a document. */
function titleOf(kind: ContentKind, document: Record<string, unknown>): string {
  return String((kind === "team-member" ? document.name : document.title) ?? "");
}

class DryRunFinished extends Error {
  constructor(readonly summary: ImportSummary) {
    super("dry run");
  }
}

async function itemRows(tx: Transaction, kind: ContentKind): Promise<ItemRow[]> {
  // The three tables share these columns (studioColumns in db/schema.ts); typed as one of them.
  const table = contentTables[kind].table as unknown as typeof blogPosts;
  const label = kind === "team-member" ? teamMembers.name : table.title;
  const rows = await tx
    .select({
      id: table.id,
      slug: table.slug,
      label,
      status: table.status,
      headRevisionId: table.headRevisionId,
      publishedRevisionId: table.publishedRevisionId,
      originHash: table.originHash,
      studioChangedAt: table.studioChangedAt,
      studioChangedByLabel: table.studioChangedByLabel,
      deletedAt: table.deletedAt,
      headHash: contentRevisions.hash,
      headDocument: contentRevisions.document,
    })
    .from(table)
    .leftJoin(contentRevisions, eq(contentRevisions.id, table.headRevisionId))
    // Locked to the end of the import: a studio save meanwhile waits, then finds the head moved
    // (409), instead of slipping in between what the import read and what it writes.
    .for("update", { of: table });
  return rows as ItemRow[];
}

/** An item's current slug: its head's (what the studio edits), else its published one. */
const currentSlug = (row: ItemRow): string | null =>
  typeof row.headDocument?.slug === "string" && row.headDocument.slug ? row.headDocument.slug : row.slug;

/** A legacy row's document: an item from before migration 0007, made from its published copy. */
async function legacyDocument(
  tx: Transaction,
  kind: ContentKind,
  id: string,
): Promise<DocumentOf<ContentKind> | undefined> {
  if (kind === "article") {
    const [row] = await tx.select().from(blogPosts).where(eq(blogPosts.id, id));
    if (!row?.slug) return undefined;
    const [author] = row.authorName
      ? await tx.select({ slug: teamMembers.slug }).from(teamMembers).where(eq(teamMembers.name, row.authorName))
      : [];
    return {
      slug: row.slug,
      title: row.title ?? "",
      excerpt: row.excerpt ?? "",
      category: row.category ?? "",
      imageUrl: row.imageUrl ?? "",
      imageAlt: row.imageAlt ?? "",
      publishedAt: row.publishedAt ? new Date(row.publishedAt).toISOString() : "",
      author: author?.slug ?? "",
      body: row.content ?? "",
    } satisfies ArticleDocument;
  }
  if (kind === "project") {
    const [row] = await tx.select().from(projects).where(eq(projects.id, id));
    return row ? (canonicalDocument("project", row as unknown as ProjectDocument) as ProjectDocument) : undefined;
  }
  const [row] = await tx.select().from(teamMembers).where(eq(teamMembers.id, id));
  if (!row) return undefined;
  const taken = new Set(
    (await tx.select({ slug: teamMembers.slug }).from(teamMembers).where(isNotNull(teamMembers.slug))).map(
      (member) => member.slug,
    ),
  );
  const base =
    (row.name ?? "")
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "member";
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  return canonicalDocument("team-member", { ...(row as unknown as TeamMemberDocument), slug }) as TeamMemberDocument;
}

/**
 * Imports a read content folder (readSiteContent). Returns what it did; with `dryRun`, what it
 * would do, having written nothing. The content version moves only when something public changed.
 */
export async function importContent(
  db: Database,
  content: SiteContent,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const source = options.source ?? "import";
  const actor = { id: null, label: options.actorLabel ?? (source === "seed" ? CONTENT_FILES_LABEL : "command line") };
  const brokenFolders = new Set(content.problems.map((problem) => problem.file.split(/[\\/]/)[0]));
  const summary: ImportSummary = {
    added: [],
    updated: [],
    trashed: [],
    skipped: [],
    unchanged: 0,
    changed: false,
    publicChanged: false,
    problems: content.problems,
    dryRun: options.dryRun === true,
  };
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`);
      if (source === "seed") {
        const [seeded] = await queryRows<{ key: string }>(
          tx,
          sql`select key from app_settings where key = ${CONTENT_SEEDED_KEY}`,
        );
        if (seeded) return { ...summary, alreadySeeded: true };
      }
      // The media library's pictures first (media-files.ts): items may name them.
      const pictures = await importMediaFiles(tx, content.media, actor);
      summary.unchanged += pictures.unchanged;
      summary.problems = [...summary.problems, ...pictures.problems];
      for (const picture of pictures.lines) {
        const line: ImportLine = { kind: "media", file: picture.file, title: picture.title, detail: picture.detail };
        if (picture.added) {
          summary.added.push(line);
          summary.changed = summary.publicChanged = true;
        } else summary.skipped.push(line);
      }

      const redirects = await tx.select().from(contentRedirects);
      const redirectOwner = new Map(
        redirects.map((row) => [`${row.kind}:${row.oldSlug}`, row.articleId ?? row.projectId ?? ""]),
      );
      const forced: string[] = [];

      /** Writes a file's document over an item (or into a new one): a revision, then publish or not. */
      const write = async (
        kind: ContentKind,
        itemId: string,
        row: ItemRow | undefined,
        document: DocumentOf<ContentKind>,
        draft: boolean,
      ) => {
        const { table } = contentTables[kind];
        const saved = await appendRevision(tx, {
          kind,
          itemId,
          document,
          source,
          author: actor,
          studioChange: false,
        });
        if (saved.outcome !== "saved" && saved.outcome !== "unchanged")
          throw new Error(`could not write ${kind} ${itemId}: ${saved.outcome}`);
        let state: string;
        if (!draft) {
          await publishRevision(tx, { kind, itemId, revisionId: saved.revision.id });
          summary.publicChanged = true;
          const publishedAt = kind === "article" ? (document as ArticleDocument).publishedAt : "";
          state =
            publishedAt && new Date(publishedAt).getTime() > Date.now()
              ? `scheduled for ${formatStudioTime(new Date(publishedAt))}`
              : "published";
        } else if (row?.status === "published") {
          await unpublishItem(tx, kind, itemId);
          summary.publicChanged = true;
          state = "unpublished (draft: true)";
        } else state = "draft";
        await tx
          .update(table)
          .set({
            originHash: documentHash(kind, document),
            studioChangedAt: null,
            studioChangedByLabel: null,
            deletedAt: null,
            deletedByLabel: null,
          })
          .where(eq(table.id, itemId));
        summary.changed = true;
        return state;
      };

      const files: [ContentKind, { document: DocumentOf<ContentKind>; draft: boolean }[]][] = [
        // Team members first: an article's byline is looked up by its author's slug.
        ["team-member", content.teamMembers.map((document) => ({ document, draft: false }))],
        ["project", content.projects.map((document) => ({ document, draft: false }))],
        ["article", content.articles],
      ];
      for (const [kind, entries] of files) {
        const rows = await itemRows(tx, kind);
        // A file finds its item by the item's current slug, else by its published slug; a team
        // member from before migration 0007 (no slug yet) by name.
        const bySlug = new Map<string, ItemRow>();
        for (const row of rows) if (row.slug) bySlug.set(row.slug, row);
        for (const row of rows) {
          const slug = currentSlug(row);
          if (slug) bySlug.set(slug, row);
        }
        const legacyByName = new Map(
          rows.filter((row) => !row.headRevisionId && !row.slug && row.label).map((row) => [row.label!, row]),
        );
        const handled = new Map<string, string>();
        for (const { document, draft } of entries) {
          const file = fileOf(kind, document.slug);
          const title = titleOf(kind, document);
          const line = (detail: string): ImportLine => ({ kind, file, title, detail });
          const row =
            bySlug.get(document.slug) ??
            (kind === "team-member" ? legacyByName.get((document as TeamMemberDocument).name) : undefined);
          if (row && handled.has(row.id)) {
            summary.skipped.push(line(`the same item as ${handled.get(row.id)}, imported already`));
            continue;
          }
          if (row) handled.set(row.id, file);
          if (kind !== "team-member") {
            const owner = redirectOwner.get(`${kind}:${document.slug}`);
            if (owner && owner !== row?.id) {
              const other = rows.find((candidate) => candidate.id === owner);
              summary.skipped.push(
                line(
                  `${addressOf(kind as "article" | "project", document.slug)} is an old address of «${other?.label ?? titleOf(kind, other?.headDocument ?? {})}»; an admin can release it`,
                ),
              );
              continue;
            }
            const holder = rows.find((candidate) => candidate.slug === document.slug && candidate.id !== row?.id);
            if (holder && !draft) {
              summary.skipped.push(line(`its address is published by «${holder.label ?? ""}»`));
              continue;
            }
          }
          const hash = documentHash(kind, document);
          if (!row) {
            const { table } = contentTables[kind];
            const copy =
              kind === "article"
                ? {}
                : kind === "project"
                  ? (({ slug, title, description, category, imageUrl, year, capacity, timeline }) => ({
                      slug,
                      title,
                      description,
                      category,
                      imageUrl,
                      year,
                      capacity,
                      timeline,
                    }))(document as ProjectDocument)
                  : // A member the import adds takes its place from its file's `order`; an existing
                    // member keeps the place the studio gave it (decision 043).
                    (({ slug, name, title, expertise, imageUrl, email, linkedinUrl, order }) => ({
                      slug,
                      name,
                      title,
                      expertise,
                      imageUrl,
                      email,
                      linkedinUrl,
                      order,
                    }))(document as TeamMemberFile);
            const [inserted] = await tx
              .insert(table as typeof projects)
              .values({ ...copy, status: "draft" } as typeof projects.$inferInsert)
              .returning({ id: table.id });
            summary.added.push(line(await write(kind, inserted!.id, undefined, document, draft)));
            continue;
          }
          const wantsPublic = !draft;
          const inStep =
            row.headHash === hash &&
            !row.deletedAt &&
            (row.status === "published") === wantsPublic &&
            (!wantsPublic || row.publishedRevisionId === row.headRevisionId);
          if (inStep) {
            summary.unchanged += 1;
            continue;
          }
          const legacy = !row.headRevisionId;
          if (legacy || (!row.studioChangedAt && row.originHash)) {
            const restored = row.deletedAt ? ", restored from the trash" : "";
            summary.updated.push(line(`${await write(kind, row.id, row, document, draft)}${restored}`));
            continue;
          }
          if (row.originHash === hash) {
            // The file is the one imported before; the studio's version rules.
            summary.unchanged += 1;
            continue;
          }
          if (!options.force) {
            summary.skipped.push(line(studioReason(row)));
            continue;
          }
          forced.push(file);
          summary.updated.push(
            line(
              `${await write(kind, row.id, row, document, draft)}${row.deletedAt ? ", restored from the trash" : ""}, forced over the studio (${studioReason(row)})`,
            ),
          );
        }

        // Items from before migration 0007 that no file matched get a first revision from their
        // published copy, so every item has a head; pruning below then treats them as any other.
        for (const row of await itemRows(tx, kind)) {
          if (row.headRevisionId) continue;
          const document = await legacyDocument(tx, kind, row.id);
          if (!document) continue;
          const saved = await appendRevision(tx, {
            kind,
            itemId: row.id,
            document,
            source,
            author: actor,
            studioChange: false,
          });
          if (saved.outcome !== "saved") continue;
          if (row.status === "published")
            await publishRevision(tx, { kind, itemId: row.id, revisionId: saved.revision.id });
          const { table } = contentTables[kind];
          await tx
            .update(table)
            .set({ originHash: documentHash(kind, document) })
            .where(eq(table.id, row.id));
          summary.changed = true;
        }
      }

      // Testimonials and client logos (testimonial-files.ts): after the projects they may name.
      for (const { outcome, ...line } of await importTestimonialFiles(tx, content, {
        source,
        actor,
        force: options.force,
        prune: options.prune,
        brokenFolders,
        trashLabel: CONTENT_FILES_LABEL,
      })) {
        if (outcome === "unchanged") summary.unchanged += 1;
        else if (outcome === "skipped") summary.skipped.push(line);
        else {
          summary[outcome].push(line);
          summary.changed = summary.publicChanged = true;
        }
      }

      if (options.prune) {
        for (const kind of ["article", "project", "team-member"] as const) {
          const folder = CONTENT_FOLDERS[kind];
          if (brokenFolders.has(folder)) continue;
          const present = content.present[folder];
          const { table } = contentTables[kind];
          for (const row of await itemRows(tx, kind)) {
            if (!row.originHash || row.studioChangedAt || row.deletedAt) continue;
            const slug = currentSlug(row);
            if ((slug && present.has(slug)) || (row.slug && present.has(row.slug))) continue;
            await tx
              .update(table)
              .set({ deletedAt: sql`now()`, deletedByLabel: CONTENT_FILES_LABEL })
              .where(and(eq(table.id, row.id), isNull(table.deletedAt)));
            summary.changed = true;
            if (row.status === "published") summary.publicChanged = true;
            summary.trashed.push({
              kind,
              file: fileOf(kind, slug ?? row.id),
              title: row.label ?? titleOf(kind, row.headDocument ?? {}),
              detail: "its file is gone; moved to the trash",
            });
          }
        }
      }

      // Old addresses: each leads to the item that now has the slug it names.
      for (const redirect of content.redirects) {
        const rows = await itemRows(tx, redirect.kind);
        const target = rows.find((row) => !row.deletedAt && currentSlug(row) === redirect.slug);
        const line = (detail: string): ImportLine => ({
          kind: "redirect",
          file: "redirects.yaml",
          title: addressOf(redirect.kind, redirect.oldSlug),
          detail,
        });
        const owner = redirectOwner.get(`${redirect.kind}:${redirect.oldSlug}`);
        if (owner !== undefined) {
          if (owner === target?.id) summary.unchanged += 1;
          else {
            const other = rows.find((row) => row.id === owner);
            summary.skipped.push(
              line(`leads to «${other?.label ?? titleOf(redirect.kind, other?.headDocument ?? {})}» already`),
            );
          }
          continue;
        }
        const holder = rows.find((row) => currentSlug(row) === redirect.oldSlug || row.slug === redirect.oldSlug);
        if (holder) {
          summary.skipped.push(
            line(`is the address of «${holder.label ?? titleOf(redirect.kind, holder.headDocument ?? {})}»`),
          );
          continue;
        }
        if (!target) {
          summary.skipped.push(line(`no ${redirect.kind} here has the slug ${redirect.slug}`));
          continue;
        }
        await tx.insert(contentRedirects).values({
          kind: redirect.kind,
          oldSlug: redirect.oldSlug,
          articleId: redirect.kind === "article" ? target.id : null,
          projectId: redirect.kind === "project" ? target.id : null,
          createdByLabel: actor.label,
        });
        redirectOwner.set(`${redirect.kind}:${redirect.oldSlug}`, target.id);
        summary.changed = true;
        if (target.status === "published") summary.publicChanged = true;
        summary.added.push(line(`leads to ${addressOf(redirect.kind, redirect.slug)}`));
      }

      const t = tx;
      // Every instance's page cache starts again after an import that changed what the public
      // reads (data-version.ts); publishing has moved it already, trashing and redirects not.
      if (summary.publicChanged) await bumpContentVersion(t);
      await markContentLoaded(t);
      // A database that has had an import needs no seed: a first start after it reads no file.
      await queryRows(
        t,
        sql`insert into app_settings (key, value) values (${CONTENT_SEEDED_KEY}, ${new Date().toISOString()})
            on conflict (key) do nothing`,
      );
      if (source === "import" && summary.changed) {
        await recordAudit(t, {
          actor,
          action: "content-imported",
          target: { type: "content", id: null, label: null },
          details: {
            added: summary.added.length,
            updated: summary.updated.length,
            trashed: summary.trashed.length,
            skipped: summary.skipped.length,
            ...(forced.length ? { forced } : {}),
          },
        });
      }
      if (summary.dryRun) throw new DryRunFinished(summary);
      return summary;
    });
  } catch (error) {
    if (error instanceof DryRunFinished) return error.summary;
    throw error;
  }
}

/** Reads a content folder and imports it. */
export async function importContentFolder(
  db: Database,
  contentDir: string,
  options: ImportOptions & { publicDir?: string } = {},
): Promise<ImportSummary> {
  const content = await readSiteContent(contentDir, { publicDir: options.publicDir });
  return importContent(db, content, options);
}

/** True once the content folder has been imported on a first start. */
export async function contentSeeded(db: Database): Promise<boolean> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select key from app_settings where key = ${CONTENT_SEEDED_KEY}`,
  );
  return rows.length > 0;
}

/**
 * The first start's step: imports CONTENT_DIR with prune as source "seed", once per database
 * (with many instances, one of them). Returns undefined, having read no file, when the database
 * was seeded before.
 */
export async function seedContent(db: Database, contentDir: string): Promise<ImportSummary | undefined> {
  if (await contentSeeded(db)) {
    await seedMediaOnce(db, contentDir);
    return undefined;
  }
  const summary = await importContentFolder(db, contentDir, { prune: true, source: "seed" });
  await seedMediaOnce(db, contentDir);
  return summary.alreadySeeded ? undefined : summary;
}

export const MEDIA_SEEDED_KEY = "media-seeded";

/**
 * Brings content/media into the library once per database, for a site seeded before the library
 * existed (its first seed read no pictures): the content it holds still names /images/… paths,
 * which only the library's pictures (by their source path) draw responsively. A new site's seed has
 * stored them already, so this finds every picture unchanged (files whose hash is their key cost
 * no sharp call) and only writes the key. docs/decisions/040-the-media-library.md.
 */
async function seedMediaOnce(db: Database, contentDir: string): Promise<void> {
  const done = await queryRows<{ key: string }>(db, sql`select key from app_settings where key = ${MEDIA_SEEDED_KEY}`);
  if (done.length) return;
  const { media: pictures } = await readMediaFolder(contentDir);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`);
    const [again] = await queryRows<{ key: string }>(
      tx,
      sql`select key from app_settings where key = ${MEDIA_SEEDED_KEY}`,
    );
    if (again) return;
    const result = await importMediaFiles(tx, pictures, { label: CONTENT_FILES_LABEL });
    await tx.execute(
      sql`insert into app_settings (key, value) values (${MEDIA_SEEDED_KEY}, ${new Date().toISOString()}) on conflict (key) do nothing`,
    );
    if (result.lines.some((line) => line.added)) await bumpContentVersion(tx);
  });
}
