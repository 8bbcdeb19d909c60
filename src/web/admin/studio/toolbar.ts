import { type Edit, edited } from "./markdown-tools.ts";

// The Markdown view's edits (its toolbar and shortcuts are wired in visual-editor.ts): each made
// as typing, so Ctrl+Z takes it back (docs/decisions/056-a-visual-editor-that-stores-markdown.md).

/**
 * Makes an edit as if typed: execCommand("insertText") keeps the browser's undo; where it is
 * missing or refuses, setRangeText does it (without undo) and the input event is sent by hand.
 */
export function applyEdit(textarea: HTMLTextAreaElement, edit: Edit): void {
  textarea.focus();
  textarea.setSelectionRange(edit.from, edit.to);
  const expected = edited(textarea.value, edit);
  let typed: boolean;
  try {
    typed =
      typeof document.execCommand === "function" &&
      (edit.insert === "" ? document.execCommand("delete") : document.execCommand("insertText", false, edit.insert));
  } catch {
    typed = false;
  }
  if (textarea.value !== expected) {
    if (typed) textarea.value = expected;
    else textarea.setRangeText(edit.insert, edit.from, edit.to);
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  }
  textarea.setSelectionRange(edit.selectStart, edit.selectEnd);
}
