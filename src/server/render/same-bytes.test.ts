import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlogPostSummary, Project } from "#shared/api-types.ts";
import { apiPaths, articlePath, projectPath } from "#shared/paths.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { type TestDriver, testDrivers } from "../../../test/databases.ts";
import { pageRoutesForTests } from "../../../test/page-paths.ts";

// Decision 038, section 6: two databases holding the same content give the same public pages, to
// the byte, so a site seeded from content/, exported and imported elsewhere looks the same. Row
// ids (new UUIDs in each database) stay out of what pages embed; the JSON API keeps its `id`
// fields, and the sitemap's <lastmod> is the time of each database's load: both are outside this.

/** A contact form's fields are new for every answer, in one database as in two. */
const withoutFormFields = (html: string) =>
  html
    .replace(/("token":|name="formToken" value=)"[^"]*"/g, '$1"…"')
    .replace(/("idempotencyKey":|name="idempotencyKey" value=)"[^"]*"/g, '$1"…"');

// PGlite and PostgreSQL in the PostgreSQL project (the strongest case); two PGlite databases in
// the PGlite project. Each seeded by itself, not copied from the run's template: new ids in each.
const [first, second]: [TestDriver, TestDriver] = testDrivers.includes("postgres")
  ? ["pglite", "postgres"]
  : ["pglite", "pglite"];

describe(`public pages from a ${first} and a ${second} database holding the same content`, () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await Promise.all([buildTestApp(first, { seededHere: true }), buildTestApp(second, { seededHere: true })]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it("are the same bytes: every route of the route table, every article and project, the feed and the 404 page", async () => {
    const posts = (await a.app.inject({ method: "GET", url: apiPaths.blogPosts })).json<BlogPostSummary[]>();
    const projects = (await a.app.inject({ method: "GET", url: apiPaths.projects })).json<Project[]>();
    // The API's ids differ, as they may: the rows are the databases' own.
    const otherIds = (await b.app.inject({ method: "GET", url: apiPaths.blogPosts })).json<BlogPostSummary[]>();
    expect(otherIds.map((post) => post.id)).not.toEqual(posts.map((post) => post.id));
    const urls = [
      ...pageRoutesForTests,
      ...posts.map((post) => articlePath(post.slug)),
      ...projects.map((project) => projectPath(project.slug)),
      "/blog?q=grid",
      "/rss.xml",
      "/no/such/page",
    ];
    expect(urls.length).toBeGreaterThan(25);
    for (const url of urls) {
      const [fromA, fromB] = await Promise.all([a, b].map((t) => t.app.inject({ method: "GET", url })));
      expect(fromA!.statusCode, url).toBe(fromB!.statusCode);
      expect(withoutFormFields(fromA!.body), url).toBe(withoutFormFields(fromB!.body));
      for (const id of posts.map((post) => post.id))
        expect(fromA!.body.includes(id), `${url} embeds a row id`).toBe(false);
    }
  });
});
