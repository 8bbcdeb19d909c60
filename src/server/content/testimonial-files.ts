import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { stringify } from "yaml";
import { z } from "zod";
import { contentFileText } from "./content-file-text.ts";
import { IMAGE_PATH_PATTERN, SLUG_PATTERN } from "#shared/content/documents.ts";
import {
  type ClientLogoDocument,
  INDUSTRY_SLUGS,
  PERMISSION_USES,
  SERVICE_SLUGS,
  TESTIMONIAL_LIMITS,
  type TestimonialDocument,
} from "#shared/content/testimonials.ts";
import type { Database } from "../db/client.ts";
import { contentRevisions, projects, type testimonials } from "../db/schema.ts";
import {
  appendTestimonialRevision,
  canonicalTestimonialDocument,
  publishTestimonialRevision,
  type TestimonialDocumentOf,
  type TestimonialKind,
  testimonialDocumentHash,
  testimonialTables,
} from "./testimonials.ts";

// The content files of testimonials and client logos (content/testimonials/<name>.yaml,
// content/client-logos/<name>.yaml): what they hold, how the importer brings them in, and how the
// exporter writes them back. A file is a published item, as a team member's is; its `project` is
// the project's file name (its slug), its `logo` a library picture. An item is found again by its
// file name (the row's `slug`). docs/decisions/061-testimonials-and-client-logos.md.

const text = contentFileText;

/** A calendar day, YYYY-MM-DD (YAML may read it as a date). */
const day = z.union([z.string(), z.date()], { error: "must be a date like 2026-11-30" }).transform((value, ctx) => {
  const raw = value instanceof Date ? value.toISOString().slice(0, 10) : value.trim();
  const parsed = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const utc = parsed ? new Date(Date.UTC(Number(parsed[1]), Number(parsed[2]) - 1, Number(parsed[3]))) : undefined;
  if (!utc || utc.toISOString().slice(0, 10) !== raw) {
    ctx.addIssue({ code: "custom", message: "must be a date that exists, like 2026-11-30" });
    return z.NEVER;
  }
  return raw;
});

const logoPath = z
  .string({ error: "must be text" })
  .max(300, "must be at most 300 characters")
  .regex(IMAGE_PATH_PATTERN, "must be a picture of the library (/media/<key>/original.<ext>)");

const oneOf = (allowed: readonly string[], what: string) =>
  z
    .array(z.string({ error: `must be a list of ${what}` }), { error: `must be a list of ${what}` })
    .max(allowed.length, `must name each of ${allowed.join(", ")} at most once`)
    .refine((values) => values.every((value) => allowed.includes(value)), `must name only ${allowed.join(", ")}`)
    .refine((values) => new Set(values).size === values.length, "must not name one twice");

const permission = {
  permissionBy: text(TESTIMONIAL_LIMITS.permissionBy),
  permissionOn: day,
  permissionUses: oneOf(PERMISSION_USES, "uses").refine((values) => values.length > 0, "must name at least one use"),
  permissionReview: day,
};

const order = z
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(0, "must be 0 or more")
  .max(10_000, "must be at most 10000")
  .default(0);

export const testimonialFile = z
  .strictObject({
    quote: text(TESTIMONIAL_LIMITS.quote, { multiline: true }),
    personName: text(TESTIMONIAL_LIMITS.personName).optional(),
    personRole: text(TESTIMONIAL_LIMITS.personRole).optional(),
    organisation: text(TESTIMONIAL_LIMITS.organisation).optional(),
    anonymised: z.boolean({ error: "must be true or false" }).default(false),
    description: text(TESTIMONIAL_LIMITS.description).optional(),
    logo: logoPath.optional(),
    project: z
      .string({ error: "must be a project's file name" })
      .regex(SLUG_PATTERN, "must be a project's file name, without .yaml")
      .optional(),
    services: oneOf(SERVICE_SLUGS, "services").default([]),
    industries: oneOf(INDUSTRY_SLUGS, "industries").default([]),
    ...permission,
    order,
  })
  .superRefine((data, ctx) => {
    const required: (keyof typeof data)[] = data.anonymised ? ["description"] : ["personName", "organisation"];
    for (const field of required)
      if (data[field] === undefined)
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: data.anonymised ? "is required when anonymised" : "is required (or anonymised: true)",
        });
  })
  .transform(({ personName, personRole, organisation, description, ...rest }) => ({
    ...rest,
    personName: personName ?? "",
    personRole: personRole ?? "",
    organisation: organisation ?? "",
    description: description ?? "",
  }));

export const clientLogoFile = z.strictObject({
  organisation: text(TESTIMONIAL_LIMITS.organisation),
  logo: logoPath,
  ...permission,
  order,
});

