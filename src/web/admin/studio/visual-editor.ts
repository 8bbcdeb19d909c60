import { Editor } from "@tiptap/core";
import { Plugin } from "@tiptap/pm/state";
import { pictureEdit } from "../media/picture-markdown.ts";
import { picturesOf } from "../media/send-picture.ts";
import { editorExtensions } from "./markdown-document.ts";
import { applyTool, type ToolName, toolForKey } from "./markdown-tools.ts";
import { cleanPastedHtml, dataUrlFile, looksLikeMarkdown } from "./paste-clean.ts";
import type { PictureLine, PlacedPicture } from "./paste-pictures.ts";
import { choosePicture } from "./picture-source.ts";
import { applyEdit } from "./toolbar.ts";
import { setShown } from "./visibility.ts";

// The Body's two views (docs/decisions/056-a-visual-editor-that-stores-markdown.md): "Write" shows
// the article as it will read, in a Tiptap (ProseMirror) editor; "Markdown" is the form's own
// textarea with its Markdown tools. The textarea stays the field the form sends, and what
// autosave, the browser's copy, the checklist and the live preview listen to: the visual editor
// writes its Markdown into it, with an input event, only when the writer changes the document, so
// an article opened and saved unchanged is the same text, byte for byte. One toolbar serves both.

export type BodyView = "write" | "markdown";

// Not under "studio:", the copies' prefix, which their sweep would take for a broken copy.
const VIEW_KEY = "studio-body-view";

/** The view the writer chose last in this browser ("write" unless they chose Markdown). */
function rememberedView(): BodyView {
  try {
    return window.localStorage.getItem(VIEW_KEY) === "markdown" ? "markdown" : "write";
  } catch {
    return "write";
  }
}

function rememberView(view: BodyView) {
  try {
    window.localStorage.setItem(VIEW_KEY, view);
  } catch {
    // No storage: the choice lasts this page.
  }
}

const TABLE_TOOLS = ["row-add", "row-remove", "column-add", "column-remove", "table-remove"] as const;

export type VisualEditor = {
  /** The view shown now. */
  view(): BodyView;
  /** The element that holds the caret in the view shown (to focus it). */
  focusTarget(): HTMLElement;
  /** The index of the top-level block the caret is in, and how many there are (for the preview). */
  caretBlock(): { index: number; count: number };
};

