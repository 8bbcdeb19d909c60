import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { splitFrontMatter } from "#server/content/load-content.ts";
import { markdownManager, roundTrip } from "./markdown-document.ts";

// The visual editor's Markdown round trip (decision 056): every article body and project
// description in content/, read into the editor's document and written back, is the same text byte
// for byte, so an article opened in Write and changed in one place changes in that place only.

const root = path.join(import.meta.dirname, "../../../..", "content");
const manager = markdownManager();

const articles = readdirSync(path.join(root, "articles"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => {
    const split = splitFrontMatter(readFileSync(path.join(root, "articles", name), "utf8"));
    return [name, (split?.body ?? "").replace(/\r\n?/g, "\n").trim()] as const;
  });
const projects = readdirSync(path.join(root, "projects"))
  .filter((name) => name.endsWith(".yaml"))
  .map((name) => {
    const data = parseYaml(readFileSync(path.join(root, "projects", name), "utf8")) as { description?: string };
    return [name, (data.description ?? "").trim()] as const;
  });

describe("the Markdown round trip over content/", () => {
  it("finds the articles and projects", () => {
    expect(articles.length).toBeGreaterThanOrEqual(9);
    expect(projects.length).toBeGreaterThanOrEqual(8);
  });

  it.each(articles)("article %s comes back byte for byte", (_name, body) => {
    expect(body.length).toBeGreaterThan(0);
    expect(roundTrip(body, manager)).toBe(body);
  });

  it.each(projects)("project %s comes back byte for byte", (_name, description) => {
    expect(roundTrip(description, manager)).toBe(description);
  });
});

describe("the house style the serializer writes", () => {
  const cases: [string, string][] = [
    ["bullets with -, nested by two spaces", "- one\n  - two\n    - three\n- four"],
    ["numbered lists", "1. first\n2. second"],
    ["bold as ** and italic as _", "Some **bold** and _italic_ words."],
    ["links", "Read [the guide](/contact) or [the standard](https://example.org/ieee-519)."],
    ["headings from ## to ####", "## Two\n\n### Three\n\n#### Four"],
    ["quotes", "> A quoted line."],
    ["code", "Inline `code` here.\n\n```\na fenced block\n```"],
    ["tables without padding", "| A | B |\n|---|---|\n| 1 | 2 |"],
    ["aligned tables", "| A | B | C |\n|:---|:---:|---:|\n| 1 | 2 | 3 |"],
    ["pictures with their alt text", "![A substation at dusk, \\[annotated\\]](/media/ab12cd34ef56ab78/original.png)"],
  ];
  it.each(cases)("%s", (_name, markdown) => {
    expect(roundTrip(markdown, manager)).toBe(markdown);
  });

  it("reads a picture with its alt text", () => {
    const doc = manager.parse("![A relay panel](/media/ab12cd34ef56ab78/original.jpg)");
    expect(JSON.stringify(doc)).toContain('"alt":"A relay panel"');
    expect(JSON.stringify(doc)).toContain('"src":"/media/ab12cd34ef56ab78/original.jpg"');
  });
});
