import type { NewsletterCountsView, NewsletterStatusView } from "#shared/admin/pages.ts";

import {
  NEWSLETTER_BADGE_CLASS,
  NEWSLETTER_STATUS_LABELS,
  NEWSLETTER_STATUS_TONES,
} from "../../newsletters/newsletter-status.ts";

// What the newsletter pages share: a newsletter's state as a word and a mark (never the colour
// alone), and the counts of its mail.

export { NEWSLETTER_STATUS_LABELS };

export function NewsletterStatusBadge({ status }: { status: NewsletterStatusView }) {
  const tone = NEWSLETTER_STATUS_TONES[status];
  return (
    <span data-newsletter-status={status} className={`${NEWSLETTER_BADGE_CLASS} ${tone.className}`}>
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
