// The analytics report: what GET /admin/api/analytics answers and the dashboard shows
// (docs/decisions/031-cookieless-analytics.md). Dates are India dates, YYYY-MM-DD, inclusive.

export type AnalyticsReport = {
  from: string;
  to: string;
  /**
   * Days of the period before yesterday whose page views are not rolled up yet (housekeeping is
   * working through them): their views are not in these numbers; their enquiries and
   * subscriptions are.
   */
  pendingDays: string[];
  visitors: number;
  pageviews: number;
  enquiries: number;
  subscriptions: number;
  /** Enquiries per visitor, 0 without visitors. */
  conversionRate: number;
  daily: { date: string; visitors: number; pageviews: number; enquiries: number }[];
  pages: { path: string; views: number; visitors: number; enquiries: number }[];
  sources: { source: string; visitors: number; enquiries: number }[];
  campaigns: { campaign: string; visitors: number; enquiries: number }[];
  funnel: { step: string; visitors: number }[];
  devices: { device: string; visitors: number }[];
};

/** The funnel's steps, in order, as the report names them. */
export const funnelSteps = [
  { key: "visited", label: "Visited the site" },
  { key: "interested", label: "Viewed a service, industry or project page" },
  { key: "contact", label: "Reached /contact" },
  { key: "enquired", label: "Sent an enquiry" },
] as const;

/** The source of a visit with neither a UTM source nor another site's referrer. */
export const DIRECT_SOURCE = "(direct)";

/** The periods the dashboard offers; "custom" takes its own dates. */
export const analyticsPeriods = [
  { key: "today", label: "Today", days: 1 },
  { key: "7d", label: "7 days", days: 7 },
  { key: "30d", label: "30 days", days: 30 },
  { key: "12m", label: "12 months", days: 365 },
  { key: "custom", label: "Custom", days: 0 },
] as const;
export type AnalyticsPeriodKey = (typeof analyticsPeriods)[number]["key"];

/** The longest range a report covers, in days. */
export const MAX_REPORT_DAYS = 731;
