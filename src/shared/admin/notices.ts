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
  "synonyms-added": "The synonyms were added: searches use them at once.",
  "synonyms-removed": "The synonyms were removed.",
  "backup-started":
    "The backup has started. It takes a few minutes, then its restore drill a few more: this page shows both when they end.",
  "note-added": "The note was added.",
  replied: "Marked replied: the clock has stopped.",
  "not-spam": "Moved to New. Its notification mail is on its way (once).",
  "subscriber-removed": "The subscriber was removed.",
  "subscriber-bounce-lifted": "The bounce was lifted: the address is confirmed and gets the next newsletter.",
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
  // Projects in the studio.
  "project-created": "The project was created as a draft.",
  "project-published": "Published: the project is on the site.",
  "project-scheduled": "Scheduled: the project goes public at its publish date.",
  "project-unpublished": "Unpublished: the project is no longer on the site.",
  "project-trashed": "Moved to the trash. It stays there until restored.",
  "project-untrashed": "Restored from the trash, as a draft.",
  // The team.
  "team-member-created-shown": "The member was added and is on the site now.",
  "team-member-created-hidden": "The member was added, hidden: Show puts them on the site.",
  "team-member-saved-shown": "Saved: the site shows the change now.",
  "team-member-saved-hidden": "Saved. The member is hidden: Show puts them on the site.",
  "team-member-unchanged": "Nothing had changed, so nothing was saved.",
  "team-member-shown": "Shown: the member is on the site now.",
  "team-member-hidden": "Hidden: the member is no longer on the site.",
  "team-member-trashed": "Moved to the trash, and off the site. Restore brings the member back, hidden.",
  "team-member-untrashed": "Restored from the trash, hidden, at the end of the team.",
  "team-moved": "Moved. The site shows the new order now.",
  "team-not-moved": "Nothing moved: the member is already at that end of the team.",
  "team-reordered": "The new order is saved. The site shows it now.",
  // The media library.
  "media-uploaded": "Uploaded. Write its alt text, or mark it decorative: then it can be chosen for content.",
  "media-exists": "This picture is in the library already: here it is. Nothing was added.",
  "media-saved": "The alt text was saved.",
  "media-deleted": "The picture was deleted, with every size of it.",
  // Newsletters. (The newsletter's page names the address a test went to: "Test sent to …".)
  "newsletter-created": "The newsletter was saved as a draft. Check the preview, then send a test.",
  "newsletter-saved": "Draft saved.",
  "newsletter-unchanged": "Nothing had changed, so nothing was saved.",
  "newsletter-test-sent": "Test sent to your address.",
  "newsletter-sent": "Sending: each confirmed subscriber gets one copy. The counts below follow it.",
} as const;

export type AdminNotice = keyof typeof adminNotices;

/**
 * Notices that say what state a thing is in, with the states they are true of. The notice comes
 * from the address, which outlives the moment: an article scheduled and since gone public, a
 * newsletter that was sending and is sent. Such a notice is shown only while the page's thing is
 * still in one of its states.
 */
const NOTICE_STATES: Partial<Record<AdminNotice, readonly string[]>> = {
  "article-published": ["published"],
  "article-scheduled": ["scheduled"],
  "article-unpublished": ["unpublished"],
  "article-trashed": ["trash"],
  "article-untrashed": ["draft", "scheduled", "unpublished"],
  "project-published": ["published"],
  "project-scheduled": ["scheduled"],
  "project-unpublished": ["unpublished"],
  "project-trashed": ["trash"],
  "project-untrashed": ["draft", "scheduled", "unpublished"],
  "newsletter-sent": ["sending"],
};

/**
 * The notice key a query string names, or undefined for anything else: compared with a key, a
 * misspelt one fails the build (`noticeOf(query.notice) === "revision-restored"`).
 */
export function noticeOf(value: unknown): AdminNotice | undefined {
  return typeof value === "string" && Object.hasOwn(adminNotices, value) ? (value as AdminNotice) : undefined;
}

/**
 * The text of a notice key from a query string, or undefined for anything else, or for a notice
 * that no longer holds of `state` (the page's thing as it is now, when the page has one).
 */
export function noticeText(value: unknown, state?: string): string | undefined {
  const key = noticeOf(value);
  if (key === undefined) return undefined;
  const holds = NOTICE_STATES[key];
  if (holds && state !== undefined && !holds.includes(state)) return undefined;
  return adminNotices[key];
}
