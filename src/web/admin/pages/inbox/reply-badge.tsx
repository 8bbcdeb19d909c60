import type { ReplyStateView } from "#shared/admin/pages.ts";

/** Where an enquiry stands against the reply promise, coloured by urgency. */
export function ReplyBadge({ reply }: { reply: ReplyStateView }) {
  const tone =
    reply.kind === "overdue"
      ? "border-red-300 bg-red-50 text-red-900"
      : reply.kind === "due"
        ? "border-amber-300 bg-amber-50 text-amber-900"
        : reply.kind === "replied"
          ? "border-green-300 bg-green-50 text-green-900"
          : "border-slate-300 bg-slate-50 text-slate-700";
  return (
    <span className={`inline-block rounded-md border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tone}`}>
      {reply.label}
    </span>
  );
}
