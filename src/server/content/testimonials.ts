import { createHash } from "node:crypto";
import { and, asc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { PublicClientLogo, PublicTestimonial, PublicTestimonials } from "#shared/api-types.ts";
import {
  CLIENT_LOGO_FIELDS,
  type ClientLogoDocument,
  EMPTY_CLIENT_LOGO,
  EMPTY_TESTIMONIAL,
  TESTIMONIAL_FIELDS,
  type TestimonialDocument,
} from "#shared/content/testimonials.ts";
import type { Database } from "../db/client.ts";
import { clientLogos, contentRevisions, projects, testimonials } from "../db/schema.ts";
import { bumpContentVersion } from "./data-version.ts";
import { projectIsPublic } from "./public-content.ts";
import { mediaIndex } from "./responsive-images.ts";

// Testimonials and client logos (docs/decisions/061-testimonials-and-client-logos.md): their
// revisions, the copy of a revision into the published columns, and what a visitor may see. An
// item is public when it is published, not in the trash and its permission's uses include
// "website"; the public shape of an anonymised testimonial has its quote and description only, so
// its person, organisation and logo never leave the server, by any page, API, feed or index.

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0] | Database;

/** The two kinds, by the names the back office and the content files use. */
export type TestimonialKind = "testimonial" | "client-logo";

export type TestimonialDocumentOf<Kind extends TestimonialKind> = Kind extends "testimonial"
  ? TestimonialDocument
  : ClientLogoDocument;

export const testimonialTables = {
  testimonial: {
    table: testimonials,
    revisionItem: contentRevisions.testimonialId,
    itemColumn: "testimonialId",
    fields: TESTIMONIAL_FIELDS,
    empty: EMPTY_TESTIMONIAL,
  },
  "client-logo": {
    table: clientLogos,
    revisionItem: contentRevisions.clientLogoId,
    itemColumn: "clientLogoId",
    fields: CLIENT_LOGO_FIELDS,
    empty: EMPTY_CLIENT_LOGO,
  },
} as const;

/** The document with its fields in their fixed order, each missing one at its empty value: what is stored and hashed. */
export function canonicalTestimonialDocument<Kind extends TestimonialKind>(
  kind: Kind,
  document: TestimonialDocumentOf<Kind>,
): TestimonialDocumentOf<Kind> {
  const { fields, empty } = testimonialTables[kind];
  const source = document as Record<string, unknown>;
  const defaults = empty as Record<string, unknown>;
  const canonical: Record<string, unknown> = {};
  for (const field of fields) canonical[field] = source[field] ?? defaults[field];
  return canonical as TestimonialDocumentOf<Kind>;
}

export function testimonialDocumentHash<Kind extends TestimonialKind>(
  kind: Kind,
  document: TestimonialDocumentOf<Kind>,
): string {
  return createHash("sha256")
    .update(JSON.stringify(canonicalTestimonialDocument(kind, document)))
    .digest("hex");
}

/**
 * Appends a revision of a testimonial or a logo and makes it the head, in the caller's
 * transaction: number one past the item's last, the document canonical. Unchanged (the head's
 * hash) writes nothing and returns the head's id. Undefined when there is no such item.
 */
