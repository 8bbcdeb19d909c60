import { asc, eq, isNull, sql } from "drizzle-orm";
import { CLIENT_LOGOS, TESTIMONIALS } from "#shared/admin/collections/index.ts";
import { drawnKindForms } from "#shared/admin/collections/forms.ts";
import type { DrawnFieldsView } from "#shared/admin/pages.ts";
import {
  type ClientLogoDocument,
  clientLogoPublishBlockers,
  EMPTY_CLIENT_LOGO,
  EMPTY_TESTIMONIAL,
  type TestimonialDocument,
  testimonialName,
  testimonialPublishBlockers,
} from "#shared/content/testimonials.ts";
import { clientLogos, contentRevisions, projects, testimonials } from "../../db/schema.ts";
import { headRevisionIn } from "../../content/revisions.ts";
import {
  appendTestimonialRevision,
  canonicalTestimonialDocument,
  publishTestimonialRevision,
  type TestimonialDocumentOf,
  type TestimonialKind,
  testimonialTables,
  withdrawTestimonialItem,
} from "../../content/testimonials.ts";
import type { AdminContext } from "../context.ts";
import { drawnDocumentOf, drawnFieldsOf, drawnPages } from "../ordered/drawn-kind.ts";
import type { OrderedKindSpec, OrderedRevisions } from "../ordered/ordered-kind.ts";
import type { OrderedRouteKind } from "../ordered/ordered-routes.ts";

// Testimonials and client logos in the back office (docs/decisions/061-testimonials-and-client-logos.md):
// two ordered kinds declared in src/shared/admin/collections/ (testimonials.ts, client-logos.ts),
// their pages drawn from those definitions. What is theirs alone: their tables and revisions
// (src/server/content/testimonials.ts), how an item is named, and the checklist Publish must pass:
// a complete permission that covers this website, and the words the site shows.

/** The revisions and the published copy of a testimonial or a logo, kept by testimonials.ts. */
function revisionsOf<Kind extends TestimonialKind>(kind: Kind): OrderedRevisions<TestimonialDocumentOf<Kind>> {
  const target = testimonialTables[kind];
  return {
    async append(tx, input) {
      const before = await headRevisionIn(tx, target, input.itemId);
      const id = await appendTestimonialRevision(tx, {
        kind,
        itemId: input.itemId,
        document: input.document,
        source: "studio",
        author: input.author,
      });
      if (id === undefined) return { outcome: "missing" };
      const revision = (await headRevisionIn(tx, target, input.itemId))!;
      return { outcome: before?.id === id ? "unchanged" : "saved", revision };
    },
    head: (tx, itemId) => headRevisionIn(tx, target, itemId),
    async publish(tx, input) {
      const done = await publishTestimonialRevision(tx, {
        kind,
        itemId: input.itemId,
        revisionId: input.revisionId,
        studioChangeBy: input.by,
      });
      if (!done) throw new Error(`revision ${input.revisionId} is not the ${kind}'s`);
    },
    unpublish: (tx, itemId, by) => withdrawTestimonialItem(tx, kind, itemId, by),
  };
}

/** Shown only where the permission covers this website: Publish asks for it. */
function websiteBlocker(document: { permissionUses: string[] }): string[] {
  return document.permissionUses.length && !document.permissionUses.includes("website")
    ? ["The permission must cover this website to be shown here."]
    : [];
}

/** The testimonial's words on the list: the quote's beginning. */
const shortQuote = (quote: string) => (quote.length > 120 ? `${quote.slice(0, 117).trimEnd()}…` : quote);

/** A kind's words for an item that is not there, or is in the trash. */
const missingWords = (noun: string, list: string) => ({
  missing: `There is no such ${noun}.`,
  inTheTrash: `This ${noun} is in the trash: restore it from the ${list} page first.`,
  shownAlready: `This ${noun} is published already.`,
  hiddenAlready: `This ${noun} is not published.`,
  orderChanged: `The ${list} changed since this page was opened (one was added, moved to the trash or restored), so the order was not saved. Reload the page and try again.`,
});

const TESTIMONIAL_SPEC: OrderedKindSpec<TestimonialDocument> = {
  definition: TESTIMONIALS,
  revisions: revisionsOf("testimonial"),
  table: testimonials,
  order: [asc(testimonials.order), asc(testimonials.createdAt), asc(testimonials.id)],
  documentOf: (stored) => canonicalTestimonialDocument("testimonial", stored as TestimonialDocument),
  nameOf: testimonialName,
  newDocument: async (_tx, document) => ({ document }),
  savedDocument: (_stored, document) => document,
  words: { ...missingWords("testimonial", "testimonials"), list: "The testimonials" },
};

const CLIENT_LOGO_SPEC: OrderedKindSpec<ClientLogoDocument> = {
  definition: CLIENT_LOGOS,
  revisions: revisionsOf("client-logo"),
  table: clientLogos,
  order: [asc(clientLogos.order), asc(clientLogos.createdAt), asc(clientLogos.id)],
  documentOf: (stored) => canonicalTestimonialDocument("client-logo", stored as ClientLogoDocument),
  nameOf: (document) => document.organisation.trim() || "Untitled logo",
  newDocument: async (_tx, document) => ({ document }),
  savedDocument: (_stored, document) => document,
  words: { ...missingWords("logo", "client logos"), list: "The client logos" },
};

/**
 * The projects a testimonial may name, by their title (the published one, else the head's),
 * those in the trash left out.
 */
async function projectOptions(db: AdminContext["db"]) {
  const rows = await db
    .select({
      id: projects.id,
      title: sql<string | null>`coalesce(${projects.title}, ${contentRevisions.document}->>'title')`,
    })
    .from(projects)
    .leftJoin(contentRevisions, eq(contentRevisions.id, projects.headRevisionId))
    .where(isNull(projects.deletedAt));
  return {
    project: rows
      .map((row) => ({ value: row.id, label: row.title?.trim() || "Untitled project" }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  };
}

export const TESTIMONIAL_ROUTES: OrderedRouteKind<TestimonialDocument, DrawnFieldsView> = {
  spec: TESTIMONIAL_SPEC,
  forms: drawnKindForms(TESTIMONIALS),
  empty: drawnFieldsOf<TestimonialDocument>(TESTIMONIALS)(EMPTY_TESTIMONIAL),
  fieldsOf: drawnFieldsOf(TESTIMONIALS),
  documentOf: drawnDocumentOf(TESTIMONIALS),
  blockers: (document) => [...testimonialPublishBlockers(document), ...websiteBlocker(document)],
  options: projectOptions,
  pages: drawnPages(TESTIMONIALS, {
    nameOf: testimonialName,
    detailOf: (document) => shortQuote(document.quote),
  }),
};

export const CLIENT_LOGO_ROUTES: OrderedRouteKind<ClientLogoDocument, DrawnFieldsView> = {
  spec: CLIENT_LOGO_SPEC,
  forms: drawnKindForms(CLIENT_LOGOS),
  empty: drawnFieldsOf<ClientLogoDocument>(CLIENT_LOGOS)(EMPTY_CLIENT_LOGO),
  fieldsOf: drawnFieldsOf(CLIENT_LOGOS),
  documentOf: drawnDocumentOf(CLIENT_LOGOS),
  blockers: (document) => [...clientLogoPublishBlockers(document), ...websiteBlocker(document)],
  pages: drawnPages(CLIENT_LOGOS, {
    nameOf: (document) => document.organisation.trim() || "Untitled logo",
    detailOf: () => "",
  }),
};
