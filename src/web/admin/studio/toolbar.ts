import { choosePicture } from "../media/picture-chooser.ts";
import { pictureEdit } from "../media/picture-markdown.ts";
import { setShown } from "./visibility.ts";
import { applyTool, type Edit, edited, type ToolName, toolForKey } from "./markdown-tools.ts";

// The toolbar in the page: a role="toolbar" with roving focus (one button in the tab order, the
// arrows, Home and End move between them), the shortcuts in the textarea, and each edit made as
// typing, so Ctrl+Z takes it back (docs/decisions/039-the-studios-editor-a-textarea-with-a-toolbar.md).

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

/**
 * The Picture tool: the picture chooser, then ![alt](src) where the caret was (or is, when the
 * text changed meanwhile), as a paragraph of its own; nothing changes when it is closed.
 */
async function insertPicture(textarea: HTMLTextAreaElement): Promise<void> {
  const at = { value: textarea.value, start: textarea.selectionStart, end: textarea.selectionEnd };
  const picture = await choosePicture({ purpose: "a picture for the text" });
  if (!picture) return;
  const same = textarea.value === at.value;
  const start = same ? at.start : textarea.selectionStart;
  const end = same ? at.end : textarea.selectionEnd;
  applyEdit(textarea, pictureEdit(textarea.value, start, end, picture.alt, picture.src));
}

export function setupToolbar(toolbar: HTMLElement, textarea: HTMLTextAreaElement): void {
  const buttons = [...toolbar.querySelectorAll<HTMLButtonElement>("button[data-tool], button[data-picture-tool]")];
  const run = (tool: ToolName | undefined) => {
    if (!tool) {
      void insertPicture(textarea);
      return;
    }
    applyEdit(
      textarea,
      applyTool(tool, { text: textarea.value, start: textarea.selectionStart, end: textarea.selectionEnd }),
    );
  };
  const focusable = (index: number) => buttons.forEach((button, at) => (button.tabIndex = at === index ? 0 : -1));

  buttons.forEach((button, index) =>
    button.addEventListener("click", () => {
      focusable(index);
      run(button.dataset.tool as ToolName | undefined);
    }),
  );
  toolbar.addEventListener("keydown", (event) => {
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const last = buttons.length - 1;
    const next =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    focusable(next);
    buttons[next]!.focus();
  });
  textarea.addEventListener("keydown", (event) => {
    const tool = toolForKey(event);
    if (!tool) return;
    event.preventDefault();
    run(tool);
  });
  setShown(toolbar, true);
}