export async function appendTestimonialRevision<Kind extends TestimonialKind>(
  tx: Tx,
  input: {
    kind: Kind;
    itemId: string;
    document: TestimonialDocumentOf<Kind>;
    source: "studio" | "import" | "seed" | "restore";
    author: { id: string | null; label: string };
    /** Marks the item as changed in the back office; the importer passes false. Defaults to true. */
    studioChange?: boolean;
  },
): Promise<number | undefined> {
  const { table, revisionItem, itemColumn } = testimonialTables[input.kind];
  const [item] = await tx
    .select({ headRevisionId: table.headRevisionId })
    .from(table)
    .where(eq(table.id, input.itemId))
    .for("update");
  if (!item) return undefined;
  const document = canonicalTestimonialDocument(input.kind, input.document);
  const hash = testimonialDocumentHash(input.kind, document);
  const [head] = item.headRevisionId
    ? await tx
        .select({ id: contentRevisions.id, hash: contentRevisions.hash })
        .from(contentRevisions)
        .where(and(eq(contentRevisions.id, item.headRevisionId), eq(revisionItem, input.itemId)))
    : [];
  if (head?.hash === hash) return head.id;
  const [numbered] = await tx
    .select({ next: sql<number>`coalesce(max(${contentRevisions.number}), 0)::int + 1` })
    .from(contentRevisions)
    .where(eq(revisionItem, input.itemId));
  const [inserted] = await tx
    .insert(contentRevisions)
    .values({
      [itemColumn]: input.itemId,
      number: numbered!.next,
      baseRevisionId: item.headRevisionId ?? null,
      authorId: input.author.id,
      authorLabel: input.author.label,
      source: input.source,
      document: document as Record<string, unknown>,
      hash,
    })
    .returning({ id: contentRevisions.id });
  const studio = input.studioChange !== false;
  await tx
    .update(table)
    .set({
      headRevisionId: inserted!.id,
      ...(studio ? { studioChangedAt: sql`now()`, studioChangedByLabel: input.author.label } : {}),
    })
    .where(eq(table.id, input.itemId));
  return inserted!.id;
}

/** "" is no value: the published copy's column is null, so its check refuses an incomplete copy. */
const orNull = (value: string) => (value.trim() ? value : null);

/** The permission's columns of a document. */
function permissionCopy(document: TestimonialDocument | ClientLogoDocument) {
  return {
    permissionBy: orNull(document.permissionBy),
    permissionOn: orNull(document.permissionOn),
    permissionUses: [...document.permissionUses],
    permissionReview: orNull(document.permissionReview),
  };
}

/**
 * A testimonial document as its published columns. Never its `order` (the back office's, as the
 * team's). The project is kept only when it exists (a deleted one is none).
 */
export async function testimonialCopy(tx: Tx, document: TestimonialDocument) {
  const [project] = /^[0-9a-f-]{36}$/i.test(document.project)
    ? await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, document.project))
    : [];
  return {
    quote: orNull(document.quote),
    personName: orNull(document.personName),
    personRole: orNull(document.personRole),
    organisation: orNull(document.organisation),
    anonymised: document.anonymised,
    description: orNull(document.description),
    logoUrl: orNull(document.logoUrl),
    projectId: project?.id ?? null,
    services: [...document.services],
    industries: [...document.industries],
    ...permissionCopy(document),
  };
}

export function clientLogoCopy(document: ClientLogoDocument) {
  return {
    organisation: orNull(document.organisation),
    logoUrl: orNull(document.logoUrl),
    ...permissionCopy(document),
  };
}

/**
 * Publish: copies a revision of the item into its published columns, makes it published and
 * moves the content version, all in the caller's transaction (so every instance's pages show it
 * within the content poll once it commits; call refreshContentVersion(db) after the commit for
 * this instance at once). False, nothing written, when the revision is not the item's. The table's
 * checks refuse an incomplete copy or permission (the caller checks testimonialPublishBlockers first).
 */
export async function publishTestimonialRevision(
  tx: Tx,
  input: { kind: TestimonialKind; itemId: string; revisionId: number; studioChangeBy?: string },
): Promise<boolean> {
  const { table, revisionItem } = testimonialTables[input.kind];
  const [revision] = await tx
    .select({ id: contentRevisions.id, document: contentRevisions.document })
    .from(contentRevisions)
    .where(and(eq(contentRevisions.id, input.revisionId), eq(revisionItem, input.itemId)));
  if (!revision) return false;
  const bookkeeping = {
    status: "published",
    publishedRevisionId: revision.id,
    ...(input.studioChangeBy ? { studioChangedAt: sql`now()`, studioChangedByLabel: input.studioChangeBy } : {}),
  };
  if (input.kind === "testimonial") {
    const document = canonicalTestimonialDocument("testimonial", revision.document as TestimonialDocument);
    await tx
      .update(testimonials)
      .set({ ...(await testimonialCopy(tx, document)), ...bookkeeping })
      .where(eq(testimonials.id, input.itemId));
  } else {
    const document = canonicalTestimonialDocument("client-logo", revision.document as ClientLogoDocument);
    await tx
      .update(clientLogos)
      .set({ ...clientLogoCopy(document), ...bookkeeping })
      .where(eq(table.id, input.itemId));
  }
  await bumpContentVersion(tx as Database);
  return true;
}

