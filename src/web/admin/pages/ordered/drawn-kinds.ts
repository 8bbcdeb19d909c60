import { DRAWN_KINDS, type DrawnKindPlural } from "#shared/admin/collections/index.ts";
import { orderedRouteNames } from "#shared/admin/collections/kind.ts";

// The ordered kinds whose pages are drawn from their definition, by their list's name: what the
// two pages (ordered-list-page.tsx, ordered-item-page.tsx) read of a kind.

export type DrawnKind = (typeof DRAWN_KINDS)[number];

export function drawnKind(plural: DrawnKindPlural): DrawnKind {
  return DRAWN_KINDS.find((kind) => kind.plural === plural)!;
}

/** The kind's route names. */
export function drawnRouteNames(kind: DrawnKind) {
  return orderedRouteNames(kind);
}

/** A field's control id. */
export const drawnFieldId = (kind: DrawnKind, name: string) => `${kind.key}-${name}`;
