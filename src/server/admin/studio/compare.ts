import { diffLines } from "diff";
import type { DiffLineView, FieldDiffView } from "#shared/admin/pages.ts";
import { ARTICLE_FIELDS, type ArticleDocument } from "#shared/content/documents.ts";
import { ARTICLE_FIELD_LABELS, isoToIndiaLocal } from "./article-fields.ts";

// Two revisions of an article compared field by field, for the History's "Compare": the body line
// by line (jsdiff's diffLines), every other field as its old and new value.

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

/** How a field's value reads in a comparison (the publish date in India time, as the editor shows it). */
const shown = (field: keyof ArticleDocument, value: string) =>
  field === "publishedAt" && value ? `${isoToIndiaLocal(value).replace("T", " ")} (India time)` : value;

/** Every field of the two documents compared, in the document's order. */
export function compareDocuments(from: ArticleDocument, to: ArticleDocument): FieldDiffView[] {
  return ARTICLE_FIELDS.map((field) => {
    const before = from[field];
    const after = to[field];
    const changed = before !== after;
    let lines: DiffLineView[];
    if (field === "body")
      lines = changed ? bodyDiff(before, after) : before ? linesOf(before).map((text) => ({ kind: "same", text })) : [];
    else if (!changed) lines = before ? [{ kind: "same", text: shown(field, before) }] : [];
    else
      lines = [
        ...(before ? [{ kind: "removed" as const, text: shown(field, before) }] : []),
        ...(after ? [{ kind: "added" as const, text: shown(field, after) }] : []),
      ];
    return { field, label: ARTICLE_FIELD_LABELS[field], changed, lines };
  });
}