/** A testimonial's file: its document (its project by file name), and the order that places a new one. */
export type TestimonialFile = { slug: string; order: number; document: TestimonialDocument };
export type ClientLogoFile = { slug: string; order: number; document: ClientLogoDocument };

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** What the importer reports of one file, as its other kinds do. */
export type TestimonialImportLine = {
  kind: TestimonialKind;
  file: string;
  title: string;
  detail: string;
  outcome: "added" | "updated" | "skipped" | "unchanged" | "trashed";
};

export const TESTIMONIAL_FOLDERS = { testimonial: "testimonials", "client-logo": "client-logos" } as const;

const titleOf = (kind: TestimonialKind, document: TestimonialDocument | ClientLogoDocument) =>
  kind === "client-logo"
    ? (document as ClientLogoDocument).organisation
    : (document as TestimonialDocument).anonymised
      ? (document as TestimonialDocument).description
      : `${(document as TestimonialDocument).personName}, ${(document as TestimonialDocument).organisation}`;

/**
 * Brings the files in, by the importer's rules for the other kinds (import-content.ts): a new file
 * adds a published item; a file unchanged since its import does nothing; an item unchanged in the
 * back office since its import takes the file as a new revision and publishes it; one changed there
 * is skipped unless `force`. With `prune`, an item from the files whose file is gone, unchanged in
 * the back office, goes to the trash (not when its folder has a broken file).
 */
export async function importTestimonialFiles(
  tx: Tx,
  content: {
    testimonials: TestimonialFile[];
    clientLogos: ClientLogoFile[];
    present: { testimonials: Set<string>; "client-logos": Set<string> };
  },
  options: {
    source: "seed" | "import";
    actor: { id: null; label: string };
    force?: boolean;
    prune?: boolean;
    brokenFolders: Set<string | undefined>;
    trashLabel: string;
  },
): Promise<TestimonialImportLine[]> {
  const lines: TestimonialImportLine[] = [];
  // A testimonial's project by its slug, the id its document holds.
  const projectIds = new Map(
    (await tx.select({ id: projects.id, slug: projects.slug }).from(projects)).flatMap((row) =>
      row.slug ? [[row.slug, row.id] as const] : [],
    ),
  );
  const kinds: [
    TestimonialKind,
    { slug: string; order: number; document: TestimonialDocument | ClientLogoDocument }[],
  ][] = [
    [
      "testimonial",
      content.testimonials.map((file) => ({
        ...file,
        document: { ...file.document, project: projectIds.get(file.document.project) ?? "" },
      })),
    ],
    ["client-logo", content.clientLogos],
  ];
  for (const [kind, files] of kinds) {
    const { table } = testimonialTables[kind];
    const folder = TESTIMONIAL_FOLDERS[kind];
    const rows = await tx
      .select({
        id: table.id,
        slug: table.slug,
        status: table.status,
        headRevisionId: table.headRevisionId,
        publishedRevisionId: table.publishedRevisionId,
        originHash: table.originHash,
        studioChangedAt: table.studioChangedAt,
        deletedAt: table.deletedAt,
        headHash: contentRevisions.hash,
      })
      .from(table)
      .leftJoin(contentRevisions, eq(contentRevisions.id, table.headRevisionId))
      .for("update", { of: table });
    // A file finds its item by its name, or by the item's id: what the exporter names one made in the back office.
    const bySlug = new Map(
      rows.flatMap((row) => [[row.id, row] as const, ...(row.slug ? [[row.slug, row] as const] : [])]),
    );
    for (const file of files) {
      const line = (outcome: TestimonialImportLine["outcome"], detail: string) =>
        lines.push({
          kind,
          file: `${folder}/${file.slug}.yaml`,
          title: titleOf(kind, file.document),
          detail,
          outcome,
        });
      const hash = testimonialDocumentHash(kind, file.document as never);
      let row = bySlug.get(file.slug);
      const existed = row !== undefined;
      if (row) {
        const inStep =
          row.headHash === hash &&
          !row.deletedAt &&
          row.status === "published" &&
          row.publishedRevisionId === row.headRevisionId;
        if (inStep || (row.originHash === hash && row.studioChangedAt)) {
          line("unchanged", "unchanged");
          continue;
        }
        if (row.studioChangedAt && !options.force) {
          line("skipped", "changed in the back office since its import");
          continue;
        }
      } else {
        const [inserted] = await tx
          .insert(table as typeof testimonials)
          .values({ slug: file.slug, order: file.order, status: "draft" })
          .returning({ id: table.id });
        row = { id: inserted!.id } as typeof row & object;
      }
      const revisionId = await appendTestimonialRevision(tx, {
        kind,
        itemId: row!.id,
        document: file.document as never,
        source: options.source,
        author: options.actor,
        studioChange: false,
      });
      await publishTestimonialRevision(tx, { kind, itemId: row!.id, revisionId: revisionId! });
      await tx
        .update(table)
        .set({
          originHash: hash,
          studioChangedAt: null,
          studioChangedByLabel: null,
          deletedAt: null,
          deletedByLabel: null,
        })
        .where(eq(table.id, row!.id));
      const added = !existed;
      line(added ? "added" : "updated", added ? "published" : "published (updated)");
    }
    if (options.prune && !options.brokenFolders.has(folder)) {
      const present = content.present[folder];
      const gone = rows.filter((row) => row.slug && row.originHash && !row.studioChangedAt && !row.deletedAt);
      const ids = gone.filter((row) => !present.has(row.slug!)).map((row) => row.id);
      if (ids.length) {
        await tx
          .update(table)
          .set({ deletedAt: sql`now()`, deletedByLabel: options.trashLabel })
          .where(and(inArray(table.id, ids), isNull(table.deletedAt)));
        for (const row of gone.filter((candidate) => ids.includes(candidate.id)))
          lines.push({
            kind,
            file: `${folder}/${row.slug}.yaml`,
            title: row.slug!,
            detail: "its file is gone; moved to the trash",
            outcome: "trashed",
          });
      }
    }
  }
  return lines;
}

