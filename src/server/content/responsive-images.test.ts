import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail, BlogPostSummary, Project, TeamMember } from "#shared/api-types.ts";
import { IMAGE_SIZES } from "#shared/image-sizes.ts";
import { type ResponsiveImage, variantWidths } from "#shared/media.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { htmlValidator } from "../../../test/html-validator.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import { createTestDatabase, testDrivers } from "../../../test/databases.ts";
import {
  addLibraryPicture,
  imagesIn,
  picturesIn,
  setPictureWords,
  type TestPicture,
} from "../../../test/responsive-fixtures.ts";
import { applyMigrations } from "../db/migrate.ts";
import { projects, teamMembers } from "../db/schema.ts";
import { type MediaRow, mediaIndex, mediaIndexOf, responsiveImage } from "./responsive-images.ts";

// The public pages' pictures (docs/decisions/041-responsive-images.md): a content reference turned
// into every width of a library picture, read once per content version; the pages draw it with
// srcset, sizes, width and height, the largest above the fold first and the rest lazily.

const row = (fields: Partial<MediaRow>): MediaRow => ({
  key: "0123456789abcdef",
  width: 1000,
  height: 500,
  alt: "Words",
  decorative: false,
  sourcePath: null,
  ...fields,
});

const ladder = (key: string, widths: number[], extension: string) =>
  widths.map((width) => `/media/${key}/${width}.${extension} ${width}w`).join(", ");

/** What a picture of this key and shape should be drawn as. */
function expectedImage(key: string, width: number, height: number, alt: string): ResponsiveImage {
  const widths = variantWidths(width);
  return {
    src: `/media/${key}/${widths.filter((w) => w <= 640).at(-1) ?? widths[0]}.jpg`,
    srcset: { avif: ladder(key, widths, "avif"), webp: ladder(key, widths, "webp"), jpeg: ladder(key, widths, "jpg") },
    width,
    height,
    alt,
  };
}

describe("responsiveImage", () => {
  it("lists every width of the ladder the picture is wide enough for, its own width last, in AVIF, WebP and JPEG", () => {
    const image = responsiveImage(row({ width: 1000, height: 500 }));
    expect(image).toEqual({
      src: "/media/0123456789abcdef/640.jpg",
      srcset: {
        avif: ladder("0123456789abcdef", [320, 480, 640, 960, 1000], "avif"),
        webp: ladder("0123456789abcdef", [320, 480, 640, 960, 1000], "webp"),
        jpeg: ladder("0123456789abcdef", [320, 480, 640, 960, 1000], "jpg"),
      },
      width: 1000,
      height: 500,
      alt: "Words",
    });
  });

  it("takes the JPEG at 640 or the widest below as src; never a width larger than the picture", () => {
    expect(responsiveImage(row({ width: 4000, height: 3000 })).src).toBe("/media/0123456789abcdef/640.jpg");
    expect(responsiveImage(row({ width: 4000, height: 3000 })).srcset.jpeg).toBe(
      ladder("0123456789abcdef", [320, 480, 640, 960, 1280, 1600], "jpg"),
    );
    expect(responsiveImage(row({ width: 500, height: 500 })).src).toBe("/media/0123456789abcdef/500.jpg");
    expect(responsiveImage(row({ width: 900, height: 500 })).src).toBe("/media/0123456789abcdef/640.jpg");
    expect(responsiveImage(row({ width: 200, height: 100 }))).toMatchObject({
      src: "/media/0123456789abcdef/200.jpg",
      srcset: { avif: "/media/0123456789abcdef/200.avif 200w" },
    });
  });

  it("gives a decorative picture no words", () => {
    expect(responsiveImage(row({ alt: "Once written", decorative: true })).alt).toBe("");
  });
});

