import {
  SUBSCRIBER_STATE_LABELS,
  SUBSCRIBER_STATE_MEANINGS,
  type SubscriberState,
} from "#shared/admin/subscriber-states.ts";

// A subscription's state as the subscribers page shows it: its word, a mark and a colour, so the
// colour is never the only sign; its meaning as the title.

const tones: Record<SubscriberState, { mark: string; className: string }> = {
  pending: { mark: "◷", className: "border-amber-300 bg-amber-50 text-amber-900" },
  confirmed: { mark: "●", className: "border-green-300 bg-green-50 text-green-900" },
  unsubscribed: { mark: "○", className: "border-slate-300 bg-slate-50 text-slate-800" },
  bouncing: { mark: "✕", className: "border-red-300 bg-red-50 text-red-900" },
};

export function SubscriberStateBadge({ state }: { state: SubscriberState }) {
  const tone = tones[state];
  return (
    <span
      data-state={state}
      title={SUBSCRIBER_STATE_MEANINGS[state]}
      className={`inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tone.className}`}
    >
      <span aria-hidden="true">{tone.mark}</span>
      {SUBSCRIBER_STATE_LABELS[state]}
    </span>
  );
}
