import type { AnyExtension, JSONContent, MarkdownRendererHelpers } from "@tiptap/core";
import Image from "@tiptap/extension-image";
import { Italic } from "@tiptap/extension-italic";
import { Table, TableCell, TableHeader, TableRow } from "@tiptap/extension-table";
import { Markdown, MarkdownManager } from "@tiptap/markdown";
import StarterKit from "@tiptap/starter-kit";
import { markdownAlt } from "../media/picture-markdown.ts";

// The document the visual editor edits, and its Markdown in the house style of content/ (decision
// 056): the nodes and marks the site's Markdown renders (headings, paragraphs, lists, quotes, code,
// links, pictures, GFM tables) and nothing else, so what Write shows can always be written back as
// plain CommonMark + GFM. Shared by the editor (visual-editor.ts) and the round-trip test.

/** A table as content/ writes it: `| a | b |`, `|---|---|`, no padding, no blank line of its own. */
export function houseTable(node: JSONContent, h: MarkdownRendererHelpers): string {
  const rows = (node.content ?? []).map((row) =>
    (row.content ?? []).map((cell) => ({
      header: cell.type === "tableHeader",
      align: (cell.attrs?.align as string | null | undefined) ?? null,
      text: (cell.content ?? [])
        .map((child) => h.renderChildren(child))
        .join(" ")
        .replace(/\s*\n\s*/g, "<br>")
        .replace(/\\.|\|/g, (match) => (match === "|" ? "\\|" : match))
        .trim(),
    })),
  );
  const columns = rows.reduce((most, row) => Math.max(most, row.length), 0);
  if (!columns) return "";
  const hasHeader = rows[0]!.some((cell) => cell.header);
  const line = (texts: string[]) => `| ${texts.join(" | ")} |`;
  const cellsOf = (row: { text: string }[]) => Array.from({ length: columns }, (_, i) => row[i]?.text ?? "");
  const aligns = Array.from({ length: columns }, (_, i) => rows.find((row) => row[i]?.align)?.[i]?.align ?? null);
  const rule = `|${aligns.map((align) => (align === "left" ? ":---" : align === "right" ? "---:" : align === "center" ? ":---:" : "---")).join("|")}|`;
  const head = hasHeader ? cellsOf(rows[0]!) : Array.from({ length: columns }, () => "");
  const body = hasHeader ? rows.slice(1) : rows;
  return [line(head), rule, ...body.map((row) => line(cellsOf(row)))].join("\n");
}

/** The extensions of the document, for the editor (with its Markdown) and for tests. */
export function documentExtensions(): AnyExtension[] {
  return [
    StarterKit.configure({
      // Not in the site's Markdown (underline) or not wanted in a body (an empty paragraph the
      // editor adds after a table would change the text on its own).
      underline: false,
      trailingNode: false,
      italic: false,
      link: { openOnClick: false, autolink: false, linkOnPaste: true, HTMLAttributes: { rel: null, target: null } },
      heading: { levels: [2, 3, 4] },
    }),
    // _italic_, as content/ and the Markdown toolbar write it.
    Italic.extend({ renderMarkdown: (node, h) => `_${h.renderChildren(node)}_` }),
    Table.extend({ renderMarkdown: (node, h) => houseTable(node, h) }).configure({ resizable: false }),
    TableRow,
    TableHeader,
    TableCell,
    // A picture is inline, as ![alt](src) is in Markdown; its alt text kept and escaped.
    Image.extend({
      renderMarkdown: (node) => `![${markdownAlt(String(node.attrs?.alt ?? ""))}](${String(node.attrs?.src ?? "")})`,
    }).configure({ inline: true, allowBase64: false }),
  ];
}

/** The extensions with the Markdown extension, for the editor. */
export const editorExtensions = (): AnyExtension[] => [...documentExtensions(), Markdown];

/** Parser and serializer without an editor (tests, and the Markdown view's paste). */
export const markdownManager = () => new MarkdownManager({ extensions: documentExtensions() });

/** Markdown → document → Markdown, as the editor does it. */
export function roundTrip(markdown: string, manager = markdownManager()): string {
  return manager.serialize(manager.parse(markdown));
}
