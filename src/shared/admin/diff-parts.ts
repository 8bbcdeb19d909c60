// How a comparison of two texts is shown, decided where it is made (the renderer's worker,
// src/server/admin/studio/compare.ts) so that what the page is sent is bounded: the changed lines
// with two unchanged lines either side, each longer run of unchanged lines folded (a <details> that
// opens without JavaScript). One comparison shows SHOWN_LINES_MAX lines and carries
// FOLDED_LINES_MAX in its folds at most: a fold past that says how many lines it stands for and
// carries none, and the lines past the first SHOWN_LINES_MAX say how many more there are. Two
// revisions of 50,000 lines, 999 changed, once made a page of 51,000 list items, and its props
// again as JSON, which held the server's event loop over half a second (the event-loop kit).

/** Unchanged lines kept around a change; a longer run between changes is folded. */
const CONTEXT = 2;
/** The most unchanged lines the folds of one comparison carry. */
export const FOLDED_LINES_MAX = 500;
/** The most lines one comparison shows, changed lines and those around them. */
export const SHOWN_LINES_MAX = 1000;

/** One line of a comparison: the same in both texts, or only in the newer (added) or the older (removed). */
export type DiffLineView = { kind: "same" | "added" | "removed"; text: string };

export type DiffPart =
  | { kind: "lines"; lines: DiffLineView[] }
  | { kind: "folded"; lines: DiffLineView[] }
  | { kind: "left-out"; count: number }
  | { kind: "rest"; count: number };

const linesIn = (part: DiffPart) => ("lines" in part ? part.lines.length : part.count);

/**
 * The lines in runs to show and runs to fold: unchanged runs longer than the context around
 * changes fold, while the folds have carried fewer than `foldedMax` lines; later ones are left
 * out. Past `shownMax` lines shown, the rest is one part that counts them.
 */
export function foldUnchanged(
  lines: readonly DiffLineView[],
  context = CONTEXT,
  foldedMax = FOLDED_LINES_MAX,
  shownMax = SHOWN_LINES_MAX,
): DiffPart[] {
  const parts = folds(lines, context, foldedMax);
  let shown = 0;
  for (const [at, part] of parts.entries()) {
    if (part.kind !== "lines") continue;
    shown += part.lines.length;
    if (shown <= shownMax) continue;
    const count = parts.slice(at).reduce((sum, rest) => sum + linesIn(rest), 0);
    return [...parts.slice(0, at), { kind: "rest", count }];
  }
  return parts;
}

function folds(lines: readonly DiffLineView[], context: number, foldedMax: number): DiffPart[] {
  const parts: DiffPart[] = [];
  let folded = 0;
  let index = 0;
  while (index < lines.length) {
    if (lines[index]!.kind !== "same") {
      const start = index;
      while (index < lines.length && lines[index]!.kind !== "same") index++;
      parts.push({ kind: "lines", lines: lines.slice(start, index) });
      continue;
    }
    const start = index;
    while (index < lines.length && lines[index]!.kind === "same") index++;
    const run = lines.slice(start, index);
    const keepBefore = start === 0 ? 0 : context;
    const keepAfter = index === lines.length ? 0 : context;
    if (run.length <= keepBefore + keepAfter + 1) {
      parts.push({ kind: "lines", lines: run });
      continue;
    }
    if (keepBefore) parts.push({ kind: "lines", lines: run.slice(0, keepBefore) });
    const count = run.length - keepBefore - keepAfter;
    if (folded + count <= foldedMax) {
      parts.push({ kind: "folded", lines: run.slice(keepBefore, run.length - keepAfter) });
      folded += count;
    } else parts.push({ kind: "left-out", count });
    if (keepAfter) parts.push({ kind: "lines", lines: run.slice(run.length - keepAfter) });
  }
  return parts;
}

/** The lines the parts show or carry in their folds, in order (without those only counted). */
export const linesOfParts = (parts: readonly DiffPart[]): DiffLineView[] =>
  parts.flatMap((part) => ("lines" in part ? part.lines : []));
