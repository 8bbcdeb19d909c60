import { describe, expect, it } from "vitest";
import { linesOfParts } from "#shared/admin/diff-parts.ts";
import { CONTENT_LIMITS } from "#shared/content/documents.ts";
import { bodyDiff, DIFF_MAX_EDITS } from "./compare.ts";

// The comparison's bound is a count of lines added or removed, so the same two texts get the same
// answer on a busy machine as on a quiet one (a time limit once said "too different" of a Compare
// a quiet machine showed).

const lines = (count: number, word: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => word(index)).join("\n");

describe("comparing two bodies", () => {
  it("compares two bodies of the body's limit in lines all the way when their changes are just under the bound", () => {
    const count = CONTENT_LIMITS.body / 2;
    const changed = DIFF_MAX_EDITS / 2 - 1;
    const from = lines(count, () => "a");
    const to = lines(count, (index) => (index % 50 === 0 && index < changed * 50 ? "b" : "a"));
    const parts = bodyDiff(from, to);
    expect(parts).toBeDefined();
    const shown = linesOfParts(parts!);
    expect(shown.filter((line) => line.kind === "added").length).toBeGreaterThan(0);
  });

  it("says two bodies are too different when more lines change than the bound", () => {
    const from = lines(10_000, (index) => `a${index.toString(36)}`);
    const to = lines(10_000, (index) => `b${index.toString(36)}`);
    expect(bodyDiff(from, to)).toBeUndefined();
  });

  it("shows the first changes of 3,000 lines with every tenth changed", () => {
    const line = (index: number, word: string) => `Relay ${String(index).padStart(4, "0")} set to ${word}.`;
    const from = lines(3000, (index) => line(index, "alarm"));
    const to = lines(3000, (index) => line(index, index % 10 === 5 ? "trip" : "alarm"));
    const shown = linesOfParts(bodyDiff(from, to)!);
    expect(shown).toContainEqual({ kind: "added", text: "Relay 0005 set to trip." });
    expect(shown).toContainEqual({ kind: "removed", text: "Relay 0005 set to alarm." });
  });
});
