import { describe, expect, it } from "vitest";
import type { BlogPostSummary } from "#shared/api-types.ts";
import { blogFilterSearch, categoriesOf, filterPosts, isFiltering, readBlogFilters } from "./filter-posts.ts";

const post = (slug: string, title: string, excerpt: string, category: string): BlogPostSummary => ({
  id: slug,
  slug,
  title,
  excerpt,
  category,
  imageUrl: "/images/articles/x.svg",
  image: null,
  publishedAt: "2025-01-05T00:00:00.000Z",
});

const posts = [
  post("a", "Grid Code Compliance for Solar Parks", "Reactive power at the POI.", "Renewable Energy"),
  post("b", "Harmonics in VFD-heavy plants", "IEEE 519 limits at the point of common coupling.", "Power Quality"),
  post("c", "Arc flash labelling", "Incident energy and the GRID of PPE categories.", "Protection & Safety"),
  post("d", "Wind-solar hybrid forecasting", "Deviation settlement under the new regulations.", "Renewable Energy"),
];

describe("filterPosts", () => {
  it("matches the search in the title or the excerpt, ignoring case", () => {
    expect(filterPosts(posts, { query: "grid", category: "All" }).map((p) => p.slug)).toEqual(["a", "c"]);
    expect(filterPosts(posts, { query: "  IEEE 519 ", category: "All" }).map((p) => p.slug)).toEqual(["b"]);
  });

  it("matches the category exactly", () => {
    expect(filterPosts(posts, { query: "", category: "Renewable Energy" }).map((p) => p.slug)).toEqual(["a", "d"]);
    expect(filterPosts(posts, { query: "", category: "renewable energy" })).toEqual([]);
  });

  it("requires both the search and the category to hold", () => {
    expect(filterPosts(posts, { query: "grid", category: "Renewable Energy" }).map((p) => p.slug)).toEqual(["a"]);
    expect(filterPosts(posts, { query: "harmonics", category: "Renewable Energy" })).toEqual([]);
  });

  it("returns every post when nothing filters", () => {
    expect(filterPosts(posts, { query: "", category: "All" })).toHaveLength(4);
  });
});

describe("blog filters in the URL", () => {
  it("round-trips through the search string and leaves defaults out", () => {
    const filters = { query: "grid code", category: "Renewable Energy" };
    expect(blogFilterSearch(filters)).toBe("q=grid+code&category=Renewable+Energy");
    expect(readBlogFilters(blogFilterSearch(filters))).toEqual(filters);
    expect(blogFilterSearch({ query: "", category: "All" })).toBe("");
    expect(readBlogFilters("")).toEqual({ query: "", category: "All" });
    expect(readBlogFilters("?category=Power%20Quality")).toEqual({ query: "", category: "Power Quality" });
  });

  it("counts as filtering only with a search or a category", () => {
    expect(isFiltering({ query: " ", category: "All" })).toBe(false);
    expect(isFiltering({ query: "x", category: "All" })).toBe(true);
    expect(isFiltering({ query: "", category: "Power Quality" })).toBe(true);
  });
});

describe("categoriesOf", () => {
  it("gives 'All' and each distinct category once", () => {
    expect(categoriesOf(posts)).toEqual(["All", "Renewable Energy", "Power Quality", "Protection & Safety"]);
  });
});
