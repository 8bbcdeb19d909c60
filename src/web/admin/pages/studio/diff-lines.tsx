import type { DiffPart } from "#shared/admin/diff-parts.ts";
import type { DiffLineView } from "#shared/admin/pages.ts";

// A line diff as the compare page shows it: added lines in <ins> with "+", removed in <del> with
// "−", each also said in words to screen readers, so colour is never the only sign; the parts
// (src/shared/admin/diff-parts.ts) as the server made them: lines, folds that open without
// JavaScript, and counts of the lines left out.

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

export function DiffLines({ parts, label }: { parts: readonly DiffPart[]; label: string }) {
  return (
    <div className="studio-diff" role="group" aria-label={label}>
      {parts.map((part, index) =>
        part.kind === "rest" ? (
          <p key={index} className="studio-diff-left-out">
            {part.count.toLocaleString("en-IN")} more line{part.count === 1 ? "" : "s"} not shown: too many changes to
            show on one page. Compare two revisions closer together.
          </p>
        ) : part.kind === "left-out" ? (
          <p key={index} className="studio-diff-left-out">
            {part.count.toLocaleString("en-IN")} unchanged line{part.count === 1 ? "" : "s"}, too many to show here
          </p>
        ) : part.kind === "lines" ? (
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
