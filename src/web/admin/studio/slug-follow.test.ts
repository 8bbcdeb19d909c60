import { describe, expect, it } from "vitest";
import { slugAfterTitle, slugFollows } from "./slug-follow.ts";

// The slug follows the title until someone writes it by hand; never on an article once public.

/** Types a title letter by letter, as the editor sees it, and a slug edit in between when asked. */
function typeTitle(title: string, start = { title: "", slug: "" }, everPublic = false) {
  let { slug } = start;
  const following = slugFollows(start.title, slug, everPublic);
  for (let length = start.title.length + 1; length <= title.length; length++) {
    slug = slugAfterTitle(title.slice(0, length), slug, following);
  }
  return { slug, following };
}

describe("the slug", () => {
  it("follows the title of a new article", () => {
    expect(typeTitle("Grid Code & Solar: 2026!")).toEqual({ slug: "grid-code-and-solar-2026", following: true });
  });

  it("keeps following while it is what the title makes, and an empty slug follows again", () => {
    expect(slugFollows("Grid code", "grid-code", false)).toBe(true);
    expect(slugFollows("Grid code", "", false)).toBe(true);
    expect(typeTitle("Grid code compliance", { title: "Grid code", slug: "grid-code" }).slug).toBe(
      "grid-code-compliance",
    );
  });

  it("stops once written by hand", () => {
    expect(slugFollows("Grid code", "grid", false)).toBe(false);
    expect(typeTitle("Grid code compliance", { title: "Grid code", slug: "grid" })).toEqual({
      slug: "grid",
      following: false,
    });
  });

  it("never follows on an article that has been public: its address is known", () => {
    expect(slugFollows("Grid code", "grid-code", true)).toBe(false);
    expect(slugFollows("Grid code", "", true)).toBe(false);
    expect(typeTitle("Grid code compliance", { title: "Grid code", slug: "grid-code" }, true).slug).toBe("grid-code");
  });
});
