// The contract between the server's back-office routes (src/server/admin/) and the back office's
// server-rendering entry (src/web/admin/entry-server.tsx): which page to render, with what.
// Dates travel as ISO strings; everything a page shows is in its props.

import type { AnalyticsPeriodKey, AnalyticsReport } from "../analytics.ts";
import type { FormState } from "./forms.ts";

export type StaffRole = "admin" | "staff";

/** The signed-in member of staff, shown in the header on every page behind the sign-in. */
export type AdminViewer = { id: string; name: string; email: string; role: StaffRole };

export type PasskeySummary = { id: string; label: string; createdAt: string; lastUsedAt: string | null };
export type SessionSummary = {
  current: boolean;
  device: string;
  method: string;
  createdAt: string;
  lastSeenAt: string;
};

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

/** Where an enquiry stands against the reply promise (src/shared/inbox.ts computes it). */
export type ReplyStateView = { kind: "due" | "overdue" | "replied" | "none"; label: string };

export type InboxFilter = { status: string; owner: string; service: string; from: string; to: string; q: string };

export type InboxRowView = {
  id: string;
  reference: string;
  name: string;
  email: string;
  company: string | null;
  service: string | null;
  receivedAt: string;
  status: string;
  owner: string | null;
  reply: ReplyStateView;
  spamReason: string | null;
  /** Where the sender came from (analytics): "via google, landed on /blog/…", or null. */
  attribution: string | null;
};

export type PromiseFigures = {
  /** Enquiries of the last 30 days whose outcome is known (replied, or past due). */
  counted: number;
  /** Of those, answered within the promise. */
  answered: number;
  /** Median time to the first reply over the last 30 days, in milliseconds; null with no replies. */
  medianReplyMs: number | null;
};

export type EnquiryView = {
  id: string;
  reference: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string | null;
  service: string | null;
  message: string;
  receivedAt: string;
  dueAt: string;
  status: string;
  ownerId: string | null;
  owner: string | null;
  firstReplyAt: string | null;
  firstReplyBy: string | null;
  spamReason: string | null;
  /** Where the sender came from (analytics): "via google, landed on /blog/…", or null. */
  attribution: string | null;
  version: number;
  reply: ReplyStateView;
};

export type NoteView = { id: string; author: string; at: string; body: string };
export type MailView = {
  kind: string;
  status: string;
  attempts: number;
  nextAttemptAt: string;
  sentAt: string | null;
  lastError: string | null;
};
export type SubscriberView = { id: string; email: string; createdAt: string };
export type ErasureCounts = { enquiries: number; notes: number; mail: number; subscriptions: number };

/**
 * What any page may show besides its own data: the notice after a change (the door fills it from
 * `?notice=`, src/shared/admin/notices.ts), a problem with the whole request, and a refused form's
 * values and problems at their fields (src/shared/admin/forms.ts). `formName` says which of the
 * page's forms `form` belongs to, on a page with more than one.
 */
export type PageMessages = { notice?: string; error?: string; form?: FormState; formName?: string };

type Signed = { viewer: AdminViewer };

/** Props of every back-office page; `page` says which. */
export type AdminPageProps = PageMessages &
  (
    | { page: "sign-in"; next: string; mailConfigured: boolean }
    | { page: "invitation"; token: string; invitee: { name: string; email: string; role: StaffRole } }
    | { page: "sign-in-link"; token: string; member: { name: string; email: string } }
    | { page: "link-unusable"; kind: "invitation" | "sign-in" }
    | (Signed & { page: "account"; passkeys: PasskeySummary[]; sessions: SessionSummary[] })
    | (Signed & { page: "staff"; staff: StaffSummary[]; issued?: IssuedLink })
    | (Signed & {
        page: "audit";
        events: AuditEventView[];
        filter: { action: string; actor: string; from: string; to: string };
        actions: readonly string[];
        actors: { id: string; name: string }[];
        pageNumber: number;
        more: boolean;
      })
    | (Signed & {
        page: "inbox";
        rows: InboxRowView[];
        filter: InboxFilter;
        counts: { new: number; overdue: number; unassigned: number };
        promise: PromiseFigures;
        staff: { id: string; name: string }[];
        pageNumber: number;
        more: boolean;
      })
    | (Signed & {
        page: "enquiry";
        enquiry: EnquiryView;
        notes: NoteView[];
        mail: MailView[];
        staff: { id: string; name: string }[];
      })
    | (Signed & { page: "subscribers"; subscribers: SubscriberView[]; q: string; pageNumber: number; more: boolean })
    | (Signed & {
        page: "privacy";
        /** The periods this site is configured with (SPAM_RETENTION_DAYS and the others). */
        retention: RetentionView;
        /** The address looked up, shown with its counts; never in a URL (the preview is a POST). */
        email?: string;
        preview?: ErasureCounts;
        erased?: ErasureCounts;
      })
    | (Signed & {
        page: "analytics";
        period: AnalyticsPeriodKey;
        report: AnalyticsReport;
        /** This browser carries the marker that keeps it from being counted. */
        excluded: boolean;
        /** ANALYTICS is on. */
        enabled: boolean;
      })
    | { page: "error"; viewer?: AdminViewer; status: number; title: string; message: string }
  );

/** How long the site keeps what it holds, as configured. */
export type RetentionView = { spamDays: number; closedEnquiryDays: number; analyticsDays: number };

/** The props of one page. */
export type AdminPagePropsOf<Name extends AdminPageName> = Extract<AdminPageProps, { page: Name }>;

export type AdminPageName = AdminPageProps["page"];

/** What the back office's server-rendering entry gives the server. */
export type AdminServerEntry = {
  renderAdminPage: (props: AdminPageProps) => { title: string; bodyHtml: string };
};
