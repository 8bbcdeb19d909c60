import { describe, expect, it } from "vitest";
import { SLUG_PATTERN as ROUTE_SLUG_PATTERN } from "../routes.ts";
import { articleStatusOf, publishBlockers, SLUG_PATTERN, slugFromTitle } from "./documents.ts";

describe("content documents", () => {
  it("accepts as a slug exactly what the public route table accepts as one", () => {
    expect(SLUG_PATTERN.source).toBe(ROUTE_SLUG_PATTERN.source);
    expect(SLUG_PATTERN.flags).toBe(ROUTE_SLUG_PATTERN.flags);
  });

  it("makes a slug the route table accepts from any title", () => {
    for (const title of ["Grid Code Compliance", "  Arc-flash: IEEE 1584 & NFPA 70E! ", "Über Café ₹ 2026", "---"]) {
      const slug = slugFromTitle(title);
      expect(slug === "" || ROUTE_SLUG_PATTERN.test(slug), `${title} → ${slug}`).toBe(true);
    }
    expect(slugFromTitle("Arc-flash: IEEE 1584 & NFPA 70E!")).toBe("arc-flash-ieee-1584-and-nfpa-70e");
    expect(slugFromTitle("Über Café")).toBe("uber-cafe");
  });

  it("calls a published article with a future time scheduled, and anything in the trash trash", () => {
    const now = new Date("2026-11-26T06:00:00Z");
    const at = (iso: string) => ({ status: "published", publishedAt: iso, deletedAt: null });
    expect(articleStatusOf(at("2026-11-26T06:01:00Z"), now)).toBe("scheduled");
    expect(articleStatusOf(at("2026-11-26T06:00:00Z"), now)).toBe("published");
    expect(articleStatusOf({ ...at("2026-11-01T00:00:00Z"), deletedAt: "2026-11-20T00:00:00Z" }, now)).toBe("trash");
    expect(articleStatusOf({ status: "unpublished", publishedAt: null, deletedAt: null }, now)).toBe("unpublished");
    expect(articleStatusOf({ status: "draft", publishedAt: null, deletedAt: null }, now)).toBe("draft");
  });

  it("blocks publishing without a title, slug, excerpt, category, cover, alt text or body", () => {
    const empty = {
      slug: "",
      title: "",
      excerpt: "",
      category: "",
      imageUrl: "",
      imageAlt: "",
      publishedAt: "",
      author: "",
      body: "",
    };
    expect(publishBlockers(empty).map((item) => item.field)).toEqual([
      "title",
      "slug",
      "excerpt",
      "category",
      "imageUrl",
      "imageAlt",
      "body",
    ]);
    const complete = {
      ...empty,
      slug: "a-b",
      title: "T",
      excerpt: "E",
      category: "C",
      imageUrl: "/images/x.svg",
      imageAlt: "A",
      body: "B",
    };
    expect(publishBlockers(complete)).toEqual([]);
    expect(publishBlockers({ ...complete, slug: "Not A Slug" })).toEqual([
      { field: "slug", message: "The slug must be lower-case words joined by hyphens." },
    ]);
  });
});
