// What the back office says after a change succeeded: one list, one way. A handler that changed
// something answers 303 to a page with `?notice=<key>` (the door's `seeOther`), and the door puts
// the text of a known key into that page's props as `notice`; an unknown key shows nothing. So a
// reload does not post again, and no text a visitor wrote can be shown as a notice.

export const adminNotices = {
  "signed-out": "You have signed out.",
  "passkey-added": "Your new passkey is ready: you can sign in with it from now on.",
  "passkey-removed": "The passkey was removed. It can no longer sign you in.",
  "signed-in-by-link":
    "You are signed in with a one-time link. Add a passkey for this device now, so that next time you can sign in with it.",
  "sessions-ended": "Your other sessions have ended.",
  disabled: "The account is disabled and its sessions have ended.",
  enabled: "The account is enabled again.",
  "staff-sessions-ended": "Their sessions have ended.",
  "role-changed": "The role was changed. It applies from their next request.",
  saved: "Saved.",
  "note-added": "The note was added.",
  replied: "Marked replied: the clock has stopped.",
  "not-spam": "Moved to New. Its notification mail is on its way (once).",
  "subscriber-removed": "The subscriber was removed.",
  excluded: "This browser is no longer counted.",
  included: "This browser is counted again.",
  "can-publish-changed": "Done. It applies from their next request.",
  "article-created": "The article was created as a draft.",
  "draft-saved": "Draft saved.",
  "article-published": "Published: the article is on the site.",
  "article-scheduled": "Scheduled: the article goes public at its publish date.",
  "article-unpublished": "Unpublished: the article is no longer on the site.",
  "article-trashed": "Moved to the trash. It can be restored for 30 days.",
  "article-untrashed": "Restored from the trash, as a draft.",
  "revision-restored": "That version is now the draft. Nothing was deleted: the one before is in History.",
  "share-link-revoked": "The share link was revoked: it no longer opens the draft.",
  // The media library.
  "media-uploaded": "Uploaded. Write its alt text, or mark it decorative: then it can be chosen for content.",
  "media-exists": "This picture is in the library already: here it is. Nothing was added.",
  "media-saved": "The alt text was saved.",
  "media-deleted": "The picture was deleted, with every size of it.",
} as const;

export type AdminNotice = keyof typeof adminNotices;

/** The text of a notice key from a query string, or undefined for anything else. */
export function noticeText(key: unknown): string | undefined {
  return typeof key === "string" && Object.hasOwn(adminNotices, key) ? adminNotices[key as AdminNotice] : undefined;
}