describe("mediaIndexOf", () => {
  const index = mediaIndexOf([
    row({ key: "aaaaaaaaaaaaaaaa", sourcePath: "/images/projects/solar-park.svg" }),
    row({ key: "bbbbbbbbbbbbbbbb", width: 300, height: 300 }),
  ]);

  it("finds a picture by its reference (the key decides), or by the old address it was brought in from", () => {
    expect(index.resolve("/media/bbbbbbbbbbbbbbbb/original.jpg")?.width).toBe(300);
    expect(index.resolve("/media/bbbbbbbbbbbbbbbb/original.png")?.width).toBe(300);
    expect(index.resolve("/images/projects/solar-park.svg")?.src).toBe("/media/aaaaaaaaaaaaaaaa/640.jpg");
  });

  it("knows nothing else", () => {
    for (const reference of [
      "/media/cccccccccccccccc/original.jpg",
      "/media/aaaaaaaaaaaaaaaa/640.jpg",
      "/media/aaaaaaaaaaaaaaaa/original.svg",
      "/media/AAAAAAAAAAAAAAAA/original.jpg",
      "/images/projects/other.svg",
      "https://example.org/media/aaaaaaaaaaaaaaaa/original.jpg",
      "",
    ])
      expect(index.resolve(reference), reference).toBeNull();
  });

  it("has a fingerprint that changes with any picture's words, shape or old address, and only then", () => {
    const rows = [row({ key: "aaaaaaaaaaaaaaaa" }), row({ key: "bbbbbbbbbbbbbbbb" })];
    const fingerprint = mediaIndexOf(rows).fingerprint;
    expect(mediaIndexOf([...rows].reverse()).fingerprint).toBe(fingerprint);
    for (const change of [
      { alt: "Other words" },
      { decorative: true },
      { width: 999 },
      { height: 499 },
      { sourcePath: "/images/x.svg" },
      { key: "cccccccccccccccc" },
    ])
      expect(mediaIndexOf([rows[0]!, { ...rows[1]!, ...change }]).fingerprint, JSON.stringify(change)).not.toBe(
        fingerprint,
      );
  });
});

describe.each(testDrivers)("the library read by the public pages on %s", (driver) => {
  it("is read again when the content version moves, and kept while it does not (with no watcher too)", async () => {
    const database = await createTestDatabase(driver);
    try {
      await applyMigrations(database.db);
      const first = await mediaIndex(database.db);
      expect(await mediaIndex(database.db)).toBe(first);
      const picture = await addLibraryPicture(database.db, { width: 800, height: 600, alt: "Substation" });
      const second = await mediaIndex(database.db);
      expect(second).not.toBe(first);
      expect(first.resolve(picture.reference)).toBeNull();
      expect(second.resolve(picture.reference)).toEqual(expectedImage(picture.key, 800, 600, "Substation"));
      expect(await mediaIndex(database.db)).toBe(second);
    } finally {
      await database.drop();
    }
  });
});

