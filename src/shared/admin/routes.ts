// The back office's routes, written once. The server registers exactly these (each area under
// src/server/admin/<area>/ gives one handler per name, and the compiler checks that every name has
// one), the door applies each route's access and rate limit from here, the pages build every link
// and form action with adminHref, the navigation is the routes that carry `nav`, and the access
// tests walk this table. No back-office path is written anywhere else.
// docs/decisions/036-the-back-office-route-table.md says why, and src/server/admin/README.md how to
// add a screen.

// Who may use a route is written in access.ts, which imports nothing, so that what this table is
// built from (the kinds' definitions) can name it without importing the table.
import type { AdminAccess } from "./access.ts";
export type { AdminAccess } from "./access.ts";

/**
 * A limit per client address per minute, in units of ADMIN_ATTEMPTS_PER_MINUTE. Routes naming the
 * same bucket share a count. `counts: "failures"` counts the refused answers alone (a passkey that
 * did not verify, a used or unknown token): opening a page or succeeding is not an attempt, so an
 * office behind one address can all accept their invitations at once. `counts: "requests"` counts
 * every request, for what costs something each time (a challenge written, a mail sent).
 */
export type AdminRateLimit = {
  bucket: string;
  counts: "failures" | "requests";
  times?: number;
  /** What is counted, for the 429's message ("reports"): it then names the limit too. Attempts unless said. */
  what?: string;
};

/**
 * A limit per signed-in session per minute, a number of its own (not in units of
 * ADMIN_ATTEMPTS_PER_MINUTE, which is about guessing): for what the studio's editor sends by
 * itself while someone types. Every request counts; `what` names them in the refusal ("Too many
 * autosaves from this session"). docs/decisions/048-autosave-limits-and-folding.md.
 */
export type AdminSessionLimit = { bucket: string; perMinute: number; what: string };

/**
 * Autosaves one session may send a minute. The editor sends one 2 s after a pause in typing and
 * at least every 10 s while typing goes on (src/web/admin/studio/autosave-schedule.ts): at most 30
 * a minute, more only with Ctrl+S pressed between changes. A refused autosave keeps the text and
 * is sent again when the answer's Retry-After has passed.
 */
export const AUTOSAVES_PER_MINUTE = 60;

/**
 * Live previews one session may ask for a minute. The editor asks 300 ms after each pause in
 * typing (src/web/admin/studio/live-preview.ts): fewer than 200 a minute however one types.
 */
export const LIVE_PREVIEWS_PER_MINUTE = 300;

export type AdminRouteDefinition = {
  readonly method: "GET" | "POST";
  /** The whole path, from /admin; `:name` segments are parameters. */
  readonly path: string;
  readonly access: AdminAccess;
  readonly limit?: AdminRateLimit;
  readonly sessionLimit?: AdminSessionLimit;
  /** An entry of the navigation, in `order`; shown to those the route's access admits. */
  readonly nav?: { readonly label: string; readonly order: number };
  /** The answer is JSON (the passkey ceremonies, the analytics API): errors are JSON too. */
  readonly json?: boolean;
  /** The body may be larger than the site's BODY_LIMIT_BYTES (bytes). */
  readonly bodyLimit?: number;
  /**
   * A successful answer of this route may have changed what visitors read (a picture's alt text, a
   * published item): after a 2xx or 3xx the door reads the content version again, before the answer
   * leaves, so the page it leads to already shows the change on this instance; the others see it
   * at their next poll. The write itself bumps the version in its transaction (data-version.ts).
   * docs/decisions/060-the-door-refreshes-the-content-version.md.
   */
  readonly publicContent?: boolean;
};

import { STUDIO_DOCUMENT_BODY_LIMIT } from "../content/documents.ts";
import { ARTICLES, ORDERED_KINDS, PROJECTS } from "./collections/index.ts";
import { orderedKindsRoutes, studioKindRoutes } from "./collections/kind.ts";
import type { AdminNotice } from "./notices.ts";

const attempts = (bucket: string): AdminRateLimit => ({ bucket, counts: "failures" });
const autosaves: AdminSessionLimit = { bucket: "autosave", perMinute: AUTOSAVES_PER_MINUTE, what: "autosaves" };
/** What the studio kinds' routes share: a whole document may be sent, and autosaves are limited per session. */
const studioLimits = { bodyLimit: STUDIO_DOCUMENT_BODY_LIMIT, autosaves };
const analyticsReports: AdminRateLimit = { bucket: "analytics", counts: "requests", times: 3, what: "reports" };

