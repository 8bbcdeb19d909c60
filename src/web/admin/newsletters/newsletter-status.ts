import type { NewsletterStatusView } from "#shared/admin/pages.ts";

// A newsletter's state as a word and a mark (never the colour alone): what its badge shows, on the
// server (newsletter-parts.tsx) and when the progress script moves it on (progress.ts).

export const NEWSLETTER_STATUS_LABELS: Record<NewsletterStatusView, string> = {
  draft: "Draft",
  sending: "Sending",
  sent: "Sent",
};

export const NEWSLETTER_STATUS_TONES: Record<NewsletterStatusView, { mark: string; className: string }> = {
  draft: { mark: "○", className: "border-slate-400 bg-white text-slate-800" },
  sending: { mark: "◐", className: "border-amber-400 bg-amber-50 text-amber-950" },
  sent: { mark: "●", className: "border-green-300 bg-green-50 text-green-900" },
};

/** The badge's classes besides its tone's. */
export const NEWSLETTER_BADGE_CLASS =
  "inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-semibold whitespace-nowrap";