/**
 * Withdraw (hide), trash, restore or reorder: whatever else changes what the public reads. Call
 * in the write's transaction; it moves the content version as publishing does.
 */
export async function testimonialsChanged(tx: Tx): Promise<void> {
  await bumpContentVersion(tx as Database);
}

/** Withdraw: takes a published item off the site, keeping its copy (to publish again). */
export async function withdrawTestimonialItem(
  tx: Tx,
  kind: TestimonialKind,
  itemId: string,
  studioChangeBy?: string,
): Promise<void> {
  const { table } = testimonialTables[kind];
  await tx
    .update(table)
    .set({
      status: "unpublished",
      ...(studioChangeBy ? { studioChangedAt: sql`now()`, studioChangedByLabel: studioChangeBy } : {}),
    })
    .where(eq(table.id, itemId));
  await bumpContentVersion(tx as Database);
}

/** Its permission covers this website. */
const coversWebsite = (uses: typeof testimonials.permissionUses | typeof clientLogos.permissionUses): SQL =>
  sql`'website' = any(${uses})`;

/** A testimonial is public: published, not in the trash, its permission covering this website. */
export const testimonialIsPublic: SQL = and(
  eq(testimonials.status, "published"),
  isNull(testimonials.deletedAt),
  coversWebsite(testimonials.permissionUses),
)!;

/** A client logo is public: the same three conditions. */
export const clientLogoIsPublic: SQL = and(
  eq(clientLogos.status, "published"),
  isNull(clientLogos.deletedAt),
  coversWebsite(clientLogos.permissionUses),
)!;

/**
 * The public testimonials and client logos, each in their order (then oldest first): the one
 * projection a visitor's page reads. An anonymised testimonial's person, organisation and logo are
 * not even selected into what is returned.
 */
export async function listPublicTestimonials(db: Database, now: Date = new Date()): Promise<PublicTestimonials> {
  const rows = await db
    .select({
      id: testimonials.id,
      quote: testimonials.quote,
      anonymised: testimonials.anonymised,
      personName: testimonials.personName,
      personRole: testimonials.personRole,
      organisation: testimonials.organisation,
      description: testimonials.description,
      logoUrl: testimonials.logoUrl,
      projectSlug: projects.slug,
      services: testimonials.services,
      industries: testimonials.industries,
    })
    .from(testimonials)
    // The project's address only while the project is public.
    .leftJoin(projects, and(eq(projects.id, testimonials.projectId), projectIsPublic(now)))
    .where(testimonialIsPublic)
    .orderBy(asc(testimonials.order), asc(testimonials.createdAt), asc(testimonials.id));
  const logoRows = await db
    .select({ id: clientLogos.id, organisation: clientLogos.organisation, logoUrl: clientLogos.logoUrl })
    .from(clientLogos)
    .where(clientLogoIsPublic)
    .orderBy(asc(clientLogos.order), asc(clientLogos.createdAt), asc(clientLogos.id));
  const images = await mediaIndex(db);
  const shown: PublicTestimonial[] = rows.map((row) => {
    const common = {
      id: row.id,
      // The published-copy check keeps these set on a published row.
      quote: row.quote ?? "",
      projectSlug: row.projectSlug ?? null,
      services: row.services ?? [],
      industries: row.industries ?? [],
    };
    if (row.anonymised) return { ...common, person: null, description: row.description ?? "" };
    return {
      ...common,
      person: {
        name: row.personName ?? "",
        role: row.personRole,
        organisation: row.organisation ?? "",
        logo: row.logoUrl ? images.resolve(row.logoUrl) : null,
      },
      description: null,
    };
  });
  const logos: PublicClientLogo[] = logoRows.map((row) => ({
    id: row.id,
    organisation: row.organisation ?? "",
    logoUrl: row.logoUrl ?? "",
    logo: row.logoUrl ? images.resolve(row.logoUrl) : null,
  }));
  return { testimonials: shown, clientLogos: logos };
}
