import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPaths } from "#shared/paths.ts";
import { routeIds, routePath, routes } from "#shared/routes.ts";
import { blogPosts, contentRedirects } from "../db/schema.ts";
import { exportContent } from "./export-content.ts";
import { importContent } from "./import-content.ts";
import { readSiteContent } from "./load-content.ts";
import { listBlogPosts, listProjects } from "./public-content.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";

// Decision 038, section 6: a site seeded from content/, exported, and imported into an empty
// database serves the same public pages, byte for byte; export, import, export writes the same
// bytes. Outside the comparison, as the decision says: the JSON API's `id` fields (new UUIDs) and
// the sitemap's <lastmod> (the moment of the import).

/** Every file under a folder, by its relative path. */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    // Pictures (media/) compared byte for byte, as base64.
    files[path.relative(dir, full)] = await readFile(
      full,
      /\.(png|jpg|webp|avif)$/.test(entry.name) ? "base64" : "utf8",
    );
  }
  return files;
}

/** The JSON without its `id` fields. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== "id")
        .map(([key, entry]) => [key, withoutIds(entry)]),
    );
  return value;
}

/** What changes with every request, not with the content: the contact form's token and key. */
const perRequest = (body: string) =>
  body
    .replace(/(name="formToken" value=")[^"]+/g, "$1…")
    .replace(/(name="idempotencyKey" value=")[^"]+/g, "$1…")
    .replace(/("token":")\d{13}\.[^"]+/g, "$1…")
    .replace(/("idempotencyKey":")[^"]+/g, "$1…");

