import { diffLines } from "diff";
import { type DiffPart, foldUnchanged } from "#shared/admin/diff-parts.ts";
import type { DiffLineView, FieldDiffView } from "#shared/admin/pages.ts";
import type { StudioKindSpec } from "./kinds.ts";

// Two revisions of an item compared field by field, for the History's "Compare": the long text (an
// article's body, a project's description) line by line (jsdiff's diffLines), every other field as
// its old and new value, as the kind shows it (an article's publish date in India time).

/** An unchanged line. */
const same = (text: string): DiffLineView => ({ kind: "same", text });

/** The lines of a text, without the line break that ends each. */
const linesOf = (text: string) => text.replace(/\n$/, "").split("\n");

/**
 * The bound on one comparison: at most this many lines added or removed. Comparing two texts costs
 * their length times the number of lines that differ; unbounded, two revisions of 10,000 changed
 * lines held the event loop 28 s (the review's high finding), and a Compare link is a GET anyone on
 * the staff can hand an admin. With the body's limit of 50,000 lines this bound holds the
 * renderer's worker at most about 0.4 s on the bench machine. The bound is a count, not a time: a
 * time limit (there was one, 250 ms) gave a different answer on a busy machine than on a quiet one.
 */
export const DIFF_MAX_EDITS = 2_000;

/**
 * The body's lines compared, as the page shows them (folded and bounded: diff-parts.ts), or
 * undefined when they differ too much to compare within the bound.
 */
export function bodyDiff(from: string, to: string): DiffPart[] | undefined {
  const lines: DiffLineView[] = [];
  // Compared as whole lines: the last line counts the same with or without its line break.
  const whole = (text: string) => (text && !text.endsWith("\n") ? `${text}\n` : text);
  const changes = diffLines(whole(from), whole(to), { maxEditLength: DIFF_MAX_EDITS });
  if (!changes) return undefined;
  for (const change of changes) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    for (const text of linesOf(change.value)) lines.push({ kind, text });
  }
  return foldUnchanged(lines);
}

/**
 * Every field of the two documents compared, in the document's order; the long text on the
 * renderer's worker (`diffBody`, content/render-pool.ts), off the event loop.
 */
export async function compareDocuments<Doc>(
  spec: StudioKindSpec<Doc>,
  from: Doc,
  to: Doc,
  diffBody: (from: string, to: string) => Promise<DiffPart[] | undefined>,
): Promise<FieldDiffView[]> {
  const fields: FieldDiffView[] = [];
  for (const field of spec.fields) fields.push(await compareField(spec, field, from, to, diffBody));
  return fields;
}

async function compareField<Doc>(
  spec: StudioKindSpec<Doc>,
  field: StudioKindSpec<Doc>["fields"][number],
  from: Doc,
  to: Doc,
  diffBody: (from: string, to: string) => Promise<DiffPart[] | undefined>,
): Promise<FieldDiffView> {
  const before = spec.shown(field, (from as Record<string, unknown>)[field]);
  const after = spec.shown(field, (to as Record<string, unknown>)[field]);
  const changed = before !== after;
  const view = { field, label: spec.labels[field]!, changed };
  if (field === spec.longField) {
    // An unchanged text needs no comparison, only folding; a changed one goes to the worker.
    if (!changed) return { ...view, parts: before ? foldUnchanged(linesOf(before).map(same)) : [] };
    const parts = await diffBody(before, after);
    return parts ? { ...view, parts } : { ...view, parts: [], tooDifferent: true as const };
  }
  const lines: DiffLineView[] = !changed
    ? before
      ? [same(before)]
      : []
    : [
        ...(before ? [{ kind: "removed" as const, text: before }] : []),
        ...(after ? [{ kind: "added" as const, text: after }] : []),
      ];
  return { ...view, parts: lines.length ? [{ kind: "lines", lines }] : [] };
}
