import { diffLines } from "diff";
import type { DiffLineView, FieldDiffView } from "#shared/admin/pages.ts";
import type { StudioKindSpec } from "./kinds.ts";

// Two revisions of an item compared field by field, for the History's "Compare": the long text (an
// article's body, a project's description) line by line (jsdiff's diffLines), every other field as
// its old and new value, as the kind shows it (an article's publish date in India time).

/** The lines of a text, without the line break that ends each. */
const linesOf = (text: string) => text.replace(/\n$/, "").split("\n");

/**
 * The bound on one comparison: at most this many lines added or removed, and at most this long.
 * Comparing two texts costs their length times the number of lines that differ; unbounded, two
 * revisions of 10,000 changed lines held the event loop 28 s (the review's high finding), and a
 * Compare link is a GET anyone on the staff can hand an admin.
 */
export const DIFF_MAX_EDITS = 2_000;
export const DIFF_TIMEOUT_MS = 250;

/** The body's lines compared, or undefined when they differ too much to compare within the bound. */
export function bodyDiff(from: string, to: string): DiffLineView[] | undefined {
  const lines: DiffLineView[] = [];
  // Compared as whole lines: the last line counts the same with or without its line break.
  const whole = (text: string) => (text && !text.endsWith("\n") ? `${text}\n` : text);
  const changes = diffLines(whole(from), whole(to), { maxEditLength: DIFF_MAX_EDITS, timeout: DIFF_TIMEOUT_MS });
  if (!changes) return undefined;
  for (const change of changes) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    for (const text of linesOf(change.value)) lines.push({ kind, text });
  }
  return lines;
}

/** Every field of the two documents compared, in the document's order. */
export function compareDocuments<Doc>(spec: StudioKindSpec<Doc>, from: Doc, to: Doc): FieldDiffView[] {
  return spec.fields.map((field) => {
    const before = spec.shown(field, (from as Record<string, unknown>)[field]);
    const after = spec.shown(field, (to as Record<string, unknown>)[field]);
    const changed = before !== after;
    let lines: DiffLineView[];
    if (field === spec.longField) {
      const diff = changed
        ? bodyDiff(before, after)
        : before
          ? linesOf(before).map((text) => ({ kind: "same" as const, text }))
          : [];
      if (!diff) return { field, label: spec.labels[field]!, changed, lines: [], tooDifferent: true as const };
      lines = diff;
    } else if (!changed) lines = before ? [{ kind: "same", text: before }] : [];
    else
      lines = [
        ...(before ? [{ kind: "removed" as const, text: before }] : []),
        ...(after ? [{ kind: "added" as const, text: after }] : []),
      ];
    return { field, label: spec.labels[field]!, changed, lines };
  });
}