describe.each(testDrivers)("responsive pictures on the public pages on %s", (driver) => {
  let t: TestApp;
  let cover: TestPicture;
  let inBody: TestPicture;
  let projectPicture: TestPicture;
  let portrait: TestPicture;
  let projectSlug: string;
  let memberName: string;
  const slug = "pictures-of-a-switchyard";
  const lost = "pictures-the-library-lost";
  const at = new Date("2026-01-05T06:00:00Z");

  const get = (url: string) => t.app.inject({ method: "GET", url });
  const json = async <T>(url: string) => (await get(url)).json<T>();
  const pageOf = async (url: string) => {
    const response = await get(url);
    expect(response.statusCode, url).toBe(200);
    return response.body;
  };
  const meta = (html: string, property: string) =>
    new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)">`).exec(html)?.[1];

  beforeAll(async () => {
    t = await buildTestApp(driver, { now: () => new Date("2026-02-01T06:00:00Z") });
    const db = t.database.db;
    cover = await addLibraryPicture(db, { width: 1600, height: 900, alt: "The library's words for the cover" });
    inBody = await addLibraryPicture(db, {
      width: 1200,
      height: 800,
      format: "png",
      alt: "A relay panel",
      sourcePath: "/images/articles/test-relay-panel.svg",
    });
    projectPicture = await addLibraryPicture(db, { width: 2000, height: 1125, alt: "Inverter stations in rows" });
    portrait = await addLibraryPicture(db, { width: 800, height: 800, alt: "A smiling engineer" });
    await addArticle(
      db,
      articleDocument({
        slug,
        title: "Pictures of a switchyard",
        excerpt: "An article with a cover and pictures in its body.",
        imageUrl: cover.reference,
        imageAlt: "A 220 kV switchyard at dusk",
        body: [
          "Text before.",
          "![](/images/articles/test-relay-panel.svg)",
          "![A remote picture](https://example.org/relay.jpg)",
          "Text after.",
        ].join("\n\n"),
      }),
      { state: "published", at },
    );
    await addArticle(
      db,
      articleDocument({
        slug: lost,
        title: "An article whose cover the library does not hold",
        excerpt: "Its cover is drawn as a plain picture.",
        imageUrl: "/media/ffffffffffffffff/original.jpg",
        imageAlt: "A lost cover",
      }),
      { state: "published", at: new Date(at.getTime() - 1000) },
    );
    // The first project and the first member of the lists show the library's pictures.
    const [project] = await json<Project[]>("/api/projects");
    const [member] = await json<TeamMember[]>("/api/team-members");
    projectSlug = project!.slug;
    memberName = member!.name;
    await db.update(projects).set({ imageUrl: projectPicture.reference }).where(eq(projects.slug, projectSlug));
    await db.update(teamMembers).set({ imageUrl: portrait.reference }).where(eq(teamMembers.name, memberName));
    await setPictureWords(db, portrait.key, { alt: "A smiling engineer", decorative: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it("gives each item of the API its picture: every width of a library picture, or null for one the library does not know", async () => {
    const posts = await json<BlogPostSummary[]>("/api/blog-posts");
    expect(posts.find((post) => post.slug === slug)!.image).toEqual(
      expectedImage(cover.key, 1600, 900, "The library's words for the cover"),
    );
    const lostPost = posts.find((post) => post.slug === lost)!;
    expect(lostPost.imageUrl).toBe("/media/ffffffffffffffff/original.jpg");
    expect(lostPost.image).toBeNull();
    const detail = await json<ArticleDetail>(`/api/blog-posts/${slug}`);
    expect(detail.image).toEqual(expectedImage(cover.key, 1600, 900, "The library's words for the cover"));
    expect(detail.imageUrl).toBe(cover.reference);
    const project = (await json<Project[]>("/api/projects")).find((item) => item.slug === projectSlug)!;
    expect(project.image).toEqual(expectedImage(projectPicture.key, 2000, 1125, "Inverter stations in rows"));
    const member = (await json<TeamMember[]>("/api/team-members")).find((item) => item.name === memberName)!;
    expect(member.image).toEqual(expectedImage(portrait.key, 800, 800, "A smiling engineer"));
  });

  it("draws an article's cover as a high-priority picture sized to the article's column, its structured data naming a JPEG about 1200 wide and its link preview its card", async () => {
    const html = await pageOf(`/blog/${slug}`);
    const [coverPicture] = picturesIn(html);
    const image = expectedImage(cover.key, 1600, 900, "");
    expect(coverPicture!.sources).toEqual([
      { type: "image/avif", srcset: image.srcset.avif, sizes: IMAGE_SIZES.article },
      { type: "image/webp", srcset: image.srcset.webp, sizes: IMAGE_SIZES.article },
    ]);
    expect(coverPicture!.img).toMatchObject({
      src: image.src,
      srcset: image.srcset.jpeg,
      sizes: IMAGE_SIZES.article,
      width: "1600",
      height: "900",
      // The article's own words for its cover come before the library's.
      alt: "A 220 kV switchyard at dusk",
      fetchpriority: "high",
    });
    expect(coverPicture!.img.loading).toBeUndefined();
    // Link previews show the article's card (docs/decisions/053-link-preview-cards.md); its
    // structured data keeps the cover, as a JPEG of the ladder.
    expect(meta(html, "og:image")).toMatch(
      new RegExp(`^https://www\\.example\\.test/cards/blog_${slug}-[0-9a-f]{16}\\.jpg$`),
    );
    expect(meta(html, "twitter:image")).toBe(meta(html, "og:image"));
    expect(html).toContain(`"image":["https://www.example.test/media/${cover.key}/1280.jpg"]`);
  });

  it("draws a library picture of the body as a lazy figure with its size, found by its old address; drops a remote one", async () => {
    const html = await pageOf(`/blog/${slug}`);
    const body = html.slice(html.indexOf('<div class="article-body'));
    const [figure] = picturesIn(body);
    const image = expectedImage(inBody.key, 1200, 800, "A relay panel");
    expect(body).toMatch(/<p>Text before\.<\/p>\s*<figure><picture>/);
    expect(figure!.img).toEqual({
      src: image.src,
      srcset: image.srcset.jpeg,
      sizes: IMAGE_SIZES.article,
      width: "1200",
      height: "800",
      alt: "A relay panel",
      loading: "lazy",
      decoding: "async",
    });
    expect(figure!.sources.map((source) => source.srcset)).toEqual([image.srcset.avif, image.srcset.webp]);
    expect(html).not.toContain("example.org");
    expect(body).toMatch(/<\/figure>\s*<p>Text after\.<\/p>/);
  });

  it("follows a change of a picture's words at once: the page, its body and the API", async () => {
    await setPictureWords(t.database.db, inBody.key, { alt: "The relay panel, rewired", decorative: false });
    const html = await pageOf(`/blog/${slug}`);
    const body = html.slice(html.indexOf('<div class="article-body'));
    expect(picturesIn(body)[0]!.img.alt).toBe("The relay panel, rewired");
    await setPictureWords(t.database.db, inBody.key, { alt: "", decorative: true });
    const again = await pageOf(`/blog/${slug}`);
    expect(picturesIn(again.slice(again.indexOf('<div class="article-body')))[0]!.img.alt).toBe("");
    await setPictureWords(t.database.db, cover.key, { alt: "New words", decorative: false });
    expect((await json<ArticleDetail>(`/api/blog-posts/${slug}`)).image?.alt).toBe("New words");
  });

  it("draws a cover the library does not know as a plain picture of its address in the cover's shape, its structured data naming the site's picture", async () => {
    const html = await pageOf(`/blog/${lost}`);
    const cover = imagesIn(html).find((image) => image.src === "/media/ffffffffffffffff/original.jpg");
    expect(cover).toMatchObject({ width: "1200", height: "675", alt: "A lost cover", fetchpriority: "high" });
    expect(html).toContain(`"image":["https://www.example.test/og-image.png"]`);
  });

  it("draws cards lazily with the sizes of their grid: /blog, /projects, the home page and About", async () => {
    const card = (html: string, key: string) => picturesIn(html).find((picture) => picture.img.src?.includes(key));
    const lazily = { loading: "lazy", decoding: "async" };
    expect(card(await pageOf("/blog"), cover.key)?.img).toMatchObject({ sizes: IMAGE_SIZES.postCard, alt: "" });
    const projectsPage = await pageOf("/projects");
    expect(card(projectsPage, projectPicture.key)?.img).toMatchObject({ sizes: IMAGE_SIZES.projectCard, alt: "" });
    const home = await pageOf("/");
    expect(card(home, projectPicture.key)?.img).toMatchObject({ sizes: IMAGE_SIZES.projectCardWide, ...lazily });
    expect(card(home, portrait.key)?.img).toMatchObject({
      sizes: IMAGE_SIZES.teamCard,
      alt: "A smiling engineer",
      ...lazily,
    });
    expect(card(await pageOf("/about"), portrait.key)?.img).toMatchObject({
      sizes: IMAGE_SIZES.teamCardAbout,
      ...lazily,
    });
    // A related article's card on another article's page.
    expect(card(await pageOf(`/blog/${lost}`), cover.key)?.img).toMatchObject({
      sizes: IMAGE_SIZES.postCard,
      ...lazily,
    });
  });

  it("writes valid HTML: every page that draws the library's pictures passes the validator", async () => {
    for (const url of [
      "/",
      "/blog",
      `/blog/${slug}`,
      `/blog/${lost}`,
      "/projects",
      `/projects/${projectSlug}`,
      "/about",
    ]) {
      const report = await htmlValidator.validateString(await pageOf(url), url);
      const problems = report.results.flatMap((result) => result.messages.map((m) => `${m.ruleId}: ${m.message}`));
      expect(problems, url).toEqual([]);
    }
  });

  it("draws a project's own picture first and with its words, its link preview its card", async () => {
    const html = await pageOf(`/projects/${projectSlug}`);
    const [picture] = picturesIn(html);
    expect(picture!.img).toMatchObject({
      src: `/media/${projectPicture.key}/640.jpg`,
      sizes: IMAGE_SIZES.project,
      width: "2000",
      height: "1125",
      alt: "Inverter stations in rows",
      fetchpriority: "high",
    });
    expect(picture!.img.loading).toBeUndefined();
    expect(meta(html, "og:image")).toMatch(
      new RegExp(`^https://www\\.example\\.test/cards/projects_${projectSlug}-[0-9a-f]{16}\\.jpg$`),
    );
  });
});
