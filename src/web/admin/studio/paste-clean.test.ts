// @vitest-environment happy-dom
import { readFileSync } from "node:fs";
import path from "node:path";
import { getSchema } from "@tiptap/core";
import { DOMParser as ProseMirrorParser } from "@tiptap/pm/model";
import { describe, expect, it } from "vitest";
import { documentExtensions, markdownManager } from "./markdown-document.ts";
import { cleanPastedHtml, dataUrlFile, looksLikeMarkdown } from "./paste-clean.ts";

// Pasting from Word, Google Docs and a web page (decision 056): each fixture (clipboard HTML as
// those programs write it, test/fixtures/clipboard/README.md) is cleaned, read by the editor's own
// schema as a paste is, and written as Markdown: the structure is kept, the styling is not.

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, "../../../../test/fixtures/clipboard", name), "utf8");
const parse = (html: string) => new DOMParser().parseFromString(html, "text/html");
const schema = getSchema(documentExtensions());
const manager = markdownManager();

/** What the editor would hold after the paste, as Markdown. */
function pasted(html: string) {
  const cleaned = cleanPastedHtml(html, parse);
  const container = document.createElement("div");
  container.innerHTML = cleaned.html;
  const doc = ProseMirrorParser.fromSchema(schema).parse(container);
  return { ...cleaned, markdown: manager.serialize(doc.toJSON()) };
}

describe("paste from Word", () => {
  const result = pasted(fixture("word.html"));

  it("keeps the heading, the bold word, the link, the nested list and the table with its header row", () => {
    expect(result.markdown).toBe(
      [
        "## Harmonic study at the Rajkot plant",
        "",
        "The plant's voltage distortion was **8.4%** at the point of common coupling, against a limit of 5%. See the [IEEE 519 summary](https://example.org/ieee-519) for the limits.",
        "",
        "- Measure for a week",
        "  - At the incomer",
        "  - At each motor control centre",
        "- Model the resonance",
        "",
        "| **Harmonic** | **Measured** | **Limit** | **Remedy** |",
        "|---|---|---|---|",
        "| 5th | 6.1% | 4.0% | Detuned filter |",
      ].join("\n"),
    );
  });

  it("drops the fonts, the list markers, the comment and the tracked deletion", () => {
    for (const gone of ["mso-", "o:p", "Calibri", "·", "NS1", "Check this figure", " first", "style="])
      expect(result.html + result.markdown).not.toContain(gone);
  });

  it("never parses Word's event handlers (the page's Content-Security-Policy would refuse them)", () => {
    let parsed = "";
    cleanPastedHtml(fixture("word.html"), (html) => {
      parsed = html;
      return parse(html);
    });
    expect(fixture("word.html")).toContain("onmouseover=");
    expect(parsed).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it("leaves out the picture the browser cannot reach (file:///), and counts it", () => {
    expect(result.droppedPictures).toBe(1);
    expect(result.dataPictures).toEqual([]);
    expect(result.html).not.toContain("file:");
  });
});

describe("paste from Google Docs", () => {
  const result = pasted(fixture("google-docs.html"));

  it("unwraps its bold wrapper and keeps what its styles meant: bold, italic, a link, a nested list, a table", () => {
    expect(result.markdown).toBe(
      [
        "## Earthing a 220 kV switchyard",
        "",
        "The grid must keep **touch voltage** and _step voltage_ within the limits of [IEEE 80](https://example.org/ieee-80).",
        "",
        "- Soil resistivity",
        "  - Wenner method",
        "- Fault current",
        "",
        "| **Quantity** | **Value** |",
        "|---|---|",
        "| Grid resistance | 0.42 Ω |",
      ].join("\n"),
    );
  });

  it("leaves out the picture on Google's servers", () => {
    expect(result.droppedPictures).toBe(1);
    expect(result.html).not.toContain("googleusercontent");
  });
});

describe("paste from a web page", () => {
  const result = pasted(fixture("web-page.html"));

  it("keeps headings, marks, lists, quotes and tables; drops classes, styles and scripts", () => {
    expect(result.markdown).toBe(
      [
        "## Choosing a detuned reactor",
        "",
        "A **7% reactor** tunes the bank to about 189 Hz, below the _5th harmonic_. Read [the note on detuning](https://example.org/detuning).",
        "",
        "1. Measure the spectrum.",
        "   - At full load.",
        "   - At light load.",
        "2. Check the resonance.",
        "",
        "> Never add capacitors without a scan.",
        "",
        "A detuned reactor.",
        "",
        "| Reactor | Tuning |",
        "|---|---|",
        "| 5.67% | 210 Hz |",
        "| 7% | 189 Hz |",
        "",
        "Styled words and a picture of ours: ![Our reactor](/media/ab12cd34ef56ab78/original.png) and one pasted as data:",
      ].join("\n"),
    );
    expect(result.html).not.toMatch(/class=|style=|<script|alert/);
  });

  it("keeps the site's own picture, hands back the data: picture to upload, and drops the other site's", () => {
    expect(result.dataPictures).toHaveLength(1);
    expect(result.dataPictures[0]!.src).toMatch(/^data:image\/png;base64,/);
    expect(result.droppedPictures).toBe(1);
    expect(result.html).not.toContain("cdn.example.org");
  });
});

describe("a data: picture from the clipboard", () => {
  it("is decoded into a file to send to the library, its type kept", async () => {
    const src = pasted(fixture("web-page.html")).dataPictures[0]!.src;
    const file = dataUrlFile(src, "pasted-picture-1")!;
    expect(file.name).toBe("pasted-picture-1.png");
    expect(file.type).toBe("image/png");
    const bytes = new Uint8Array(await file.arrayBuffer());
    // PNG's signature.
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it("is refused when it is not a base64 picture", () => {
    expect(dataUrlFile("data:text/html;base64,PHNjcmlwdD4=", "x")).toBeUndefined();
    expect(dataUrlFile("data:image/png,not-base64", "x")).toBeUndefined();
  });
});

describe("plain text that reads as Markdown", () => {
  it("is recognised by its headings, lists, tables, bold and links", () => {
    expect(looksLikeMarkdown("## A heading\n\nText.")).toBe(true);
    expect(looksLikeMarkdown("- one\n- two")).toBe(true);
    expect(looksLikeMarkdown("| a | b |\n|---|---|\n| 1 | 2 |")).toBe(true);
    expect(looksLikeMarkdown("Some **bold** words.")).toBe(true);
    expect(looksLikeMarkdown("See [the page](/contact).")).toBe(true);
  });

  it("leaves ordinary sentences alone", () => {
    expect(looksLikeMarkdown("A plain sentence, with a comma - and a dash.")).toBe(false);
    expect(looksLikeMarkdown("Costs rose 5% in 2024 # not a heading")).toBe(false);
  });
});
