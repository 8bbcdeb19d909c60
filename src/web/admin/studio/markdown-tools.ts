// The editor's toolbar, as pure functions: each tool takes the text and its selection and returns
// one edit (replace `from`..`to` with `insert`, then select `selectStart`..`selectEnd`), which the
// page applies as a single typing step so the browser's undo takes it back
// (docs/decisions/039-the-studios-editor-a-textarea-with-a-toolbar.md; the Markdown view of
// docs/decisions/056-a-visual-editor-that-stores-markdown.md).

export type TextSelection = { text: string; start: number; end: number };

export type Edit = { from: number; to: number; insert: string; selectStart: number; selectEnd: number };

export type ToolName = "bold" | "italic" | "heading" | "link" | "bulleted" | "numbered" | "quote" | "code" | "table";

/** The toolbar's buttons, in order: their name, the words read out, what they show, and their shortcut key. */
export const TOOLS: readonly { name: ToolName; label: string; text: string; key?: string }[] = [
  { name: "bold", label: "Bold", text: "B", key: "B" },
  { name: "italic", label: "Italic", text: "I", key: "I" },
  { name: "heading", label: "Heading", text: "H" },
  { name: "link", label: "Link", text: "Link", key: "K" },
  { name: "bulleted", label: "Bulleted list", text: "• List" },
  { name: "numbered", label: "Numbered list", text: "1. List" },
  { name: "quote", label: "Quote", text: "❝ Quote" },
  { name: "code", label: "Code", text: "</> Code" },
  { name: "table", label: "Table", text: "Table" },
];

/** aria-keyshortcuts of a tool: Ctrl on Windows and Linux, Cmd on a Mac. */
export const keyShortcuts = (key: string) => `Control+${key} Meta+${key}`;

/** The tool a key press asks for (Ctrl or Cmd, without Alt), or undefined. */
export function toolForKey(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}): ToolName | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return undefined;
  const key = event.key.toUpperCase();
  return TOOLS.find((tool) => tool.key === key)?.name;
}

export function applyTool(tool: ToolName, selection: TextSelection): Edit {
  switch (tool) {
    case "bold":
      return wrap(selection, "**", "bold text");
    case "italic":
      return wrap(selection, "_", "italic text");
    case "link":
      return link(selection);
    case "code":
      return code(selection);
    case "table":
      return table(selection);
    case "heading":
      return prefixLines(selection, headingStep);
    case "bulleted":
      return prefixLines(
        selection,
        listStep(/^[-*+] /, /^\d+\. /, () => "- "),
      );
    case "numbered":
      return prefixLines(
        selection,
        listStep(/^\d+\. /, /^[-*+] /, (index) => `${index + 1}. `),
      );
    case "quote":
      return prefixLines(
        selection,
        listStep(/^> ?/, /^$/, () => "> "),
      );
  }
}

/** The text with an edit made: what the textarea holds after it (for tests and the fallback). */
export function edited(text: string, edit: Edit): string {
  return text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
}

/** Puts markers around the selection, or takes them away when it already has them. */
function wrap({ text, start, end }: TextSelection, marker: string, placeholder: string): Edit {
  const selected = text.slice(start, end);
  const size = marker.length;
  // Already marked inside the selection: "**word**" selected.
  if (selected.length >= 2 * size && selected.startsWith(marker) && selected.endsWith(marker)) {
    const inner = selected.slice(size, -size);
    return { from: start, to: end, insert: inner, selectStart: start, selectEnd: start + inner.length };
  }
  // Marked just outside it: "word" selected in "**word**".
  if (text.slice(start - size, start) === marker && text.slice(end, end + size) === marker && start >= size) {
    return { from: start - size, to: end + size, insert: selected, selectStart: start - size, selectEnd: end - size };
  }
  if (!selected) {
    const insert = `${marker}${placeholder}${marker}`;
    return { from: start, to: end, insert, selectStart: start + size, selectEnd: start + size + placeholder.length };
  }
  // Spaces a double click selected stay outside the markers, where Markdown needs them.
  const lead = /^\s*/.exec(selected)![0];
  const trail = /\s*$/.exec(selected.slice(lead.length))![0];
  const core = selected.slice(lead.length, selected.length - trail.length);
  if (!core) return { from: start, to: end, insert: selected, selectStart: start, selectEnd: end };
  const insert = `${lead}${marker}${core}${marker}${trail}`;
  const coreStart = start + lead.length + size;
  return { from: start, to: end, insert, selectStart: coreStart, selectEnd: coreStart + core.length };
}

