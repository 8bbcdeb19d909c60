import { expect, test } from "./fixtures.ts";

test("the sitemap, robots.txt and the RSS feed are well formed and list what they should", async ({
  page,
  request,
}) => {
  await page.goto("/");
  const parse = (xml: string) =>
    page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "application/xml");
      return {
        error: doc.querySelector("parsererror")?.textContent ?? null,
        locs: [...doc.querySelectorAll("url > loc")].map((node) => node.textContent),
        lastmods: doc.querySelectorAll("url > lastmod").length,
        items: [...doc.querySelectorAll("item > link")].map((node) => node.textContent),
        encoded: [...doc.getElementsByTagNameNS("http://purl.org/rss/1.0/modules/content/", "encoded")].map(
          (node) => node.textContent?.length ?? 0,
        ),
      };
    }, xml);
  const posts = (await (await request.get("/api/blog-posts")).json()) as { slug: string }[];
  const sitemap = await parse(await (await request.get("/sitemap.xml")).text());
  expect(sitemap.error).toBeNull();
  for (const path of ["/", "/about", "/services", "/industries", "/projects", "/blog", "/contact"]) {
    expect(
      sitemap.locs.some((loc) => loc && new URL(loc).pathname === path),
      path,
    ).toBe(true);
  }
  for (const post of posts) expect(sitemap.locs.some((loc) => loc?.endsWith(`/blog/${post.slug}`))).toBe(true);
  expect(sitemap.lastmods).toBe(sitemap.locs.length);
  const rss = await parse(await (await request.get("/rss.xml")).text());
  expect(rss.error).toBeNull();
  expect(rss.items).toHaveLength(posts.length);
  expect(Math.min(...rss.encoded)).toBeGreaterThan(1000);
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toMatch(/^Sitemap: http:\/\/.+\/sitemap\.xml$/m);
});

test("every icon and the manifest a page links are served, and /favicon.ico too", async ({ page, request }) => {
  await page.goto("/");
  const linked = await page
    .locator('link[rel="icon"], link[rel="apple-touch-icon"], link[rel="manifest"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  expect(linked).toContain("/favicon.ico");
  for (const href of linked) {
    const response = await request.get(href);
    expect(response.status(), href).toBe(200);
    expect(response.headers()["content-type"], href).toMatch(/^(image\/|application\/manifest\+json)/);
  }
  const manifest = (await (await request.get("/site.webmanifest")).json()) as { icons: { src: string }[] };
  for (const icon of manifest.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
});