export const adminRoutes = {
  // The door: signing in, one-time links, passkeys.
  signIn: { method: "GET", path: "/admin/sign-in", access: "public" },
  signInOptions: {
    method: "POST",
    path: "/admin/api/sign-in/options",
    access: "public",
    json: true,
    limit: { bucket: "challenges", counts: "requests", times: 6 },
  },
  signInVerify: {
    method: "POST",
    path: "/admin/api/sign-in",
    access: "public",
    json: true,
    limit: attempts("sign-in"),
  },
  signInEmail: {
    method: "POST",
    path: "/admin/sign-in/email",
    access: "public",
    limit: { bucket: "link-by-email", counts: "requests" },
  },
  invitation: { method: "GET", path: "/admin/invite/:token", access: "public", limit: attempts("one-time-link") },
  signInLink: { method: "GET", path: "/admin/sign-in-link/:token", access: "public", limit: attempts("one-time-link") },
  signInLinkUse: {
    method: "POST",
    path: "/admin/sign-in-link/:token",
    access: "public",
    limit: attempts("one-time-link"),
  },
  registrationOptions: {
    method: "POST",
    path: "/admin/api/passkeys/registration-options",
    access: "public",
    json: true,
    limit: { bucket: "challenges", counts: "requests", times: 6 },
  },
  registration: {
    method: "POST",
    path: "/admin/api/passkeys/registration",
    access: "public",
    json: true,
    limit: attempts("registration"),
  },
  signOut: { method: "POST", path: "/admin/sign-out", access: "staff" },

  // Your account.
  account: { method: "GET", path: "/admin/account", access: "staff" },
  passkeyRemove: { method: "POST", path: "/admin/account/passkeys/:id/remove", access: "staff" },
  endOtherSessions: { method: "POST", path: "/admin/account/sessions/end-others", access: "staff" },

  // The enquiry inbox.
  inbox: { method: "GET", path: "/admin", access: "staff", nav: { label: "Enquiries", order: 1 } },
  enquiryList: { method: "GET", path: "/admin/enquiries", access: "staff" },
  inboxExport: { method: "GET", path: "/admin/enquiries/export.csv", access: "staff" },
  enquiry: { method: "GET", path: "/admin/enquiries/:id", access: "staff" },
  enquiryUpdate: { method: "POST", path: "/admin/enquiries/:id", access: "staff" },
  enquiryNote: { method: "POST", path: "/admin/enquiries/:id/notes", access: "staff" },
  enquiryReplied: { method: "POST", path: "/admin/enquiries/:id/replied", access: "staff" },
  enquiryNotSpam: { method: "POST", path: "/admin/enquiries/:id/not-spam", access: "staff" },

  // Newsletter subscribers.
  subscribers: { method: "GET", path: "/admin/subscribers", access: "staff", nav: { label: "Subscribers", order: 3 } },
  subscribersExport: { method: "GET", path: "/admin/subscribers/export.csv", access: "staff" },
  subscriberRemove: { method: "POST", path: "/admin/subscribers/:id/remove", access: "staff" },
  // Lifting a bounce mails the address again: for admins, who can judge the server's answer.
  subscriberLift: { method: "POST", path: "/admin/subscribers/:id/lift", access: "admin" },

  // Analytics.
  // Each report reads raw page views: a client may ask for 3 units a minute (30 by default), the
  // dashboard and the API together.
  analytics: {
    method: "GET",
    path: "/admin/analytics",
    access: "staff",
    nav: { label: "Analytics", order: 4 },
    limit: analyticsReports,
  },
  analyticsReport: {
    method: "GET",
    path: "/admin/api/analytics",
    access: "staff",
    json: true,
    limit: analyticsReports,
  },
  analyticsExclusion: { method: "POST", path: "/admin/analytics/exclusion", access: "staff" },

  // The content studio: articles (docs/decisions/038-the-database-holds-the-content.md), their
  // routes made from their definition (src/shared/admin/collections/articles.ts).
  ...studioKindRoutes(ARTICLES, studioLimits),
  // The live preview of a body's Markdown, as the public page will draw it.
  markdownPreview: {
    method: "POST",
    path: "/admin/api/markdown-preview",
    access: "staff",
    json: true,
    bodyLimit: STUDIO_DOCUMENT_BODY_LIMIT,
    sessionLimit: { bucket: "markdown-preview", perMinute: LIVE_PREVIEWS_PER_MINUTE, what: "previews" },
  },

  // The media library (src/server/admin/media/): uploads, alt text, where each picture is used.
  // An upload is multipart/form-data (the door's same-origin rule applies as to any post); its
  // limits (one file of 20 MB, a few small fields) are the upload handler's, as multipart is read
  // as a stream (docs/decisions/040-the-media-library.md). Deleting is for those who may publish.
  media: { method: "GET", path: "/admin/media", access: "staff", nav: { label: "Media", order: 2.5 } },
  // A picture added, described or deleted moves the content version: the public pages' media index
  // is kept by it (docs/decisions/041-responsive-images.md).
  mediaUpload: { method: "POST", path: "/admin/media", access: "staff", publicContent: true },
  mediaUploadApi: { method: "POST", path: "/admin/api/media", access: "staff", json: true, publicContent: true },
  mediaItem: { method: "GET", path: "/admin/media/:id", access: "staff" },
  mediaSave: { method: "POST", path: "/admin/media/:id", access: "staff", publicContent: true },
  mediaAltApi: {
    method: "POST",
    path: "/admin/api/media/:id/alt",
    access: "staff",
    json: true,
    publicContent: true,
  },
  // The picture chooser's list (src/web/admin/media/picture-chooser.ts): 48 at a time, searched.
  mediaChoicesApi: { method: "GET", path: "/admin/api/media/choices", access: "staff", json: true },
  mediaDelete: { method: "POST", path: "/admin/media/:id/delete", access: "publisher", publicContent: true },

  // Projects (src/server/admin/studio/, beside the articles: the same flow, the same handlers;
  // docs/decisions/042-projects-in-the-studio.md).
  ...studioKindRoutes(PROJECTS, studioLimits),

  // The ordered kinds (src/server/admin/ordered/): the team, testimonials, client logos. Everyone
  // sees a list; every change is public at once, so changing one needs publisher access
  // (docs/decisions/043-the-team-order-is-not-a-revision.md, 061-testimonials-and-client-logos.md).
  ...orderedKindsRoutes(ORDERED_KINDS),

  // Staff (admins).
  staff: { method: "GET", path: "/admin/staff", access: "admin", nav: { label: "Staff", order: 5 } },
  staffInvite: { method: "POST", path: "/admin/staff/invite", access: "admin" },
  staffRole: { method: "POST", path: "/admin/staff/:id/role", access: "admin" },
  staffSignInLink: { method: "POST", path: "/admin/staff/:id/sign-in-link", access: "admin" },
  staffDisable: { method: "POST", path: "/admin/staff/:id/disable", access: "admin" },
  staffEnable: { method: "POST", path: "/admin/staff/:id/enable", access: "admin" },
  staffEndSessions: { method: "POST", path: "/admin/staff/:id/end-sessions", access: "admin" },
  staffCanPublish: { method: "POST", path: "/admin/staff/:id/can-publish", access: "admin" },

  // The audit trail (admins).
  audit: { method: "GET", path: "/admin/audit", access: "admin", nav: { label: "Audit log", order: 6 } },

  // Privacy: erasure on request (admins).
  privacy: { method: "GET", path: "/admin/privacy", access: "admin", nav: { label: "Privacy", order: 7 } },
  privacyPreview: { method: "POST", path: "/admin/privacy/preview", access: "admin" },
  privacyErase: { method: "POST", path: "/admin/privacy/erase", access: "admin" },

  // Site search's synonyms (admins; src/server/admin/search/, docs/decisions/054-site-search.md):
  // groups of words that mean the same, each widening a visitor's search at once.
  searchSynonyms: {
    method: "GET",
    path: "/admin/search-synonyms",
    access: "admin",
    nav: { label: "Search synonyms", order: 7.5 },
  },
  searchSynonymAdd: { method: "POST", path: "/admin/search-synonyms", access: "admin" },
  searchSynonymRemove: { method: "POST", path: "/admin/search-synonyms/:id/remove", access: "admin" },

  // Health (admins; src/server/admin/health/, docs/decisions/052-the-health-page-and-alerts.md):
  // backups, mail, publishing and storage, each green or red with its reason.
  health: { method: "GET", path: "/admin/health", access: "admin", nav: { label: "Health", order: 8 } },
  // A backup made now (drilled and copied like the daily one, src/server/backup/daily-backup.ts),
  // and a finished backup's archive, streamed: each audited. A backup costs minutes of work.
  healthBackup: {
    method: "POST",
    path: "/admin/health/backup",
    access: "admin",
    limit: { bucket: "backups", counts: "requests", what: "backups" },
  },
  healthBackupDownload: { method: "GET", path: "/admin/health/backups/:id", access: "admin" },

  // Newsletters (src/server/admin/newsletters/; docs/back-office.md, "Newsletters"): compose,
  // preview, test and send. Anyone on the staff composes and tests; sending to the subscribers is
  // for those who may publish, as it reaches the public at once and cannot be taken back. A test
  // is a mail each time: limited per client like the other requests that cost something.
  newsletters: {
    method: "GET",
    path: "/admin/newsletters",
    access: "staff",
    nav: { label: "Newsletters", order: 3.5 },
  },
  newsletterNew: { method: "GET", path: "/admin/newsletters/new", access: "staff" },
  newsletterCreate: { method: "POST", path: "/admin/newsletters", access: "staff" },
  newsletter: { method: "GET", path: "/admin/newsletters/:id", access: "staff" },
  newsletterSave: { method: "POST", path: "/admin/newsletters/:id", access: "staff" },
  newsletterPreview: { method: "GET", path: "/admin/newsletters/:id/preview", access: "staff" },
  newsletterTest: {
    method: "POST",
    path: "/admin/newsletters/:id/test",
    access: "staff",
    limit: { bucket: "newsletter-test", counts: "requests" },
  },
  newsletterSendConfirm: { method: "GET", path: "/admin/newsletters/:id/send", access: "publisher" },
  newsletterSend: { method: "POST", path: "/admin/newsletters/:id/send", access: "publisher" },
  newsletterProgress: { method: "GET", path: "/admin/api/newsletters/:id/progress", access: "staff", json: true },
} as const satisfies Record<string, AdminRouteDefinition>;

