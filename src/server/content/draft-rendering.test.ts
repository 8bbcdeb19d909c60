import { describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { DRAFT_RENDERINGS_KEPT, draftRenderCount, renderRevisionBody } from "./draft-rendering.ts";
import { mediaIndexOf } from "./responsive-images.ts";

// The revisions' renderings kept in memory: once per revision, per database and library, the least
// recently used leaving first beyond the bound.

const images = mediaIndexOf([]);
/** A database as the cache sees one: a key, never queried. */
const database = () => ({}) as Database;

describe("a draft's rendering", () => {
  it("is made once per revision, and again for a changed library or another database", async () => {
    const db = database();
    const before = draftRenderCount();
    const first = await renderRevisionBody(db, 7, "## Earthing\n\nGrid resistance.", images);
    expect(first.html).toContain("Grid resistance.");
    expect(await renderRevisionBody(db, 7, "## Earthing\n\nGrid resistance.", images)).toBe(first);
    expect(draftRenderCount() - before).toBe(1);
    const pictures = mediaIndexOf([
      { key: "k1", width: 800, height: 600, alt: "A grid", decorative: false, sourcePath: null },
    ]);
    await renderRevisionBody(db, 7, "## Earthing\n\nGrid resistance.", pictures);
    await renderRevisionBody(database(), 7, "## Earthing\n\nGrid resistance.", images);
    expect(draftRenderCount() - before).toBe(3);
  });

  it(`keeps at most ${DRAFT_RENDERINGS_KEPT}, the least recently used leaving first`, async () => {
    const db = database();
    const render = (id: number) => renderRevisionBody(db, id, `Revision ${id}.`, images);
    for (let id = 1; id <= DRAFT_RENDERINGS_KEPT; id += 1) await render(id);
    await render(1); // Used again: now the most recent.
    const before = draftRenderCount();
    await render(DRAFT_RENDERINGS_KEPT + 1); // Pushes out revision 2, the least recently used.
    await render(1);
    expect(draftRenderCount() - before).toBe(1);
    await render(2);
    expect(draftRenderCount() - before).toBe(2);
  });
});
