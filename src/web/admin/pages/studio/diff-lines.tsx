import type { DiffLineView } from "#shared/admin/pages.ts";

// A line diff as the compare page shows it: added lines in <ins> with "+", removed in <del> with
// "−", each also said in words to screen readers, so colour is never the only sign; a long run of
// unchanged lines is folded into a <details> that opens without JavaScript.

/** Unchanged lines kept around a change; a longer run between changes is folded. */
const CONTEXT = 2;

export type DiffPart = { kind: "lines"; lines: DiffLineView[] } | { kind: "folded"; lines: DiffLineView[] };

/** The lines in runs to show and runs to fold: unchanged runs longer than the context around changes fold. */
export function foldUnchanged(lines: readonly DiffLineView[], context = CONTEXT): DiffPart[] {
  const parts: DiffPart[] = [];
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
    parts.push({ kind: "folded", lines: run.slice(keepBefore, run.length - keepAfter) });
    if (keepAfter) parts.push({ kind: "lines", lines: run.slice(run.length - keepAfter) });
  }
  return parts;
}

function Line({ line }: { line: DiffLineView }) {
  const text = line.text === "" ? "\u00a0" : line.text;
  if (line.kind === "added")
    return (
      <li className="studio-diff-added">
        <ins>
          <span aria-hidden="true" className="studio-diff-mark">
            +
          </span>
          <span className="sr-only">Added: </span>
          {text}
        </ins>
      </li>
    );
  if (line.kind === "removed")
    return (
      <li className="studio-diff-removed">
        <del>
          <span aria-hidden="true" className="studio-diff-mark">
            −
          </span>
          <span className="sr-only">Removed: </span>
          {text}
        </del>
      </li>
    );
  return (
    <li className="studio-diff-same">
      <span aria-hidden="true" className="studio-diff-mark">
        {" "}
      </span>
      {text}
    </li>
  );
}

export function DiffLines({ lines, label }: { lines: readonly DiffLineView[]; label: string }) {
  return (
    <div className="studio-diff" role="group" aria-label={label}>
      {foldUnchanged(lines).map((part, index) =>
        part.kind === "lines" ? (
          <ol key={index} className="studio-diff-lines">
            {part.lines.map((line, lineIndex) => (
              <Line key={lineIndex} line={line} />
            ))}
          </ol>
        ) : (
          <details key={index} className="studio-diff-fold">
            <summary>
              {part.lines.length} unchanged line{part.lines.length === 1 ? "" : "s"}
            </summary>
            <ol className="studio-diff-lines">
              {part.lines.map((line, lineIndex) => (
                <Line key={lineIndex} line={line} />
              ))}
            </ol>
          </details>
        ),
      )}
    </div>
  );
}
