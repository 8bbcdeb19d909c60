import { DRAWN_KINDS, type DrawnKindPlural } from "#shared/admin/collections/index.ts";

// The ordered kinds whose pages are drawn from their definition, by their list's name: what the
// two pages (ordered-list-page.tsx, ordered-item-page.tsx) read of a kind.

export type DrawnKind = (typeof DRAWN_KINDS)[number];

export function drawnKind(plural: DrawnKindPlural): DrawnKind {
  return DRAWN_KINDS.find((kind) => kind.plural === plural)!;
}

/** A field's control id. */
export const drawnFieldId = (kind: DrawnKind, name: string) => `${kind.key}-${name}`;