export function setupVisualEditor(options: {
  textarea: HTMLTextAreaElement;
  toolbar: HTMLElement;
  pictures: PictureLine;
  onCaret?: () => void;
}): VisualEditor {
  const { textarea, toolbar, pictures } = options;
  const holder = document.createElement("div");
  holder.className = "studio-visual-holder";
  textarea.before(holder);
  const buttons = () => [...toolbar.querySelectorAll<HTMLButtonElement>("button[data-tool]")].filter((b) => !b.hidden);
  const viewButton = toolbar.querySelector<HTMLButtonElement>('button[data-tool="markdown-view"]');
  let view: BodyView = rememberedView();
  // What the textarea held when the document was last read from it or written to it: a change
  // made in the Markdown view (or by a restore, or a pasted picture) is read again on the way back.
  let synced = textarea.value;
  let writing = false;

  const writeMarkdown = () => {
    const markdown = editor.getMarkdown();
    synced = markdown;
    if (markdown === textarea.value) return;
    writing = true;
    textarea.value = markdown;
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
    writing = false;
  };

  const describedBy = textarea.getAttribute("aria-describedby");
  const editor: Editor = new Editor({
    element: holder,
    extensions: editorExtensions(),
    content: textarea.value,
    contentType: "markdown",
    editable: !textarea.disabled && !textarea.readOnly,
    editorProps: {
      attributes: {
        id: "article-body-visual",
        class: "studio-visual article-body",
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": "Body",
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        spellcheck: "true",
      },
      // Word, Google Docs and web pages: their structure kept, their styles dropped; pictures the
      // HTML carries go to the media library, others are left out with a word about it.
      transformPastedHTML: (html) => {
        const cleaned = cleanPastedHtml(html, (source) => new DOMParser().parseFromString(source, "text/html"));
        if (cleaned.dataPictures.length) sendDataPictures(cleaned.dataPictures);
        if (cleaned.droppedPictures)
          pictures.say(
            cleaned.droppedPictures === 1
              ? "One picture was left out: the browser cannot copy it from there. Insert it with the Picture button."
              : `${cleaned.droppedPictures} pictures were left out: the browser cannot copy them from there. Insert them with the Picture button.`,
            true,
          );
        return cleaned.html;
      },
      handlePaste: (_view, event) => {
        const data = event.clipboardData;
        if (!data) return false;
        const files = picturesOf(data);
        const html = data.getData("text/html");
        // A picture file alone (a screenshot): to the library first.
        if (files.length && !html) {
          event.preventDefault();
          pictures.take(files, insertPicture);
          return true;
        }
        // Plain text that reads as Markdown goes in parsed.
        const text = data.getData("text/plain");
        if (!html && text && looksLikeMarkdown(text)) {
          event.preventDefault();
          editor.commands.insertContent(text, { contentType: "markdown" });
          return true;
        }
        return false;
      },
      handleDrop: (_view, event) => {
        const files = picturesOf(event.dataTransfer);
        if (!files.length) return false;
        event.preventDefault();
        pictures.take(files, insertPicture);
        return true;
      },
      handleKeyDown: (_view, event) => {
        // Ctrl/Cmd+K: a link (Bold and Italic are the editor's own Ctrl/Cmd+B and I).
        if (toolForKey(event) === "link") {
          event.preventDefault();
          runVisual("link");
          return true;
        }
        return false;
      },
    },
    onUpdate: () => writeMarkdown(),
    onSelectionUpdate: () => {
      showTableTools();
      options.onCaret?.();
    },
  });
  // A plugin that marks nothing but lets the table tools follow the caret on every transaction.
  editor.registerPlugin(new Plugin({ view: () => ({ update: () => showTableTools() }) }));

  function insertPicture(picture: PlacedPicture | { reference: string; alt: string }) {
    editor.chain().focus().setImage({ src: picture.reference, alt: picture.alt }).run();
  }

  function sendDataPictures(found: { src: string; alt: string }[]) {
    for (const [index, { src }] of found.entries()) {
      const file = dataUrlFile(src, `pasted-picture-${index + 1}`);
      if (file) pictures.take([file], insertPicture);
      else pictures.say("A pasted picture could not be read. Insert it with the Picture button.", true);
    }
  }

  /** Reads the textarea into the document when it changed outside the visual editor. */
  const readMarkdown = () => {
    if (textarea.value === synced) return;
    synced = textarea.value;
    editor.commands.setContent(textarea.value, { contentType: "markdown", emitUpdate: false });
  };
  textarea.addEventListener("input", () => {
    if (writing) return;
    // Typed in the Markdown view, or put there by a restore or a picture: the document follows
    // when it is shown (or now, if it is).
    if (view === "write") readMarkdown();
  });

  const headingLevel = () => ([2, 3, 4] as const).find((level) => editor.isActive("heading", { level }));

  function runVisual(tool: string) {
    const chain = editor.chain().focus();
    switch (tool) {
      case "bold":
        return chain.toggleBold().run();
      case "italic":
        return chain.toggleItalic().run();
      case "heading": {
        // As the Markdown tool does: paragraph → ## → ### → paragraph.
        const level = headingLevel();
        if (level === undefined) return chain.setHeading({ level: 2 }).run();
        if (level === 2) return chain.setHeading({ level: 3 }).run();
        return chain.setParagraph().run();
      }
      case "link": {
        const current = editor.getAttributes("link").href as string | undefined;
        const address = window.prompt(
          "Link address (for example /contact or https://…); empty removes the link",
          current ?? "",
        );
        if (address === null) return editor.commands.focus();
        const trimmed = address.trim();
        if (!trimmed) return chain.extendMarkRange("link").unsetLink().run();
        if (!/^(https?:\/\/|mailto:|\/|#)/i.test(trimmed)) {
          pictures.say("Not linked: an address starts with /, https://, http://, mailto: or #.", true);
          return editor.commands.focus();
        }
        if (editor.state.selection.empty && !current)
          return chain
            .insertContent({ type: "text", text: trimmed, marks: [{ type: "link", attrs: { href: trimmed } }] })
            .run();
        return chain.extendMarkRange("link").setLink({ href: trimmed }).run();
      }
      case "bulleted":
        return chain.toggleBulletList().run();
      case "numbered":
        return chain.toggleOrderedList().run();
      case "quote":
        return chain.toggleBlockquote().run();
      case "code":
        return editor.state.selection.empty ? chain.toggleCodeBlock().run() : chain.toggleCode().run();
      case "table":
        if (editor.isActive("table")) return chain.addRowAfter().run();
        return chain.insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run();
      case "row-add":
        return chain.addRowAfter().run();
      case "row-remove":
        return chain.deleteRow().run();
      case "column-add":
        return chain.addColumnAfter().run();
      case "column-remove":
        return chain.deleteColumn().run();
      case "table-remove":
        return chain.deleteTable().run();
    }
    return false;
  }

  async function picture() {
    const chosen = await choosePicture();
    if (!chosen) return;
    if (view === "write") insertPicture({ reference: chosen.src, alt: chosen.alt });
    else
      applyEdit(
        textarea,
        pictureEdit(textarea.value, textarea.selectionStart, textarea.selectionEnd, chosen.alt, chosen.src),
      );
  }

  function showTableTools() {
    const inTable = view === "write" && editor.isActive("table");
    for (const name of TABLE_TOOLS) {
      const button = toolbar.querySelector<HTMLButtonElement>(`button[data-tool="${name}"]`);
      if (button) setShown(button, inTable);
    }
    // The button with the tab stop must stay shown.
    const shown = buttons();
    if (shown.length && !shown.some((b) => b.tabIndex === 0)) shown[0]!.tabIndex = 0;
  }

  function show(next: BodyView, focus: boolean) {
    if (next === "write") readMarkdown();
    view = next;
    setShown(holder, view === "write");
    setShown(textarea, view === "markdown");
    toolbar.setAttribute("aria-controls", view === "write" ? "article-body-visual" : textarea.id);
    viewButton?.setAttribute("aria-pressed", String(view === "markdown"));
    toolbar.dataset.view = view;
    showTableTools();
    if (focus) focusTarget().focus();
  }

  const focusTarget = () => (view === "write" ? editor.view.dom : textarea);

  // The toolbar's buttons: each tool in the view shown; the arrows, Home and End move between
  // the buttons shown, one of which is in the tab order (the one used last).
  const focusable = (target: HTMLButtonElement) => {
    for (const button of toolbar.querySelectorAll<HTMLButtonElement>("button[data-tool]"))
      button.tabIndex = button === target ? 0 : -1;
  };
  toolbar.addEventListener("click", (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>("button[data-tool]");
    if (!button || !toolbar.contains(button)) return;
    focusable(button);
    const tool = button.dataset.tool!;
    if (tool === "markdown-view") {
      const next = view === "write" ? "markdown" : "write";
      rememberView(next);
      show(next, true);
      return;
    }
    if (tool === "picture") {
      void picture();
      return;
    }
    if (view === "write") runVisual(tool);
    else if (!TABLE_TOOLS.includes(tool as (typeof TABLE_TOOLS)[number]))
      applyEdit(
        textarea,
        applyTool(tool as ToolName, {
          text: textarea.value,
          start: textarea.selectionStart,
          end: textarea.selectionEnd,
        }),
      );
  });
  toolbar.addEventListener("keydown", (event) => {
    const shown = buttons();
    const index = shown.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const last = shown.length - 1;
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
    focusable(shown[next]!);
    shown[next]!.focus();
  });
  // The Markdown view's shortcuts (Ctrl/Cmd+B, I, K), as the textarea had them.
  textarea.addEventListener("keydown", (event) => {
    const tool = toolForKey(event);
    if (!tool) return;
    event.preventDefault();
    applyEdit(
      textarea,
      applyTool(tool, { text: textarea.value, start: textarea.selectionStart, end: textarea.selectionEnd }),
    );
  });
  // The label "Body" leads to the view shown.
  document.querySelector<HTMLLabelElement>(`label[for="${textarea.id}"]`)?.addEventListener("click", (event) => {
    if (view !== "write") return;
    event.preventDefault();
    editor.commands.focus();
  });

  show(view, false);
  setShown(toolbar, true);

  return {
    view: () => view,
    focusTarget,
    caretBlock: () => {
      if (view === "write") {
        const { $from } = editor.state.selection;
        return { index: $from.depth ? $from.index(0) : 0, count: editor.state.doc.childCount };
      }
      const before = textarea.value.slice(0, textarea.selectionStart);
      const blocks = (text: string) => text.split(/\n\s*\n/).filter((part) => part.trim()).length;
      return { index: Math.max(0, blocks(before) - 1), count: blocks(textarea.value) };
    },
  };
}
