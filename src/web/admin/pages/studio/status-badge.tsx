import type { ArticleStatus } from "#shared/content/documents.ts";
import { ARTICLE_STATUS_LABELS } from "#shared/content/documents.ts";

// An article's status as the studio shows it: its word, a mark and a colour, so the colour is
// never the only sign (docs/decisions/038-the-database-holds-the-content.md says what each means).

const tones: Record<ArticleStatus, { mark: string; className: string }> = {
  draft: { mark: "○", className: "border-slate-300 bg-slate-50 text-slate-800" },
  scheduled: { mark: "◷", className: "border-amber-300 bg-amber-50 text-amber-900" },
  published: { mark: "●", className: "border-green-300 bg-green-50 text-green-900" },
  unpublished: { mark: "◌", className: "border-slate-400 bg-white text-slate-800" },
  trash: { mark: "✕", className: "border-red-300 bg-red-50 text-red-900" },
};

export function StatusBadge({ status }: { status: ArticleStatus }) {
  const tone = tones[status];
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tone.className}`}
    >
      <span aria-hidden="true">{tone.mark}</span>
      {ARTICLE_STATUS_LABELS[status]}
    </span>
  );
}
