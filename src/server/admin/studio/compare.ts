import { diffLines } from "diff";
import type { DiffLineView, FieldDiffView } from "#shared/admin/pages.ts";
import type { StudioKindSpec } from "./kinds.ts";

// Two revisions of an item compared field by field, for the History's "Compare": the long text (an
// article's body, a project's description) line by line (jsdiff's diffLines), every other field as
// its old and new value, as the kind shows it (an article's publish date in India time).

/** The lines of a text, without the line break that ends each. */
const linesOf = (text: string) => text.replace(/\n$/, "").split("\n");

/** The body's lines compared. */
export function bodyDiff(from: string, to: string): DiffLineView[] {
  const lines: DiffLineView[] = [];
  // Compared as whole lines: the last line counts the same with or without its line break.
  const whole = (text: string) => (text && !text.endsWith("\n") ? `${text}\n` : text);
  for (const change of diffLines(whole(from), whole(to))) {
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
    if (field === spec.longField)
      lines = changed ? bodyDiff(before, after) : before ? linesOf(before).map((text) => ({ kind: "same", text })) : [];
    else if (!changed) lines = before ? [{ kind: "same", text: before }] : [];
    else
      lines = [
        ...(before ? [{ kind: "removed" as const, text: before }] : []),
        ...(after ? [{ kind: "added" as const, text: after }] : []),
      ];
    return { field, label: spec.labels[field]!, changed, lines };
  });
}
