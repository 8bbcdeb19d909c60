import { describe, expect, it } from "vitest";
import type { DiffLineView } from "#shared/admin/pages.ts";
import { foldUnchanged } from "./diff-lines.tsx";

// The compare page folds long runs of unchanged lines, keeping two around each change.

const same = (count: number, from = 1): DiffLineView[] =>
  Array.from({ length: count }, (_, index) => ({ kind: "same", text: `line ${from + index}` }));
const shape = (lines: DiffLineView[]) => foldUnchanged(lines).map((part) => `${part.kind}:${part.lines.length}`);

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
    expect(foldUnchanged(lines).flatMap((part) => part.lines)).toEqual(lines);
  });
});
