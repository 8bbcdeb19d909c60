import { industries, industryAnchor } from "./industries.ts";
import { type StudyGroup, studyGroups } from "./power-system-studies.ts";

// What a testimonial and a client logo are, whole: the document a revision stores
// (content_revisions.document), the back office's form edits and the content files hold
// (content/testimonials/*.yaml, content/client-logos/*.yaml). Free of zod and of the server, so
// that anything may import it. docs/decisions/061-testimonials-and-client-logos.md.

/** What a client allowed their words or their logo to be used for. */
export const PERMISSION_USES = ["website", "proposals", "social"] as const;
export type PermissionUse = (typeof PERMISSION_USES)[number];

export const PERMISSION_USE_LABELS: Record<PermissionUse, string> = {
  website: "This website",
  proposals: "Proposals",
  social: "Social media",
};

export function isPermissionUse(value: string): value is PermissionUse {
  return (PERMISSION_USES as readonly string[]).includes(value);
}

/** A date as a document holds it: YYYY-MM-DD, or "" while none is given. */
export const DOCUMENT_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The permission's fields, the same in both documents. */
export type PermissionFields = {
  /** Who approved it, in words. */
  permissionBy: string;
  /** When, YYYY-MM-DD. */
  permissionOn: string;
  /** Of PERMISSION_USES. */
  permissionUses: string[];
  /** When to review it with the client, YYYY-MM-DD. */
  permissionReview: string;
};

export type TestimonialDocument = PermissionFields & {
  quote: string;
  personName: string;
  personRole: string;
  organisation: string;
  anonymised: boolean;
  /** What an anonymised one shows instead of the person and the organisation. */
  description: string;
  /** The organisation's logo: a media-library reference, or "". */
  logoUrl: string;
  /** The project it is about, by id, or "". */
  project: string;
  /** Of SERVICE_SLUGS. */
  services: string[];
  /** Of INDUSTRY_SLUGS. */
  industries: string[];
};

export type ClientLogoDocument = PermissionFields & {
  organisation: string;
  /** A media-library reference, or "". */
  logoUrl: string;
};

/** The order of each document's fields: its canonical form (hashes, exports) follows it. */
export const TESTIMONIAL_FIELDS = [
  "quote",
  "personName",
  "personRole",
  "organisation",
  "anonymised",
  "description",
  "logoUrl",
  "project",
  "services",
  "industries",
  "permissionBy",
  "permissionOn",
  "permissionUses",
  "permissionReview",
] as const satisfies readonly (keyof TestimonialDocument)[];

export const CLIENT_LOGO_FIELDS = [
  "organisation",
  "logoUrl",
  "permissionBy",
  "permissionOn",
  "permissionUses",
  "permissionReview",
] as const satisfies readonly (keyof ClientLogoDocument)[];

export const EMPTY_TESTIMONIAL: TestimonialDocument = {
  quote: "",
  personName: "",
  personRole: "",
  organisation: "",
  anonymised: false,
  description: "",
  logoUrl: "",
  project: "",
  services: [],
  industries: [],
  permissionBy: "",
  permissionOn: "",
  permissionUses: [],
  permissionReview: "",
};

export const EMPTY_CLIENT_LOGO: ClientLogoDocument = {
  organisation: "",
  logoUrl: "",
  permissionBy: "",
  permissionOn: "",
  permissionUses: [],
  permissionReview: "",
};

/** The longest values, the same for the content files and the back office. */
export const TESTIMONIAL_LIMITS = {
  quote: 1000,
  personName: 120,
  personRole: 160,
  organisation: 160,
  description: 240,
  permissionBy: 300,
} as const;

/** A service's slug: its group on /services, in words (its section there is `group-<slug>`). */
export const serviceSlug = (group: StudyGroup): string =>
  group
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** The id of a service group's section on /services: where a search result and a testimonial's service point. */
export const serviceAnchor = (group: StudyGroup): string => `group-${serviceSlug(group)}`;

/** The slug of an industry of /industries (its section there is industryAnchor(name): `industry-<slug>`). */
export const industrySlug = (name: string): string => industryAnchor(name).slice("industry-".length);

/** The services a testimonial may name: the groups of /services. */
export const SERVICE_SLUGS: readonly string[] = studyGroups.map(serviceSlug);
/** The industries a testimonial may name: the sections of /industries. */
export const INDUSTRY_SLUGS: readonly string[] = industries.map((industry) => industrySlug(industry.name));

/** What stops a testimonial from being published (Publish refuses it): its page needs these. */
export function testimonialPublishBlockers(document: TestimonialDocument): string[] {
  const blockers: string[] = [];
  if (!document.quote.trim()) blockers.push("Write the quote.");
  if (document.anonymised) {
    if (!document.description.trim()) blockers.push("Describe who said it: an anonymised testimonial shows this.");
  } else {
    if (!document.personName.trim()) blockers.push("Name the person (or anonymise the testimonial).");
    if (!document.organisation.trim()) blockers.push("Name the organisation (or anonymise the testimonial).");
  }
  blockers.push(...permissionBlockers(document));
  return blockers;
}

export function clientLogoPublishBlockers(document: ClientLogoDocument): string[] {
  const blockers: string[] = [];
  if (!document.organisation.trim()) blockers.push("Name the organisation.");
  if (!document.logoUrl.trim()) blockers.push("Choose the logo.");
  blockers.push(...permissionBlockers(document));
  return blockers;
}

/** The permission is complete: who, when, at least one use, and a review date. */
export function permissionBlockers(document: PermissionFields): string[] {
  const blockers: string[] = [];
  if (!document.permissionBy.trim()) blockers.push("Say who gave permission.");
  if (!DOCUMENT_DATE_PATTERN.test(document.permissionOn)) blockers.push("Give the date permission was given.");
  if (!document.permissionUses.some(isPermissionUse)) blockers.push("Choose what the permission covers.");
  if (!DOCUMENT_DATE_PATTERN.test(document.permissionReview)) blockers.push("Give a date to review the permission.");
  return blockers;
}

/** How the back office, its audit trail and its mails name a testimonial: the person and organisation, or the description. */
export function testimonialName(document: TestimonialDocument): string {
  const name = document.anonymised
    ? document.description
    : [document.personName, document.organisation].filter((part) => part.trim()).join(", ");
  return name.trim() || "Untitled testimonial";
}