/** The file of a testimonial's document (its project by slug, or none when that project has none). */
export function testimonialFileOf(
  document: TestimonialDocument,
  order: number,
  projectSlugs: Map<string, string>,
): Record<string, unknown> {
  const project = document.project ? projectSlugs.get(document.project) : undefined;
  return {
    quote: document.quote,
    ...(document.personName ? { personName: document.personName } : {}),
    ...(document.personRole ? { personRole: document.personRole } : {}),
    ...(document.organisation ? { organisation: document.organisation } : {}),
    anonymised: document.anonymised,
    ...(document.description ? { description: document.description } : {}),
    ...(document.logoUrl ? { logo: document.logoUrl } : {}),
    ...(project ? { project } : {}),
    services: document.services,
    industries: document.industries,
    permissionBy: document.permissionBy,
    permissionOn: document.permissionOn,
    permissionUses: document.permissionUses,
    permissionReview: document.permissionReview,
    order,
  };
}

export function clientLogoFileOf(document: ClientLogoDocument, order: number): Record<string, unknown> {
  return {
    organisation: document.organisation,
    logo: document.logoUrl,
    permissionBy: document.permissionBy,
    permissionOn: document.permissionOn,
    permissionUses: document.permissionUses,
    permissionReview: document.permissionReview,
    order,
  };
}

/**
 * The files `content:export` writes (export-content.ts): every published item not in the trash,
 * as its published revision, named by its file name (or its id, for one made in the back office,
 * which an import then finds again by it). Others are listed as not exported.
 */
export async function testimonialExportFiles(db: Database): Promise<{
  files: Map<string, string>;
  written: { kind: TestimonialKind; file: string; title: string; detail: string }[];
  notExported: { kind: TestimonialKind; file: string; title: string; detail: string }[];
}> {
  const files = new Map<string, string>();
  const written: { kind: TestimonialKind; file: string; title: string; detail: string }[] = [];
  const notExported: typeof written = [];
  const projectSlugs = new Map(
    (await db.select({ id: projects.id, slug: projects.slug }).from(projects)).flatMap((row) =>
      row.slug ? [[row.id, row.slug] as const] : [],
    ),
  );
  for (const kind of ["testimonial", "client-logo"] as const) {
    const { table } = testimonialTables[kind];
    const rows = await db
      .select({
        id: table.id,
        slug: table.slug,
        status: table.status,
        order: table.order,
        deletedAt: table.deletedAt,
        document: contentRevisions.document,
      })
      .from(table)
      .leftJoin(contentRevisions, eq(contentRevisions.id, table.publishedRevisionId))
      .orderBy(table.id);
    for (const row of rows) {
      const file = `${TESTIMONIAL_FOLDERS[kind]}/${row.slug ?? row.id}.yaml`;
      const document = row.document
        ? canonicalTestimonialDocument(kind, row.document as unknown as TestimonialDocumentOf<typeof kind>)
        : undefined;
      const title = document ? titleOf(kind, document) : (row.slug ?? row.id);
      if (row.deletedAt || row.status !== "published" || !document) {
        notExported.push({ kind, file, title, detail: row.deletedAt ? "in the trash" : `is ${row.status}` });
        continue;
      }
      const data =
        kind === "testimonial"
          ? testimonialFileOf(document as TestimonialDocument, row.order, projectSlugs)
          : clientLogoFileOf(document as ClientLogoDocument, row.order);
      files.set(file, stringify(data, { lineWidth: 0 }));
      written.push({ kind, file, title, detail: "published" });
    }
  }
  return { files, written, notExported };
}
