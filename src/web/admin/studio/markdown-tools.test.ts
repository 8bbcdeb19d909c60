import { describe, expect, it } from "vitest";
import { applyTool, edited, keyShortcuts, type ToolName, toolForKey, TOOLS } from "./markdown-tools.ts";

// The toolbar's edits on text and selection, written with the selection marked: «selected», or
// a caret alone as ‸. Each case gives the text before and what it reads after the tool, selection
// included, so a change in what is selected afterwards fails too.

function parse(marked: string) {
  const caret = marked.indexOf("‸");
  if (caret >= 0) return { text: marked.replace("‸", ""), start: caret, end: caret };
  const start = marked.indexOf("«");
  const end = marked.indexOf("»") - 1;
  return { text: marked.replace("«", "").replace("»", ""), start, end };
}

function run(tool: ToolName, marked: string): string {
  const selection = parse(marked);
  const edit = applyTool(tool, selection);
  const text = edited(selection.text, edit);
  return edit.selectStart === edit.selectEnd
    ? `${text.slice(0, edit.selectStart)}‸${text.slice(edit.selectStart)}`
    : `${text.slice(0, edit.selectStart)}«${text.slice(edit.selectStart, edit.selectEnd)}»${text.slice(edit.selectEnd)}`;
}

describe("the toolbar's edits", () => {
  it.each([
    ["bold", "say «word» now", "say **«word»** now"],
    ["bold", "say **«word»** now", "say «word» now"],
    ["bold", "say «**word**» now", "say «word» now"],
    ["bold", "say ‸ now", "say **«bold text»** now"],
    // A double click's trailing space stays outside the markers.
    ["bold", "say «word »now", "say **«word»** now"],
    ["italic", "an «idea»", "an _«idea»_"],
    ["italic", "an _«idea»_", "an «idea»"],
    ["code", "run «npm test»", "run `«npm test»`"],
    ["code", "«a\nb»", "```\n«a\nb»\n```"],
    ["code", "text\n«a\nb»\nmore", "text\n\n```\n«a\nb»\n```\n\nmore"],
    ["link", "see «the study»", "see [the study](«https://»)"],
    ["link", "see «/contact»", "see [«link text»](/contact)"],
    ["link", "see ‸", "see [«link text»](https://)"],
  ] as const)("%s: %j becomes %j", (tool, before, after) => {
    expect(run(tool, before)).toBe(after);
  });

  it.each([
    ["heading", "Why it ma‸tters", "## Why it ma‸tters"],
    ["heading", "## Why it ma‸tters", "### Why it ma‸tters"],
    ["heading", "### Why it ma‸tters", "Why it ma‸tters"],
    ["heading", "‸", "## ‸"],
    ["heading", "intro\n«Why»\nrest", "intro\n«## Why»\nrest"],
    ["bulleted", "«one\ntwo»", "«- one\n- two»"],
    ["bulleted", "«- one\n- two»", "«one\ntwo»"],
    // A blank line between stays blank; numbered items become bullets.
    ["bulleted", "«1. one\n\n2. two»", "«- one\n\n- two»"],
    ["numbered", "«one\ntwo\nthree»", "«1. one\n2. two\n3. three»"],
    ["numbered", "«1. one\n2. two»", "«one\ntwo»"],
    ["numbered", "«- one\n- two»", "«1. one\n2. two»"],
    ["quote", "said: «wise words»", "«> said: wise words»"],
    ["quote", "«> wise\n> words»", "«wise\nwords»"],
    // A selection that ends at the start of a line leaves that line alone.
    ["quote", "«one\n»two", "«> one»\ntwo"],
    ["bulleted", "it‸em", "- it‸em"],
  ] as const)("%s acts on whole lines: %j becomes %j", (tool, before, after) => {
    expect(run(tool, before)).toBe(after);
  });

  it("inserts a table as a block of its own, with the first header selected", () => {
    expect(run("table", "Intro‸")).toBe("Intro\n\n| «Column 1» | Column 2 |\n| --- | --- |\n| Cell | Cell |");
    expect(run("table", "Intro\n\n‸\n\nMore")).toBe(
      "Intro\n\n| «Column 1» | Column 2 |\n| --- | --- |\n| Cell | Cell |\n\nMore",
    );
    expect(run("table", "‸")).toBe("| «Column 1» | Column 2 |\n| --- | --- |\n| Cell | Cell |");
  });

  it("edits only the range it needs, so one undo takes back one tool", () => {
    const edit = applyTool("bold", parse("a long text with «one» word"));
    expect(edit).toMatchObject({ from: 17, to: 20, insert: "**one**" });
  });

  it("has a shortcut for bold, italic and link, with Ctrl or Cmd, and none with Alt or Shift", () => {
    const press = (key: string, extra: Partial<Parameters<typeof toolForKey>[0]> = {}) =>
      toolForKey({ key, ctrlKey: true, metaKey: false, altKey: false, shiftKey: false, ...extra });
    expect(press("b")).toBe("bold");
    expect(press("i")).toBe("italic");
    expect(press("k")).toBe("link");
    expect(press("b", { ctrlKey: false, metaKey: true })).toBe("bold");
    expect(press("b", { ctrlKey: false })).toBeUndefined();
    expect(press("b", { altKey: true })).toBeUndefined();
    expect(press("b", { shiftKey: true })).toBeUndefined();
    expect(press("s")).toBeUndefined();
    expect(keyShortcuts("B")).toBe("Control+B Meta+B");
    expect(TOOLS.map((tool) => tool.label)).toEqual([
      "Bold",
      "Italic",
      "Heading",
      "Link",
      "Bulleted list",
      "Numbered list",
      "Quote",
      "Code",
      "Table",
    ]);
  });
});
