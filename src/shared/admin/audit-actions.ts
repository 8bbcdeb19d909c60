// The actions the audit trail records, one list: recordAudit takes only these, and the audit
// page's filter offers them. A new kind of change gets its name here first.

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
  "erasure",
  "staff-role-changed",
  "staff-can-publish-changed",
  // The content studio: each records the article and the revision (details.revision).
  "article-published",
  "article-scheduled",
  "article-unpublished",
  "article-slug-changed",
  "article-trashed",
  "article-untrashed",
  "article-purged",
  "article-revision-restored",
  "article-link-created",
  "article-link-revoked",
  "content-imported",
  // The media library: each records the picture (its file name) and its key (details.key).
  "media-uploaded",
  "media-alt-changed",
  "media-deleted",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
