import { paths } from "./paths.ts";
import type { StatedRetention } from "./retention.ts";

// The privacy notice is versioned (docs/decisions/055-a-notice-at-each-form.md): every enquiry and
// subscription stores the version its form showed, so the firm can say which words a person was
// given. A change to what the notice says adds a version at the end; none is ever removed, so a
// page rendered before the change still posts a version the server knows.

export type NoticeVersion = {
  /** Its name: the day it took effect. */
  version: string;
  /** What changed, for the privacy page's list of versions. */
  change: string;
};

export const privacyNoticeVersions = [
  {
    version: "2026-11-29",
    change:
      "The first versioned notice: the company's details and grievance officer, a short notice at each form, and translations into Hindi and Gujarati.",
  },
] as const satisfies readonly NoticeVersion[];

export const PRIVACY_NOTICE_VERSION: string = privacyNoticeVersions.at(-1)!.version;

/**
 * The hidden field of the enquiry and newsletter forms naming the version they showed. The forms'
 * islands write it as a literal, not importing this module, so their bundle holds none of it.
 */
export const NOTICE_VERSION_FIELD = "noticeVersion";

/**
 * The version a form post says it showed: the current one when it names none (a client of the
 * JSON API, or a page older than versions), undefined when it names one that never existed.
 */
export function noticeVersionOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return PRIVACY_NOTICE_VERSION;
  return privacyNoticeVersions.some((notice) => notice.version === value) ? (value as string) : undefined;
}

export const UNKNOWN_NOTICE_VERSION = `must name a version of the privacy notice (the current one is ${PRIVACY_NOTICE_VERSION})`;

/** The first of the two lines beside the enquiry form's button: what the data is for, how long it is kept. */
export const enquiryNoticeText = (retention: Pick<StatedRetention, "closedEnquiryDays" | "enquiryMonths">) =>
  `We use these details only to answer your enquiry and, if you ask, to prepare a proposal. We keep them ${retention.closedEnquiryDays} days after we close the enquiry, and ${retention.enquiryMonths} months at most.`;

/** The first of the two lines beside the newsletter box's button. */
export const NEWSLETTER_NOTICE_TEXT =
  "We use your address only to send this newsletter. An address not confirmed within 7 days is deleted; a confirmed one is kept until you unsubscribe.";

/** What a form's island is given to show beside its button, and to post back: the words and their version. */
export type FormNotice = { text: string; version: string };

export const enquiryFormNotice = (
  retention: Pick<StatedRetention, "closedEnquiryDays" | "enquiryMonths">,
): FormNotice => ({
  text: enquiryNoticeText(retention),
  version: PRIVACY_NOTICE_VERSION,
});

export const newsletterFormNotice: FormNotice = { text: NEWSLETTER_NOTICE_TEXT, version: PRIVACY_NOTICE_VERSION };

/** The languages the full notice can be read in: the English notice and its translations. */
export const privacyNoticeLanguages = [
  { lang: "en-IN", name: "English", path: paths.privacy },
  { lang: "hi", name: "हिन्दी", path: paths.privacyHindi },
  { lang: "gu", name: "ગુજરાતી", path: paths.privacyGujarati },
] as const;
