import { currentSlugOf, type RedirectKind } from "../content/public-content.ts";
import type { Database } from "../db/client.ts";

// Old addresses of articles and projects (content_redirects): /blog/<old> answers a 301 to the
// item's current address while the item is public, else the 404 page, so an old address never
// reveals a new one (docs/decisions/038-the-database-holds-the-content.md, section 2). What an old
// address leads to changes with the content, so answers are kept per content version only, and
// bounded: old slugs asked for are visitor input.

/** The current slug an old address leads to now, or undefined: answer it as a 404. */
export type OldAddresses = (kind: RedirectKind, oldSlug: string) => Promise<string | undefined>;

/** Answers kept per content version, at most. */
const MAX_KEPT = 1000;

/**
 * Old addresses read through the public read condition at this instance's clock. With
 * `contentVersion`, each answer (a redirect or none) is kept until the version changes, so a
 * made-up address repeated costs no query; without (development), each is read afresh.
 */
export function oldAddresses(deps: { db: Database; now: () => Date; contentVersion?: () => string }): OldAddresses {
  const kept = new Map<string, string | undefined>();
  let keptVersion = "";
  return async (kind, oldSlug) => {
    const key = `${kind}/${oldSlug}`;
    const version = deps.contentVersion?.();
    if (version !== undefined) {
      if (version !== keptVersion) {
        kept.clear();
        keptVersion = version;
      }
      if (kept.has(key)) return kept.get(key);
    }
    const slug = await currentSlugOf(deps.db, kind, oldSlug, deps.now());
    // Kept only while the version it was read under is still the current one.
    if (version !== undefined && deps.contentVersion?.() === keptVersion && kept.size < MAX_KEPT) kept.set(key, slug);
    return slug;
  };
}

/**
 * How an old address's 301 may be kept: not at all without asking again. It changes with the
 * content (the item unpublished, the old slug released to another item), so no browser or proxy
 * may keep following it on its own.
 */
export const OLD_ADDRESS_CACHE_CONTROL = "no-cache";
