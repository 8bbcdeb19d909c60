import { afterAll, describe, expect, it } from "vitest";
import { EVENT_LOOP_BUDGET_MS, longestEventLoopStall } from "../../../test/event-loop.ts";
import { mediaIndexOf } from "./media-index.ts";
import { bodyAddresses, closeRenderPool, renderBody, sitePathsLinked } from "./render-pool.ts";
import {
  bodiesParsedOnThisThread,
  renderArticleMarkdown,
  renderedAddresses,
  sitePathsLinked as sitePathsLinkedHere,
} from "./render-markdown.ts";

// Bodies are rendered in the renderer's worker thread, never on the event loop (decision 049): the
// same HTML, headings and words as rendering here, no body parsed on this thread, and a body the
// worker cannot render in time shown as its text and not kept.

const images = mediaIndexOf([
  { key: "0123456789abcdef", width: 1600, height: 900, alt: "A substation", decorative: false, sourcePath: null },
]);
const body = [
  "## Earthing studies",
  "",
  "Grid resistance, step and touch voltages. See [our services](/services) and [a study](/projects/x#top).",
  "",
  "![](/media/0123456789abcdef/original.jpg)",
  "",
  "### Method",
  "",
  "| a | b |\n|---|---|\n| 1 | 2 |",
].join("\n");

/** A GFM table of 100,000 characters: among the costliest bodies the studio accepts to parse. */
const wideTable = (() => {
  const row = `|${" x |".repeat(24)}\n`;
  const head = `|${" h |".repeat(24)}\n|${"---|".repeat(24)}\n`;
  return head + row.repeat(Math.floor((100_000 - head.length) / row.length));
})();

afterAll(closeRenderPool);

describe("the renderer's worker", () => {
  it("renders a body as the article page does, pictures included, without parsing it on this thread", async () => {
    const expected = renderArticleMarkdown(body, { resolveImage: images.resolve });
    const before = bodiesParsedOnThisThread();
    const rendered = await renderBody(body, images);
    expect(bodiesParsedOnThisThread()).toBe(before);
    expect(rendered).toEqual({ ...expected, inTime: true });
    expect(rendered.html).toContain('<img src="/media/0123456789abcdef/');
  });

  it("reads a body's addresses and site links there too", async () => {
    const addresses = renderedAddresses(body);
    const links = sitePathsLinkedHere(body);
    const before = bodiesParsedOnThisThread();
    expect(await bodyAddresses(body)).toEqual(addresses);
    expect(await sitePathsLinked(body)).toEqual(links);
    expect(bodiesParsedOnThisThread()).toBe(before);
    expect(links).toEqual(["/services", "/projects/x"]);
  });

  it("leaves the event loop free while it renders a 100,000-character table", async () => {
    await renderBody("warm", images); // The worker's start is not the point here.
    const before = bodiesParsedOnThisThread();
    let rendered: Awaited<ReturnType<typeof renderBody>> | undefined;
    const stall = await longestEventLoopStall(async () => {
      rendered = await renderBody(wideTable, images);
    });
    expect(rendered?.inTime).toBe(true);
    expect(rendered?.html).toContain("<table>");
    expect(bodiesParsedOnThisThread()).toBe(before);
    expect(stall).toBeLessThan(EVENT_LOOP_BUDGET_MS);
  });

  it("shows a body it cannot render in time as its text, escaped", async () => {
    // The one thread busy with the widest table (tens of milliseconds at least): a body given a
    // millisecond waits behind it, and its time runs out before the worker is free. (A limit of 0
    // alone raced a warm worker, which can answer a short body within the timer's first turn.)
    const busy = renderBody(wideTable, images);
    const rendered = await renderBody("## <b>Load flow</b>\n\nGrid & *stability*", images, 1);
    expect((await busy).inTime).toBe(true);
    expect(rendered.inTime).toBe(false);
    expect(rendered.html).toBe("<p>## &lt;b&gt;Load flow&lt;/b&gt;</p>\n<p>Grid &amp; *stability*</p>\n");
    expect(rendered.headings).toEqual([]);
  });
});
