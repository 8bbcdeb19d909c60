import type { Edit } from "../studio/markdown-tools.ts";

// The Markdown of a library picture put into an article's body: ![alt](/media/<key>/original.<ext>),
// as a paragraph of its own at the caret (a blank line before and after, unless the text has one
// there already), replacing the selection. A pure function, tested without a browser.

/** Alt text as Markdown reads it inside ![…]: brackets and backslashes escaped, on one line. */
export function markdownAlt(alt: string): string {
  return alt.replace(/[\r\n]+/g, " ").replace(/([\\[\]])/g, "\\$1");
}

export function pictureEdit(text: string, start: number, end: number, alt: string, reference: string): Edit {
  const image = `![${markdownAlt(alt)}](${reference})`;
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const tail = after === "" ? "\n" : after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
  const insert = `${lead}${image}${tail}`;
  const caret = start + insert.length;
  return { from: start, to: end, insert, selectStart: caret, selectEnd: caret };
}
