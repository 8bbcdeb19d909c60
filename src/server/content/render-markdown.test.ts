import { describe, expect, it } from "vitest";
import { HOSTILE_BODY } from "../../../test/hostile-markdown.ts";
import { readingMinutes, renderArticleMarkdown, slugifyHeading } from "./render-markdown.ts";

const hostile = `${HOSTILE_BODY}
## Load & Flow

### Load & Flow

## Load Flow 2

## Load & Flow

| A | B |
|---|---|
| 1 | 2 |
`;

describe("renderArticleMarkdown", () => {
  const { html, headings } = renderArticleMarkdown(hostile);

  it("removes every script vector of a hostile file", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).not.toMatch(/<svg/i);
    expect(html).not.toMatch(/\son\w+=/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/href="data:/i);
    expect(html).not.toMatch(/style=/i);
  });

  it("keeps the Markdown's structure: headings with anchor ids, links, tables, emphasis", () => {
    expect(html).toContain('<h2 id="section-title-inside-the-body">Title inside the body</h2>');
    expect(html).toContain('<h2 id="section-load-flow">Load &amp; Flow</h2>');
    expect(html).toContain('<h3 id="section-load-flow-2">Load &amp; Flow</h3>');
    expect(html).toContain('<a href="https://ieee.org/standards" rel="noopener noreferrer nofollow">a fine link</a>');
    expect(html).toContain('<a href="/contact">a relative one</a>');
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toMatch(/<table>[\s\S]*<td>1<\/td>/);
    expect(headings).toEqual([
      { id: "section-title-inside-the-body", text: "Title inside the body", level: 2 },
      { id: "section-load-flow", text: "Load & Flow", level: 2 },
      { id: "section-load-flow-2", text: "Load & Flow", level: 3 },
      // Its own slug is taken by the repeat above, and the next repeat skips past it.
      { id: "section-load-flow-2-2", text: "Load Flow 2", level: 2 },
      { id: "section-load-flow-3", text: "Load & Flow", level: 2 },
    ]);
  });
});

describe("slugifyHeading and readingMinutes", () => {
  it("make ids and reading times", () => {
    expect(slugifyHeading("IEEE 519: Harmonic Limits at the PCC")).toBe("ieee-519-harmonic-limits-at-the-pcc");
    expect(slugifyHeading("???")).toBe("section");
    expect(readingMinutes(50)).toBe(1);
    expect(readingMinutes(1001)).toBe(6);
  });
});
