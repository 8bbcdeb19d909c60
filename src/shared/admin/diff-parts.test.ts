import { describe, expect, it } from "vitest";
import type { DiffLineView } from "./pages.ts";
import { FOLDED_LINES_MAX, foldUnchanged, SHOWN_LINES_MAX } from "./diff-parts.ts";

// A comparison folds long runs of unchanged lines, keeping two around each change, and shows a
// bounded number of lines.

const same = (count: number, from = 1): DiffLineView[] =>
  Array.from({ length: count }, (_, index) => ({ kind: "same", text: `line ${from + index}` }));
const shape = (lines: DiffLineView[], foldedMax?: number) =>
  foldUnchanged(lines, undefined, foldedMax).map(
    (part) => `${part.kind}:${"lines" in part ? part.lines.length : part.count}`,
  );

describe("folding unchanged lines", () => {
  it("keeps two lines of context on each side of a change and folds the rest", () => {
    const lines: DiffLineView[] = [
      ...same(10),
      { kind: "removed", text: "old" },
      { kind: "added", text: "new" },
      ...same(10, 11),
      { kind: "added", text: "more" },
      ...same(8, 21),
    ];
    expect(shape(lines)).toEqual([
      "folded:8",
      "lines:2",
      "lines:2",
      "lines:2",
      "folded:6",
      "lines:2",
      "lines:1",
      "lines:2",
      "folded:6",
    ]);
  });

  it("does not fold a run that would hide a single line", () => {
    const lines: DiffLineView[] = [{ kind: "added", text: "a" }, ...same(5), { kind: "added", text: "b" }, ...same(3)];
    expect(shape(lines)).toEqual(["lines:1", "lines:5", "lines:1", "lines:3"]);
  });

  it("leaves every line in exactly one part, in order", () => {
    const lines: DiffLineView[] = [...same(7), { kind: "removed", text: "x" }, ...same(9, 8)];
    expect(foldUnchanged(lines).flatMap((part) => ("lines" in part ? part.lines : []))).toEqual(lines);
  });

  it("carries FOLDED_LINES_MAX unchanged lines in its folds at most, and counts the runs past that", () => {
    const lines: DiffLineView[] = [
      ...same(10),
      { kind: "added", text: "a" },
      ...same(10, 11),
      { kind: "added", text: "b" },
      ...same(10, 21),
    ];
    // With room for 14 folded lines: the first fold (8) and the second (6) fit; the third is left out.
    expect(shape(lines, 14)).toEqual([
      "folded:8",
      "lines:2",
      "lines:1",
      "lines:2",
      "folded:6",
      "lines:2",
      "lines:1",
      "lines:2",
      "left-out:8",
    ]);
    expect(shape(lines, 13)).toEqual([
      "folded:8",
      "lines:2",
      "lines:1",
      "lines:2",
      "left-out:6",
      "lines:2",
      "lines:1",
      "lines:2",
      "left-out:8",
    ]);
    // 50,000 unchanged lines around one change: the page carries FOLDED_LINES_MAX of them at most.
    const long: DiffLineView[] = [...same(25_000), { kind: "added", text: "c" }, ...same(25_000, 25_001)];
    const carried = foldUnchanged(long).reduce((sum, part) => sum + ("lines" in part ? part.lines.length : 0), 0);
    expect(carried).toBeLessThanOrEqual(FOLDED_LINES_MAX + 5);
  });

  it("shows SHOWN_LINES_MAX lines at most, and counts every line after them", () => {
    // 1,000 changes, one every 50 lines: each shown with two lines either side.
    const lines: DiffLineView[] = Array.from({ length: 1000 }, (_, change) => [
      ...same(49, change * 50),
      { kind: "added" as const, text: `change ${change}` },
    ]).flat();
    const parts = foldUnchanged(lines);
    const shown = parts.reduce((sum, part) => sum + (part.kind === "lines" ? part.lines.length : 0), 0);
    expect(shown).toBeLessThanOrEqual(SHOWN_LINES_MAX);
    expect(shown).toBeGreaterThan(SHOWN_LINES_MAX - 10);
    expect(parts.at(-1)!.kind).toBe("rest");
    const counted = parts.reduce((sum, part) => sum + ("lines" in part ? part.lines.length : part.count), 0);
    expect(counted).toBe(lines.length);
    // A comparison within the bound is whole.
    expect(foldUnchanged(lines.slice(0, 5000)).some((part) => part.kind === "rest")).toBe(false);
  });
});