function link({ text, start, end }: TextSelection): Edit {
  const selected = text.slice(start, end);
  if (/^(https?:\/\/|\/)\S*$/.test(selected)) {
    const words = "link text";
    return {
      from: start,
      to: end,
      insert: `[${words}](${selected})`,
      selectStart: start + 1,
      selectEnd: start + 1 + words.length,
    };
  }
  const words = selected || "link text";
  const url = "https://";
  const insert = `[${words}](${url})`;
  // With words selected, the address is what is left to write; with none, the words come first.
  return selected
    ? {
        from: start,
        to: end,
        insert,
        selectStart: start + words.length + 3,
        selectEnd: start + words.length + 3 + url.length,
      }
    : { from: start, to: end, insert, selectStart: start + 1, selectEnd: start + 1 + words.length };
}

function code(selection: TextSelection): Edit {
  const { text, start, end } = selection;
  const selected = text.slice(start, end);
  if (!selected.includes("\n")) return wrap(selection, "`", "code");
  // Several lines: a fenced block on lines of its own.
  const fenced = selected.match(/^```[^\n]*\n([\s\S]*)\n```$/);
  if (fenced) {
    const inner = fenced[1]!;
    return { from: start, to: end, insert: inner, selectStart: start, selectEnd: start + inner.length };
  }
  return block(
    text,
    start,
    end,
    `\`\`\`\n${selected.replace(/\n$/, "")}\n\`\`\``,
    4,
    selected.replace(/\n$/, "").length,
  );
}

function table({ text, start, end }: TextSelection): Edit {
  const template = "| Column 1 | Column 2 |\n| --- | --- |\n| Cell | Cell |";
  return block(text, start, end, template, 2, "Column 1".length);
}

/**
 * Inserts a block (a table, a fenced code block) in place of `from`..`to`, with a blank line
 * before and after it where text touches it, and selects `length` characters `offset` into it.
 */
function block(text: string, from: number, to: number, content: string, offset: number, length: number): Edit {
  const before = text.slice(0, from);
  const after = text.slice(to);
  const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
  const trail = after === "" || after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
  const insert = `${lead}${content}${trail}`;
  const selectStart = from + lead.length + offset;
  return { from, to, insert, selectStart, selectEnd: selectStart + length };
}

/** How one tool changes the lines it acts on: from the lines, the new lines. */
type LineStep = (lines: string[]) => string[];

/** Headings cycle: a plain line becomes "## ", "## " becomes "### ", "### " (or deeper) plain again. */
const headingStep: LineStep = (lines) => {
  const first = lines.find((line) => line.trim()) ?? "";
  const level = /^(#{1,6}) /.exec(first)?.[1]?.length ?? 0;
  const next = level === 0 ? "## " : level === 2 ? "### " : "";
  return lines.map((line) => (line.trim() || lines.length === 1 ? next + line.replace(/^#{1,6} /, "") : line));
};

/**
 * A list or a quote: taken away when every written line has it, else given to every written line
 * (a line of the other kind of list changes kind).
 */
function listStep(own: RegExp, other: RegExp, marker: (index: number) => string): LineStep {
  return (lines) => {
    const written = lines.filter((line) => line.trim());
    if (written.length && written.every((line) => own.test(line))) return lines.map((line) => line.replace(own, ""));
    let index = 0;
    return lines.map((line) =>
      line.trim() || lines.length === 1 ? marker(index++) + line.replace(own, "").replace(other, "") : line,
    );
  };
}

/** Applies a line step to the whole lines the selection touches. */
function prefixLines({ text, start, end }: TextSelection, step: LineStep): Edit {
  const lastEnd = end > start && text[end - 1] === "\n" ? end - 1 : end;
  const from = text.lastIndexOf("\n", start - 1) + 1;
  const newline = text.indexOf("\n", lastEnd);
  const to = newline === -1 ? text.length : newline;
  const lines = text.slice(from, to).split("\n");
  const insert = step(lines).join("\n");
  if (start === end && lines.length === 1) {
    // A caret stays where it was in its line's words.
    const caret = Math.max(from, start + insert.length - (to - from));
    const position = Math.min(from + insert.length, caret);
    return { from, to, insert, selectStart: position, selectEnd: position };
  }
  return { from, to, insert, selectStart: from, selectEnd: from + insert.length };
}
