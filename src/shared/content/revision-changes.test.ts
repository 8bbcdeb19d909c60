import { describe, expect, it } from "vitest";
import { ARTICLES } from "../admin/collections/index.ts";
import { fieldLabels } from "../admin/collections/kind.ts";
import { ARTICLE_FIELDS, CONTENT_LIMITS, PROJECT_FIELDS } from "./documents.ts";
import { changesBetween, combineChanges, describeChanges, wordChanges } from "./revision-changes.ts";

// What History says a revision changed (docs/decisions/058-history-says-what-changed.md).

const ARTICLE_LABELS: Record<string, string> = fieldLabels(ARTICLES.fields);
const article = (overrides: Record<string, string> = {}) => ({
  slug: "a",
  title: "A",
  excerpt: "",
  category: "",
  imageUrl: "/images/a.svg",
  imageAlt: "",
  publishedAt: "",
  author: "",
  body: "one two three",
  ...overrides,
});
const said = (before: Record<string, string>, after: Record<string, string>) =>
  describeChanges("article", ARTICLE_FIELDS, ARTICLE_LABELS, changesBetween("article", ARTICLE_FIELDS, before, after));

describe("what a revision changed", () => {
  it("counts words added and removed exactly: a word replaced is one of each, a word moved is neither", () => {
    expect(wordChanges("one two three", "one two three four five")).toEqual({ added: 2, removed: 0 });
    expect(wordChanges("one two three", "one three")).toEqual({ added: 0, removed: 1 });
    expect(wordChanges("one two three", "one TWO three")).toEqual({ added: 1, removed: 1 });
    expect(wordChanges("one two three", "three one two")).toEqual({ added: 0, removed: 0 });
    expect(wordChanges("a a a", "a")).toEqual({ added: 0, removed: 2 });
    expect(wordChanges("", "  new\n\nlines  ")).toEqual({ added: 2, removed: 0 });
  });

  it("says it in words, the fields in the document's order", () => {
    expect(said(article(), article({ title: "B", body: "one two three four" }))).toBe("Title changed; 1 word added");
    expect(said(article(), article({ body: "one" }))).toBe("Body: 2 words removed");
    expect(said(article(), article({ imageUrl: "/images/b.svg" }))).toBe("Cover replaced");
    expect(said(article({ imageUrl: "" }), article())).toBe("Cover added");
    expect(said(article(), article({ imageUrl: "" }))).toBe("Cover removed");
    expect(said(article(), article({ slug: "b" }))).toBe("Slug changed");
    expect(said(article(), article({ excerpt: "x", category: "y" }))).toBe("Excerpt changed; category changed");
    expect(said(article(), article({ body: "one  two\nthree" }))).toBe("Body changed");
    expect(said(article(), article())).toBe("Nothing changed");
    // A publish date to the minute, as the editor shows and sends it: the seconds a publish stored are no change.
    expect(
      said(article({ publishedAt: "2026-11-30T01:28:12.345Z" }), article({ publishedAt: "2026-11-30T01:28:00.000Z" })),
    ).toBe("Nothing changed");
    expect(
      said(article({ publishedAt: "2026-11-30T01:28:12.345Z" }), article({ publishedAt: "2026-11-30T01:29:00.000Z" })),
    ).toBe("Publish date changed");
  });

  it("names a project's description and image by their own names", () => {
    const project = (overrides: Record<string, unknown> = {}) => ({
      slug: "p",
      title: "P",
      description: "alpha beta",
      category: "",
      imageUrl: "/images/p.svg",
      year: "2025",
      capacity: null,
      timeline: null,
      ...overrides,
    });
    const labels = { description: "Description", year: "Year", imageUrl: "Image" };
    const changes = (after: Record<string, unknown>) =>
      describeChanges("project", PROJECT_FIELDS, labels, changesBetween("project", PROJECT_FIELDS, project(), after));
    expect(changes(project({ description: "alpha" }))).toBe("Description: 1 word removed");
    expect(changes(project({ imageUrl: "/images/q.svg", year: "2026" }))).toBe("Image replaced; year changed");
  });

  it("a run's changes are every field any changed and the words summed, in en-IN numbers", () => {
    const steps = [
      changesBetween("article", ARTICLE_FIELDS, article(), article({ body: "one two three four" })),
      changesBetween(
        "article",
        ARTICLE_FIELDS,
        article({ body: "one two three four" }),
        article({ title: "B", body: "one two three four five" }),
      ),
    ];
    expect(describeChanges("article", ARTICLE_FIELDS, ARTICLE_LABELS, combineChanges(steps)!)).toBe(
      "Title changed; 2 words added",
    );
    expect(combineChanges([])).toBeNull();
    const many = { fields: ["body"], wordsAdded: 120000, wordsRemoved: 0 };
    expect(describeChanges("article", ARTICLE_FIELDS, ARTICLE_LABELS, many)).toBe("Body: 1,20,000 words added");
  });

  it("stays linear: two bodies at the limit, every word different, in well under a second", () => {
    const words = (prefix: string) =>
      Array.from({ length: CONTENT_LIMITS.body / 8 }, (_, index) => `${prefix}${index}`)
        .join(" ")
        .slice(0, CONTENT_LIMITS.body);
    const started = performance.now();
    const counted = wordChanges(words("a"), words("b"));
    expect(performance.now() - started).toBeLessThan(500);
    expect(counted.added).toBeGreaterThan(10_000);
    expect(counted.removed).toBeGreaterThan(10_000);
  });
});
