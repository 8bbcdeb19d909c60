// How long the website keeps what visitors send: these are the defaults; the privacy notice states
// the periods the site is configured with (StatedRetention) and the running site's retention job
// (server/enquiries/retention.ts) enforces them.

export const retention = {
  /** An enquiry is deleted from the website's database this many months after it was sent. */
  enquiryMonths: 24,
  /** A message marked as spam (honeypot, sent too fast, a forged or reused token) is deleted after this many days. */
  spamDays: 30,
  /**
   * An enquiry closed as Won or Lost is deleted this many days after it closed (ENQUIRY_RETENTION_DAYS
   * overrides it): a year covers the follow-up and the next round of a tender, after which a won
   * job lives in the firm's project records and a lost one has served its purpose.
   */
  closedEnquiryDays: 365,
  /** The back office's audit trail keeps an event this many months. */
  auditMonths: 24,
  /**
   * Page views (analytics) are deleted after this many days; only daily totals stay. The default
   * of ANALYTICS_RETENTION_DAYS (the privacy notice states the configured value).
   */
  analyticsDays: 90,
} as const;

/**
 * The periods the privacy notice states: the running site's, from its configuration
 * (SPAM_RETENTION_DAYS, ENQUIRY_RETENTION_DAYS, ANALYTICS_RETENTION_DAYS), the rest fixed above.
 */
export type StatedRetention = {
  [Key in keyof typeof retention]: number;
};
