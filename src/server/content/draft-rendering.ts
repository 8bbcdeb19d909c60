import type { Database } from "../db/client.ts";
import type { RenderedArticle } from "./render-markdown.ts";
import { renderBody } from "./render-pool.ts";
import type { MediaIndex } from "./responsive-images.ts";

// Drafts' bodies rendered, kept in memory: a share or preview link's page (/preview/*) renders a
// body of up to 100,000 characters, which costs tens of milliseconds, and a link may be opened
// again and again. A rendering is a pure function of the Markdown and the media library's
// pictures, and a revision's document never changes (a replaced autosave is a new id:
// docs/decisions/048-autosave-limits-and-folding.md), so it is kept by the revision's id and the
// library's fingerprint (a picture changed renders it again, as the public pages' bodies are kept:
// public-content.ts). Per database, at most DRAFT_RENDERINGS_KEPT renderings and
// DRAFT_RENDERING_CHARACTERS characters of HTML, the least recently used leaving first. The live
// preview's text is no revision: each one is new, and its session's limit bounds them.

/** The most renderings kept, per database. */
export const DRAFT_RENDERINGS_KEPT = 32;
/** The most characters of HTML kept, per database (about 32 MB). */
export const DRAFT_RENDERING_CHARACTERS = 16_000_000;

type Kept = { rendered: RenderedArticle; size: number };

class Renderings {
  readonly #entries = new Map<string, Kept>();
  #size = 0;

  get(key: string): RenderedArticle | undefined {
    const kept = this.#entries.get(key);
    if (!kept) return undefined;
    // The most recently used is last.
    this.#entries.delete(key);
    this.#entries.set(key, kept);
    return kept.rendered;
  }

  set(key: string, rendered: RenderedArticle): void {
    const size = rendered.html.length;
    if (size > DRAFT_RENDERING_CHARACTERS) return;
    const before = this.#entries.get(key);
    if (before) {
      this.#entries.delete(key);
      this.#size -= before.size;
    }
    this.#entries.set(key, { rendered, size });
    this.#size += size;
    for (const [oldest, kept] of this.#entries) {
      if (this.#entries.size <= DRAFT_RENDERINGS_KEPT && this.#size <= DRAFT_RENDERING_CHARACTERS) break;
      this.#entries.delete(oldest);
      this.#size -= kept.size;
    }
  }
}

const byDatabase = new WeakMap<Database, Renderings>();
let renders = 0;

/** How many revisions' bodies this process has rendered (a kept rendering served is not one). */
export const draftRenderCount = () => renders;

/** A revision's body rendered as the article page renders it, kept for the next request of the same. */
export async function renderRevisionBody(
  db: Database,
  revisionId: number,
  markdown: string,
  images: MediaIndex,
): Promise<RenderedArticle> {
  const key = `${revisionId} ${images.fingerprint}`;
  let renderings = byDatabase.get(db);
  if (!renderings) {
    renderings = new Renderings();
    byDatabase.set(db, renderings);
  }
  const kept = renderings.get(key);
  if (kept) return kept;
  renders += 1;
  // Off the event loop (render-pool.ts); a stand-in rendered as text, when the worker could not
  // render in time, is not kept: the next request tries again.
  const { inTime, ...rendered } = await renderBody(markdown, images);
  if (inTime) renderings.set(key, rendered);
  return rendered;
}
