import type { NewsletterCountsView, NewsletterStatusView } from "#shared/admin/pages.ts";

// What the newsletter pages share: a newsletter's state as a word and a mark (never the colour
// alone), and the counts of its mail.

export const NEWSLETTER_STATUS_LABELS: Record<NewsletterStatusView, string> = {
  draft: "Draft",
  sending: "Sending",
  sent: "Sent",
};

const tones: Record<NewsletterStatusView, { mark: string; className: string }> = {
  draft: { mark: "○", className: "border-slate-400 bg-white text-slate-800" },
  sending: { mark: "◐", className: "border-amber-400 bg-amber-50 text-amber-950" },
  sent: { mark: "●", className: "border-green-300 bg-green-50 text-green-900" },
};

export function NewsletterStatusBadge({ status }: { status: NewsletterStatusView }) {
  const tone = tones[status];
  return (
    <span
      data-newsletter-status={status}
      className={`inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tone.className}`}
    >
      <span aria-hidden="true">{tone.mark}</span>
      {NEWSLETTER_STATUS_LABELS[status]}
    </span>
  );
}

/** "Queued", "Sent" and "Failed", each a term and its number (the progress script updates the numbers). */
export function NewsletterCounts({ counts }: { counts: NewsletterCountsView }) {
  const items = [
    ["queued", "Queued", counts.queued],
    ["sent", "Sent", counts.sent],
    ["failed", "Failed", counts.failed],
  ] as const;
  return (
    <dl className="grid grid-cols-3 gap-3">
      {items.map(([key, label, value]) => (
        <div key={key} className="rounded-md border border-slate-200 bg-white px-3 py-2">
          <dt className="text-xs font-medium text-slate-600">{label}</dt>
          <dd className="text-xl font-semibold text-navy-900" data-newsletter-count={key}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
