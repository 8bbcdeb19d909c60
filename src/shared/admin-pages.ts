// The contract between the server's back-office routes (src/server/admin/) and the back office's
// server-rendering entry (src/web/admin/entry-server.tsx): which page to render, with what.
// Dates travel as ISO strings; everything a page shows is in its props.

import type { AnalyticsPeriodKey, AnalyticsReport } from "./analytics.ts";

export type StaffRole = "admin" | "staff";

/** The signed-in member of staff, shown in the header on every page behind the sign-in. */
export type AdminViewer = { id: string; name: string; email: string; role: StaffRole };

/** The back office's own paths. */
export const adminPaths = {
  home: "/admin",
  signIn: "/admin/sign-in",
  signInEmail: "/admin/sign-in/email",
  signOut: "/admin/sign-out",
  account: "/admin/account",
  staff: "/admin/staff",
  audit: "/admin/audit",
  subscribers: "/admin/subscribers",
  analytics: "/admin/analytics",
  analyticsExclusion: "/admin/analytics/exclusion",
  invitation: (token: string) => `/admin/invite/${token}`,
  signInLink: (token: string) => `/admin/sign-in-link/${token}`,
  api: {
    signInOptions: "/admin/api/sign-in/options",
    signIn: "/admin/api/sign-in",
    registrationOptions: "/admin/api/passkeys/registration-options",
    registration: "/admin/api/passkeys/registration",
    analytics: "/admin/api/analytics",
  },
} as const;

/** The navigation, in order; `adminOnly` entries are shown to admins alone. */
export const adminNav: readonly { href: string; label: string; adminOnly?: boolean }[] = [
  { href: adminPaths.home, label: "Enquiries" },
  { href: adminPaths.subscribers, label: "Subscribers" },
  { href: adminPaths.analytics, label: "Analytics" },
  { href: adminPaths.staff, label: "Staff", adminOnly: true },
  { href: adminPaths.audit, label: "Audit log", adminOnly: true },
];

export type PasskeySummary = { id: string; label: string; createdAt: string; lastUsedAt: string | null };
export type SessionSummary = { current: boolean; device: string; method: string; createdAt: string; lastSeenAt: string };

export type StaffSummary = {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  createdAt: string;
  lastSignInAt: string | null;
  disabled: boolean;
  passkeys: number;
  sessions: number;
};

export type AuditEventView = {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  clientAddress: string | null;
  details: string | null;
};

/** A one-time link made on the Staff page: shown once, since only its hash is kept. */
export type IssuedLink = { kind: "invitation" | "sign-in"; email: string; url: string; mailed: boolean };

/** Props of every back-office page; `page` says which. */
export type AdminPageProps =
  | { page: "sign-in"; next: string; mailConfigured: boolean; notice?: string; error?: string; email?: string }
  | { page: "invitation"; token: string; invitee: { name: string; email: string; role: StaffRole } }
  | { page: "sign-in-link"; token: string; member: { name: string; email: string } }
  | { page: "link-unusable"; kind: "invitation" | "sign-in" }
  | { page: "placeholder"; viewer: AdminViewer; title: string; text: string }
  | { page: "account"; viewer: AdminViewer; passkeys: PasskeySummary[]; sessions: SessionSummary[]; notice?: string; error?: string }
  | { page: "staff"; viewer: AdminViewer; staff: StaffSummary[]; issued?: IssuedLink; notice?: string; error?: string; form?: Record<string, string> }
  | {
      page: "audit";
      viewer: AdminViewer;
      events: AuditEventView[];
      filter: { action: string; actor: string; from: string; to: string };
      actions: readonly string[];
      actors: { id: string; name: string }[];
      pageNumber: number;
      more: boolean;
    }
  | {
      page: "analytics";
      viewer: AdminViewer;
      period: AnalyticsPeriodKey;
      report: AnalyticsReport;
      /** This browser carries the marker that keeps it from being counted. */
      excluded: boolean;
      /** ANALYTICS is on. */
      enabled: boolean;
      notice?: string;
    }
  | { page: "error"; viewer?: AdminViewer; status: number; title: string; message: string };

export type AdminPageName = AdminPageProps["page"];

/** What the back office's server-rendering entry gives the server. */
export type AdminServerEntry = {
  renderAdminPage: (props: AdminPageProps) => { title: string; bodyHtml: string };
};
