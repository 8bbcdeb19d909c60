import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlogPostSummary, Project } from "#shared/api-types.ts";
import { CARD_HEIGHT, CARD_WIDTH } from "#shared/link-card.ts";
import { apiPaths, articlePath, projectPath } from "#shared/paths.ts";
import { bumpContentVersion, refreshContentVersion } from "../content/data-version.ts";
import { blogPosts } from "../db/schema.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { addArticle, articleDocument } from "../../../test/content-fixtures.ts";
import { projectDriver } from "../../../test/databases.ts";
import { pageRoutesForTests } from "../../../test/page-paths.ts";
import { cardPath } from "./card-address.ts";

// Every page's link-preview card (docs/decisions/053-link-preview-cards.md): named in its head,
// served as a 1200 × 627 JPEG at an address that changes with what it shows, made once per
// instance however many ask at once, never for what is not public, and a clean 404 for anything else.

const SITE = "https://www.example.test";

const metaOf = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key.replaceAll(":", "\\:")}" content="([^"]*)">`).exec(html)?.[1];

describe("link-preview cards", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(projectDriver);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });

  /** The card address a page's head names, checked with the rest of its link-preview head. */
  async function cardOf(pagePath: string): Promise<string> {
    const page = await get(pagePath);
    expect(page.statusCode, pagePath).toBe(200);
    const image = metaOf(page.body, "og:image") ?? "";
    expect(image, pagePath).toMatch(/^https:\/\/www\.example\.test\/cards\/[a-z0-9_-]+-[0-9a-f]{16}\.jpg$/);
    expect(metaOf(page.body, "og:image:type"), pagePath).toBe("image/jpeg");
    expect(metaOf(page.body, "og:image:width"), pagePath).toBe(String(CARD_WIDTH));
    expect(metaOf(page.body, "og:image:height"), pagePath).toBe(String(CARD_HEIGHT));
    expect(metaOf(page.body, "og:image:alt"), pagePath).toBeTruthy();
    expect(metaOf(page.body, "twitter:card"), pagePath).toBe("summary_large_image");
    expect(metaOf(page.body, "twitter:image"), pagePath).toBe(image);
    return image.slice(SITE.length);
  }

  async function expectJpegCard(address: string) {
    const response = await get(address);
    expect(response.statusCode, address).toBe(200);
    expect(response.headers["content-type"]).toBe("image/jpeg");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const info = await sharp(response.rawPayload).metadata();
    expect({ format: info.format, width: info.width, height: info.height }, address).toEqual({
      format: "jpeg",
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
    });
    return response.rawPayload;
  }

  it("gives every page of the route table, every article and every project a 1200 × 627 JPEG card of its own", async () => {
    const posts = (await get(apiPaths.blogPosts)).json<BlogPostSummary[]>();
    const projects = (await get(apiPaths.projects)).json<Project[]>();
    expect(posts.length).toBeGreaterThan(0);
    expect(projects.length).toBeGreaterThan(0);
    const pages = [
      ...pageRoutesForTests,
      ...posts.map((post) => articlePath(post.slug)),
      ...projects.map((project) => projectPath(project.slug)),
    ];
    const addresses = new Set<string>();
    for (const page of new Set(pages)) {
      const address = await cardOf(page);
      await expectJpegCard(address);
      addresses.add(address);
    }
    // One card per page: none shares another's address.
    expect(addresses.size).toBe(new Set(pages).size);
    // The 404 page names the site's card, which is served too.
    const missing = await get("/no-such-page");
    const siteCard = (metaOf(missing.body, "og:image") ?? "").slice(SITE.length);
    expect(siteCard).toMatch(/^\/cards\/site-[0-9a-f]{16}\.jpg$/);
    await expectJpegCard(siteCard);
    // Some thirty cards drawn one at a time, each some hundreds of ms on a busy 2-CPU machine.
  }, 240_000);

  it("answers a repeat visit with 304 and HEAD with the headers alone", async () => {
    const address = await cardOf("/about");
    const first = await get(address);
    const again = await get(address, { "if-none-match": String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    const head = await t.app.inject({ method: "HEAD", url: address });
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-type"]).toBe("image/jpeg");
  });

  it("moves an article's card to a new address when its title changes; the old address answers 404", async () => {
    const [post] = (await get(apiPaths.blogPosts)).json<BlogPostSummary[]>();
    const before = await cardOf(articlePath(post!.slug));
    const oldBytes = await expectJpegCard(before);
    await t.database.db
      .update(blogPosts)
      .set({ title: `${post!.title}: revised` })
      .where(eq(blogPosts.slug, post!.slug));
    await bumpContentVersion(t.database.db);
    await refreshContentVersion(t.database.db);
    const after = await cardOf(articlePath(post!.slug));
    expect(after).not.toBe(before);
    const newBytes = await expectJpegCard(after);
    expect(newBytes.equals(oldBytes)).toBe(false);
    const stale = await get(before);
    expect(stale.statusCode).toBe(404);
    expect(stale.json<{ message: string }>().message).toMatch(/out of date/);
  });

  it("draws a card once however many ask for it at once", async () => {
    // An article of its own: a card no other test has drawn.
    const document = articleDocument({ slug: "asked-for-at-once", title: "Asked for at once", author: "" });
    await addArticle(t.database.db, document, { state: "published", at: new Date(Date.now() - 60_000) });
    await refreshContentVersion(t.database.db);
    const address = await cardOf(articlePath("asked-for-at-once"));
    const drawnBefore = t.app.cards.drawn;
    const answers = await Promise.all(Array.from({ length: 100 }, () => get(address)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(100).fill(200));
    expect(new Set(answers.map((answer) => answer.rawPayload.toString("base64"))).size).toBe(1);
    expect(t.app.cards.drawn - drawnBefore).toBe(1);
    // Asked again later: from memory, not drawn again.
    await expectJpegCard(address);
    expect(t.app.cards.drawn - drawnBefore).toBe(1);
  });

  it("has no card for an article that is not public, at its address or any other", async () => {
    const title = "A draft nobody has published";
    const document = articleDocument({ slug: "a-draft-not-published", title, category: "Protection", author: "" });
    await addArticle(t.database.db, document, { state: "draft" });
    await addArticle(
      t.database.db,
      { ...document, slug: "an-unpublished-one", title: `${title} either` },
      {
        state: "unpublished",
        at: new Date(Date.now() - 60_000),
      },
    );
    await refreshContentVersion(t.database.db);
    const drawnBefore = t.app.cards.drawn;
    for (const [slug, shown] of [
      ["a-draft-not-published", title],
      ["an-unpublished-one", `${title} either`],
    ] as const) {
      expect((await get(articlePath(slug))).statusCode).toBe(404);
      // The card it would have if it were public, and the site's key with its hash.
      const card = { kind: "article" as const, title: shown, label: "Protection" };
      for (const address of [cardPath(`blog_${slug}`, card), cardPath("site", card)]) {
        const response = await get(address);
        expect(response.statusCode, address).toBe(404);
        expect(response.headers["content-type"]).toMatch(/^application\/json/);
      }
    }
    expect(t.app.cards.drawn).toBe(drawnBefore);
  });

  it("answers bad card addresses 404 or 400, never 500", async () => {
    const good = await cardOf("/contact");
    const hash = /-([0-9a-f]{16})\.jpg$/.exec(good)![1]!;
    const addresses = [
      "/cards/",
      "/cards/garbage",
      "/cards/garbage.jpg",
      `/cards/contact-${hash}.png`,
      `/cards/contact-${hash.toUpperCase()}.jpg`,
      `/cards/contact-${"0".repeat(16)}.jpg`,
      `/cards/about-${hash}.jpg`,
      `/cards/nowhere-${hash}.jpg`,
      `/cards/blog_no-such-article-${hash}.jpg`,
      `/cards/blog_x_y-${hash}.jpg`,
      `/cards/${"a".repeat(5000)}-${hash}.jpg`,
      `/cards/contact%00-${hash}.jpg`,
      `/cards/contact%0a-${hash}.jpg`,
      `/cards/%E2%80%AEcontact-${hash}.jpg`,
      `/cards/..%2Fcontact-${hash}.jpg`,
      `/cards/contact-${hash}.jpg/extra`,
      `/cards/%ff%fe-${hash}.jpg`,
    ];
    for (const address of addresses) {
      const response = await get(address);
      expect([400, 404], address).toContain(response.statusCode);
    }
  });
});
