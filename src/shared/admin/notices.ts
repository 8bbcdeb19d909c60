// What the back office says after a change succeeded: one list, one way. A handler that changed
// something answers 303 to a page with `?notice=<key>` (the door's `seeOther`), and the door puts
// the text of a known key into that page's props as `notice`; an unknown key shows nothing. So a
// reload does not post again, and no text a visitor wrote can be shown as a notice.

import { ARTICLES, ORDERED_KINDS, PROJECTS } from "./collections/index.ts";
import { orderedKindsNotices, studioKindNotices, studioNoticeStates } from "./collections/kind.ts";

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
  // The kinds of content (src/shared/admin/collections/): their notices are named and worded by
  // their definitions ("article-created", "team-member-shown", "team-moved", …).
  ...studioKindNotices(ARTICLES),
  ...studioKindNotices(PROJECTS),
  ...orderedKindsNotices(ORDERED_KINDS),
  // What every studio kind says alike.
  "draft-saved": "Draft saved.",
  "revision-restored": "That version is now the draft. Nothing was deleted: the one before is in History.",
  "share-link-revoked": "The share link was revoked: it no longer opens the draft.",
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
  ...studioNoticeStates(ARTICLES.key),
  ...studioNoticeStates(PROJECTS.key),
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
