import type { MediaItemView } from "#shared/admin/pages.ts";

/** A picture's words for those who cannot see it: its alt text, "Decorative", or that it needs some. */
export function AltState({ item }: { item: Pick<MediaItemView, "alt" | "decorative"> }) {
  if (item.decorative) return <p className="text-sm text-slate-700">Decorative (shown with empty alt text)</p>;
  if (item.alt)
    return (
      <p className="text-sm text-slate-800">
        <span className="font-medium">Alt text:</span> {item.alt}
      </p>
    );
  return (
    <p className="text-sm">
      <span className="inline-block rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950">
        Needs alt text
      </span>
    </p>
  );
}
