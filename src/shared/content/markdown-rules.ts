// What a Markdown text may hold beyond its length: block quotes and list items nested at most
// MARKDOWN_NESTING_MAX deep on a line, and at most MARKDOWN_HEADINGS_MAX headings. The parser descends once per level, and `>` × 3,000 overflowed
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

/**
 * The most headings a body may have. Each heading is an element with an id and an entry in the
 * page's contents; 50,000 empty "#" lines (the 100,000-character limit's worth) held the event loop
 * over half a second to render, each time the live preview or a draft's page asked. A long article
 * has tens.
 */
export const MARKDOWN_HEADINGS_MAX = 500;

/**
 * How many lines of the text can make a heading: "#" to "######" lines, and lines of "=" or "-"
 * alone that underline the line above. Counted generously (a rule "---" counts too), once, line
 * by line.
 */
export function markdownHeadingLines(text: string): number {
  const matches = text.match(/^ {0,3}(?:#{1,6}(?:[ \t][^\n]*)?|=+[ \t]*|-+[ \t]*)$/gm);
  return matches ? matches.length : 0;
}

/** The problem with a Markdown field's headings, in words naming it, or undefined. */
export function markdownHeadingsProblem(label: string, text: string): string | undefined {
  return markdownHeadingLines(text) > MARKDOWN_HEADINGS_MAX
    ? `${label} has more than ${MARKDOWN_HEADINGS_MAX} headings; split it into several articles.`
    : undefined;
}
