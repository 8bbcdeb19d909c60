import { describe, expect, it } from "vitest";
import { pageRoutesForTests } from "../../test/page-paths.ts";
import { cardKeyOf, cardOfPage, pathOfCardKey } from "./link-card.ts";
import { site } from "./site.ts";

describe("link cards' keys and words", () => {
  it("turns every page path into a key and back, and no other key into a path", () => {
    for (const path of pageRoutesForTests) expect(pathOfCardKey(cardKeyOf(path)), path).toBe(path);
    expect(cardKeyOf("/")).toBe("home");
    expect(cardKeyOf("/blog/grid-codes")).toBe("blog_grid-codes");
    for (const key of ["site", "", "blog_", "blog_x_y", "_about", "about_", "nowhere", "blog_Grid", "blog_a--b"])
      expect(pathOfCardKey(key), key).toBeUndefined();
  });

  it("names a plain page by its title without the firm's name, under its section", () => {
    expect(
      cardOfPage({
        title: `Power System Studies | ${site.name}`,
        description: "",
        breadcrumbs: [
          { name: "Home", path: "/" },
          { name: "Services", path: "/services" },
        ],
      }),
    ).toEqual({ kind: "page", title: "Power System Studies", label: "Services" });
    expect(cardOfPage({ title: `${site.name} | ${site.tagline} in Ahmedabad`, description: "" })).toEqual({
      kind: "page",
      title: `${site.tagline} in Ahmedabad`,
      label: site.name,
    });
    const own = { kind: "project" as const, title: "A park", label: "Project · Solar", capacity: "50 MW" };
    expect(cardOfPage({ title: "x", description: "", card: own })).toBe(own);
  });
});