describe.each(testDrivers)("export, then import into an empty database, on %s", (driver) => {
  let seeded: TestApp;
  let imported: TestApp;
  let dirs: string[] = [];
  const newDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "content-export-"));
    dirs.push(dir);
    return dir;
  };
  let first: Record<string, string>;

  beforeAll(async () => {
    seeded = await buildTestApp(driver);
    // An old address, to travel with its article.
    const [article] = await seeded.database.db
      .select({ id: blogPosts.id })
      .from(blogPosts)
      .where(eq(blogPosts.slug, "ieee-519-harmonics-at-a-vfd-heavy-plant"));
    await seeded.database.db
      .insert(contentRedirects)
      .values({ kind: "article", oldSlug: "vfd-harmonics", articleId: article!.id, createdByLabel: "Meera Shah" });
    const out = await newDir();
    const summary = await exportContent(seeded.database.db, out);
    expect(summary.notExported).toEqual([]);
    first = await filesOf(out);
    imported = await buildTestApp(driver, { content: false });
    const result = await importContent(imported.database.db, await readSiteContent(out), { prune: true });
    expect(result.problems).toEqual([]);
    expect(result.skipped).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await seeded?.close();
    await imported?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    dirs = [];
  });

  it("writes the format content/ is in, and export, import, export gives the same bytes", async () => {
    const content = await readSiteContent(path.resolve("content"));
    expect(Object.keys(first).sort()).toEqual(
      [
        ...content.articles.map(({ document }) => path.join("articles", `${document.slug}.md`)),
        ...content.projects.map((project) => path.join("projects", `${project.slug}.yaml`)),
        ...content.teamMembers.map((member) => path.join("team", `${member.slug}.yaml`)),
        ...content.testimonials.map((file) => path.join("testimonials", `${file.slug}.yaml`)),
        ...content.media.flatMap((entry) => [entry.file, entry.file.replace(/\.[a-z]+$/, ".yaml")]),
        "redirects.yaml",
      ].sort(),
    );
    // The media library's seed, exported, is the committed files to the byte.
    expect(content.media.length).toBeGreaterThan(0);
    for (const entry of content.media) {
      expect(first[entry.file]).toBe(entry.bytes.toString("base64"));
      const yaml = entry.file.replace(/\.[a-z]+$/, ".yaml");
      expect(first[yaml]).toBe(await readFile(path.resolve("content", yaml), "utf8"));
    }
    expect(first["redirects.yaml"]).toBe("articles:\n  vfd-harmonics: ieee-519-harmonics-at-a-vfd-heavy-plant\n");
    // The seed's testimonials, exported, are the committed files to the byte.
    expect(content.testimonials.length).toBe(3);
    for (const { slug } of content.testimonials) {
      const file = path.join("testimonials", `${slug}.yaml`);
      expect(first[file]).toBe(await readFile(path.resolve("content", file), "utf8"));
    }
    expect(first[path.join("team", "anil-patel.yaml")]).toBe(
      "name: Anil Patel\ntitle: Head of Protection & Safety\nexpertise: Relay coordination, arc flash studies to IEEE 1584-2018 and substation protection audits\nimage: /images/team/anil-patel.svg\nemail: anil.patel@sabarmatigrid.example\norder: 3\n",
    );
    expect(first[path.join("articles", "arc-flash-studies-ieee-1584-2018.md")]).toMatch(
      /^---\ntitle: "Arc Flash Studies Under IEEE 1584-2018: What Changed and What to Do About It"\nexcerpt: The 2018 edition [^\n]+\ncategory: Protection & Safety\nimage: \/images\/articles\/arc-flash-studies-ieee-1584-2018\.svg\npublishedAt: 2024-09-12\nauthor: anil-patel\n---\n\n## Why the old labels may be wrong\n[\s\S]+[^\n]\n$/,
    );
    const again = await newDir();
    await exportContent(imported.database.db, again);
    expect(await filesOf(again)).toEqual(first);
    // Imported back into the site it came from, it changes nothing and says nothing.
    const back = await importContent(seeded.database.db, await readSiteContent(again), { prune: true });
    expect([...back.added, ...back.updated, ...back.trashed, ...back.skipped]).toEqual([]);
    expect(back.changed).toBe(false);
  });

  it("serves byte-identical public pages, feeds and redirects", { timeout: 120_000 }, async () => {
    const articles = (await listBlogPosts(seeded.database.db)).map((post) => post.slug);
    const projects = (await listProjects(seeded.database.db)).map((project) => project.slug);
    expect(articles.length).toBeGreaterThan(0);
    const pages = routeIds.flatMap((id) => {
      if (!routes[id].pattern.includes(":slug")) return [routePath(id)];
      return (id === "article" ? articles : projects).map((slug) => routePath(id, { slug }));
    });
    const addresses = [
      ...pages,
      "/blog?category=Renewable%20Energy",
      "/blog/vfd-harmonics",
      "/blog/no-such-article",
      "/rss.xml",
      "/robots.txt",
    ];
    const differing: string[] = [];
    for (const url of addresses) {
      const [a, b] = await Promise.all([seeded.app.inject({ url }), imported.app.inject({ url })]);
      expect(b.statusCode, url).toBe(a.statusCode);
      expect(b.headers.location, url).toBe(a.headers.location);
      const [bodyA, bodyB] = [perRequest(a.body), perRequest(b.body)];
      if (bodyA !== bodyB) differing.push(url);
    }
    // Every page the same bytes: no page carries a row id (a new UUID in a new database).
    expect(differing).toEqual([]);

    const sitemap = async (app: TestApp) =>
      (await app.app.inject({ url: "/sitemap.xml" })).body.replace(/<lastmod>[^<]*<\/lastmod>/g, "");
    expect(await sitemap(imported)).toBe(await sitemap(seeded));

    const apis = [
      apiPaths.teamMembers,
      apiPaths.projects,
      apiPaths.blogPosts,
      apiPaths.testimonials,
      ...articles.map((slug) => `${apiPaths.blogPosts}/${slug}`),
      ...projects.map((slug) => `${apiPaths.projects}/${slug}`),
    ];
    for (const url of apis) {
      const [a, b] = await Promise.all([seeded.app.inject({ url }), imported.app.inject({ url })]);
      expect(b.statusCode, url).toBe(200);
      expect(withoutIds(JSON.parse(b.body)), url).toEqual(withoutIds(JSON.parse(a.body)));
    }
  });
});
