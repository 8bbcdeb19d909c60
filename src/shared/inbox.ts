import { limits } from "./site.ts";

// The enquiry inbox's vocabulary, shared by the server (which filters and validates) and the
// back office's pages (which show it): the statuses, and the reply promise's arithmetic.

export const ENQUIRY_STATUSES = ["new", "contacted", "qualified", "proposal-sent", "won", "lost", "spam"] as const;
export type EnquiryStatus = (typeof ENQUIRY_STATUSES)[number];

export const statusLabels: Record<EnquiryStatus, string> = {
  new: "New",
  contacted: "Contacted",
  qualified: "Qualified",
  "proposal-sent": "Proposal sent",
  won: "Won",
  lost: "Lost",
  spam: "Spam",
};

/** Won and Lost: the work on it is over, the reply clock no longer matters. */
export const CLOSED_STATUSES: readonly EnquiryStatus[] = ["won", "lost"];

export function isEnquiryStatus(value: unknown): value is EnquiryStatus {
  return typeof value === "string" && (ENQUIRY_STATUSES as readonly string[]).includes(value);
}

const HOUR_MS = 3_600_000;
/** The promise the site makes every visitor, in one place (limits.replyWithinHours). */
export const REPLY_WITHIN_MS = limits.replyWithinHours * HOUR_MS;
/** The reminder goes to the owner this long before the reply is due. */
export const REMINDER_BEFORE_MS = 4 * HOUR_MS;

export function dueAt(receivedAt: Date): Date {
  return new Date(receivedAt.getTime() + REPLY_WITHIN_MS);
}

/** "45 min" under an hour, else whole hours ("5 h"), rounded down. */
export function formatSpan(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h`;
}

export type ReplyState =
  | { kind: "due"; label: string }
  | { kind: "overdue"; label: string }
  | { kind: "replied"; label: string; withinPromise: boolean }
  | { kind: "none"; label: string };

/**
 * Where an enquiry stands against the promise: "Due in 5 h", "Overdue by 3 h" (from the due
 * moment itself), "Replied in 2 h". Spam, and enquiries closed without a reply, have no clock.
 */
export function replyState(
  enquiry: { receivedAt: Date; firstReplyAt: Date | null; status: string },
  now: Date,
): ReplyState {
  const due = dueAt(enquiry.receivedAt).getTime();
  if (enquiry.firstReplyAt) {
    const took = enquiry.firstReplyAt.getTime() - enquiry.receivedAt.getTime();
    return { kind: "replied", label: `Replied in ${formatSpan(took)}`, withinPromise: took <= REPLY_WITHIN_MS };
  }
  if (enquiry.status === "spam") return { kind: "none", label: "Spam" };
  if ((CLOSED_STATUSES as readonly string[]).includes(enquiry.status))
    return { kind: "none", label: "Closed without reply" };
  const left = due - now.getTime();
  return left > 0
    ? { kind: "due", label: `Due in ${formatSpan(left)}` }
    : { kind: "overdue", label: `Overdue by ${formatSpan(-left)}` };
}
