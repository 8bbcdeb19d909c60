import { describe, expect, it } from "vitest";
import {
  MARKDOWN_HEADINGS_MAX,
  MARKDOWN_NESTING_MAX,
  markdownHeadingLines,
  markdownHeadingsProblem,
  markdownNestingDepth,
  markdownNestingProblem,
} from "./markdown-rules.ts";

describe("markdown nesting", () => {
  it.each([
    ["a paragraph", 0],
    ["> a quote", 1],
    ["> > > three deep", 3],
    [">>>> four, without spaces", 4],
    ["- a list item", 1],
    ["1. a numbered item\n   - with a bullet under it", 1],
    ["- > - a quote in a list in a list", 3],
    ["-not a list", 0],
    ["2026-11-29 is a date, not a list", 0],
    ["first line\n>>> third line deep", 3],
    [`${"> ".repeat(120)}a\nshallow`, 120],
  ])("counts %j as %i deep", (text, depth) => {
    expect(markdownNestingDepth(text)).toBe(depth);
  });

  it("refuses more than the most, naming the field, and lets the most through", () => {
    expect(markdownNestingProblem("Body", `${">".repeat(MARKDOWN_NESTING_MAX)} a`)).toBeUndefined();
    expect(markdownNestingProblem("Body", `${">".repeat(3000)} a`)).toBe(
      "Body nests quotes or lists more than 100 deep on one line; no reader can follow that.",
    );
    expect(markdownNestingProblem("Body", `${"- ".repeat(3000)}a`)).toMatch(/^Body nests/);
  });
});

describe("markdown headings", () => {
  it.each([
    ["# a\n## b\n###### c", 3],
    ["#\n#\n#", 3],
    ["Title\n=====\nSub\n---", 2],
    ["#hashtag is no heading\n    # code is none", 0],
    ["a paragraph with # in it", 0],
  ])("counts the heading lines of %j as %i", (text, lines) => {
    expect(markdownHeadingLines(text)).toBe(lines);
  });

  it("refuses more than the most, naming the field, and lets the most through", () => {
    expect(markdownHeadingsProblem("Body", "#\n".repeat(MARKDOWN_HEADINGS_MAX))).toBeUndefined();
    expect(markdownHeadingsProblem("Body", "#\n".repeat(50_000))).toBe(
      "Body has more than 500 headings; split it into several articles.",
    );
  });
});
