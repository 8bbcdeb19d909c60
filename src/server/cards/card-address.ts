import { createHash } from "node:crypto";
import { cardKeyOf, cardOfPage, type LinkCard, pathOfCardKey, SITE_CARD_KEY, siteCard } from "#shared/link-card.ts";
import type { RenderedPage } from "#shared/page-rendering.ts";

// A card's address names what it shows (docs/decisions/053-link-preview-cards.md):
// /cards/<the page's key>-<16 hexadecimal digits of a hash of the card>.jpg. A new title, label,
// byline, photo or capacity gives a new address, so LinkedIn, which keeps the first picture it
// fetched from an address for about a week, fetches the new card; the old address then answers 404.

/** Moved whenever draw-card.ts draws differently, so that every card gets a new address. */
const CARD_DESIGN = "2026-11-29.1";

/** `<key>-<hash>.jpg`: a key of letters, digits, hyphens and underscores, then the hash. */
export const CARD_NAME_PATTERN = /^([a-z0-9][a-z0-9_-]{0,199})-([0-9a-f]{16})\.jpg$/;

export function cardHash(card: LinkCard): string {
  const shown = [
    CARD_DESIGN,
    card.kind,
    card.title,
    card.label,
    card.author?.name ?? null,
    card.author?.photo ?? null,
    card.capacity ?? null,
  ];
  return createHash("sha256").update(JSON.stringify(shown)).digest("hex").slice(0, 16);
}

/** The path of a page's card: `key` is cardKeyOf(the page's path), or SITE_CARD_KEY. */
export function cardPath(key: string, card: LinkCard): string {
  return `/cards/${key}-${cardHash(card)}.jpg`;
}

/**
 * The card a rendered page names: a page of the route table that rendered its own content has its
 * own (key: its path's); anything else (the 404 page, the newsletter's link pages) the site's.
 */
export function cardOfRenderedPage(page: RenderedPage, pathname: string): { key: string; card: LinkCard } {
  const key = cardKeyOf(pathname);
  if (page.status === 200 && pathOfCardKey(key) === pathname) return { key, card: cardOfPage(page.meta) };
  return { key: SITE_CARD_KEY, card: siteCard };
}
