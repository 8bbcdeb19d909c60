// The actions the audit trail records, one list: recordAudit takes only these, and the audit
// page's filter offers them. A new kind of change gets its name here first.

import { ARTICLES, ORDERED_KINDS, PROJECTS } from "./collections/index.ts";
import { orderedKindsAuditActions, studioAuditActions } from "./collections/kind.ts";

export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in-failed",
  "sign-out",
  "invitation-created",
  "invitation-accepted",
  "sign-in-link-created",
  "sign-in-link-used",
  "passkey-added",
  "passkey-removed",
  "staff-disabled",
  "staff-enabled",
  "sessions-ended",
  "enquiry-status-changed",
  "enquiry-assigned",
  "enquiry-note-added",
  "enquiry-replied",
  "enquiry-not-spam",
  "enquiries-exported",
  "subscriber-removed",
  "subscribers-exported",
  "subscriber-bounce-lifted",
  "erasure",
  "staff-role-changed",
  "staff-can-publish-changed",
  // The kinds of content (src/shared/admin/collections/): named by their definitions. A studio
  // kind's records name the item and the revision (details.revision): "article-published", …,
  // "article-purged" where its trash is purged; an ordered kind's name the item and, for a change
  // of its text, the revision: "team-member-shown", …, "team-order-changed".
  ...studioAuditActions(ARTICLES),
  "content-imported",
  ...studioAuditActions(PROJECTS),
  ...orderedKindsAuditActions(ORDERED_KINDS),
  // The media library: each records the picture (its file name) and its key (details.key).
  "media-uploaded",
  "media-alt-changed",
  "media-deleted",
  // Newsletters: each records the newsletter (its subject) and its version; a send, the recipients.
  "newsletter-created",
  "newsletter-saved",
  "newsletter-test-sent",
  "newsletter-sent",
  // Backups (the Health page): one asked for, and an archive downloaded (details.fileName).
  "backup-requested",
  "backup-downloaded",
  // Site search: a synonym group added or removed (details.terms).
  "search-synonyms-added",
  "search-synonyms-removed",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
