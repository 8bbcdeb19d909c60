import { describe, expect, it } from "vitest";
import { edited } from "../studio/markdown-tools.ts";
import { markdownAlt, pictureEdit } from "./picture-markdown.ts";

const REF = "/media/0123456789abcdef/original.jpg";

describe("a picture put into the body", () => {
  it("is a paragraph of its own at the caret", () => {
    const text = "First line.\nSecond line.";
    const edit = pictureEdit(text, 11, 11, "A breaker", REF);
    expect(edited(text, edit)).toBe(`First line.\n\n![A breaker](${REF})\n\nSecond line.`);
    expect(edit.selectStart).toBe(edit.from + edit.insert.length);
  });

  it("adds no blank line where the text has one, and replaces the selection", () => {
    const text = "One.\n\nTWO\n\nThree.";
    const edit = pictureEdit(text, 6, 9, "Two", REF);
    expect(edited(text, edit)).toBe(`One.\n\n![Two](${REF})\n\nThree.`);
    expect(edited("", pictureEdit("", 0, 0, "", REF))).toBe(`![](${REF})\n`);
  });

  it("escapes what would end the alt text early", () => {
    expect(markdownAlt("a [b] c\\d\ne")).toBe("a \\[b\\] c\\\\d e");
  });
});
