import type { TeamMemberStatus } from "#shared/admin/pages.ts";
import type { DrawnKind } from "./drawn-kinds.ts";

// Whether an item is on the site, in its kind's words ("Published", "Not published"), with a mark
// besides its colour (never the colour alone).

const tones: Record<TeamMemberStatus, { mark: string; className: string }> = {
  shown: { mark: "●", className: "border-green-300 bg-green-50 text-green-900" },
  hidden: { mark: "○", className: "border-slate-400 bg-white text-slate-800" },
  trash: { mark: "✕", className: "border-red-300 bg-red-50 text-red-900" },
};

export function DrawnStatusBadge({ kind, status }: { kind: DrawnKind; status: TeamMemberStatus }) {
  const tone = tones[status];
  const label = status === "shown" ? kind.pages.shown : status === "hidden" ? kind.pages.hidden : "In the trash";
  return (
    <span
      data-item-status={status}
      className={`inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tone.className}`}
    >
      <span aria-hidden="true">{tone.mark}</span>
      {label}
    </span>
  );
}
