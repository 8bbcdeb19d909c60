// What a Markdown text may hold beyond its length: block quotes and list items nested at most
// MARKDOWN_NESTING_MAX deep on a line. The parser descends once per level, and `>` × 3,000 overflowed
// its stack (the live preview, the editor, the page and the feed answered 500). No article needs a
// tenth of it. Read once, line by line: the check's own work grows with the text, no faster.

export const MARKDOWN_NESTING_MAX = 100;

/** The deepest run of quote and list markers opening any line of the text. */
export function markdownNestingDepth(text: string): number {
  let deepest = 0;
  let depth = 0;
  let atLineStart = true;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === "\n") {
      depth = 0;
      atLineStart = true;
      index += 1;
      continue;
    }
    if (!atLineStart) {
      index += 1;
      continue;
    }
    if (char === " " || char === "\t") {
      index += 1;
      continue;
    }
    if (char === ">") {
      depth += 1;
      index += 1;
    } else if ((char === "-" || char === "*" || char === "+") && /[ \t]/.test(text[index + 1] ?? "")) {
      depth += 1;
      index += 2;
    } else {
      const ordered = /^\d{1,9}[.)][ \t]/.exec(text.slice(index, index + 12));
      if (ordered) {
        depth += 1;
        index += ordered[0].length;
      } else atLineStart = false;
    }
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

/** The problem with a Markdown field's nesting, in words naming it, or undefined. */
export function markdownNestingProblem(label: string, text: string): string | undefined {
  return markdownNestingDepth(text) > MARKDOWN_NESTING_MAX
    ? `${label} nests quotes or lists more than ${MARKDOWN_NESTING_MAX} deep on one line; no reader can follow that.`
    : undefined;
}