export type AdminRouteName = keyof typeof adminRoutes;
export type AdminRoute<Name extends AdminRouteName = AdminRouteName> = (typeof adminRoutes)[Name];

/** The `:name` parameters of a path. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The parameters of a route, by name: `{ id: string }` for /admin/enquiries/:id, `{}` for /admin. */
export type AdminRouteParams<Name extends AdminRouteName> = { [Key in ParamNames<AdminRoute<Name>["path"]>]: string };

/**
 * An address's query: `notice` is a key of notices.ts (a misspelt one fails the build), the rest
 * whatever the page reads.
 */
type Query = { [name: string]: string | number | undefined; notice?: AdminNotice | undefined };

/**
 * The address of a route: its path with the parameters filled in (encoded), and an optional query
 * whose empty values are left out. `adminHref("enquiry", { id })`, `adminHref("inbox", {}, { page: 2 })`.
 */
export function adminHref<Name extends AdminRouteName>(
  name: Name,
  ...[params, query]: ParamNames<AdminRoute<Name>["path"]> extends never
    ? [params?: Record<string, never>, query?: Query]
    : [params: AdminRouteParams<Name>, query?: Query]
): string {
  const values = (params ?? {}) as Record<string, string>;
  const path = adminRoutes[name].path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(values[key]!));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** What decides which routes someone may use: their role, and whether an admin let them publish. */
export type AdminAccessHolder = { role: "admin" | "staff"; canPublish: boolean };

/** Whether someone (undefined: not signed in) may use a route of this access. */
export function admits(access: AdminAccess, holder: AdminAccessHolder | undefined): boolean {
  if (access === "public") return true;
  if (access === "staff") return holder !== undefined;
  if (access === "publisher") return holder !== undefined && (holder.role === "admin" || holder.canPublish);
  return holder?.role === "admin";
}

/** The navigation, in order, for someone signed in. */
export function adminNavigation(holder: AdminAccessHolder): { name: AdminRouteName; href: string; label: string }[] {
  return (Object.entries(adminRoutes) as [AdminRouteName, AdminRouteDefinition][])
    .filter(([, route]) => route.nav !== undefined && admits(route.access, holder))
    .sort(([, a], [, b]) => a.nav!.order - b.nav!.order)
    .map(([name, route]) => ({ name, href: route.path, label: route.nav!.label }));
}

/** Where the back office lives: every path of the table begins with it. */
export const ADMIN_PREFIX = "/admin";

/** The page people go to after signing in when they asked for no other. */
export const ADMIN_HOME = adminRoutes.inbox.path;
