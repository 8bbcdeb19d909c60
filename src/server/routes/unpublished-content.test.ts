import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlogPostSummary, Project } from "#shared/api-types.ts";
import { apiPaths, articleApiPath, articlePath, projectApiPath, projectPath } from "#shared/paths.ts";
import { cardKeyOf, SITE_CARD_KEY } from "#shared/link-card.ts";
import { cardPath } from "../cards/card-address.ts";
import { refreshContentVersion } from "../content/data-version.ts";
import { contentRedirects, projects, teamMembers } from "../db/schema.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { addArticle, addArticleRedirect, articleDocument, type ArticleState } from "../../../test/content-fixtures.ts";
import { testDrivers } from "../../../test/databases.ts";
import { pageRoutesForTests } from "../../../test/page-paths.ts";

// Decision 038, section 3: nothing that is not public reaches a visitor. A draft, a scheduled
// (future), an unpublished and a trashed article, a draft, a scheduled, an unpublished and a
// trashed project, a draft team member, and an old address leading to each, are put in the database; then every public address
// is walked: each route of the route table, every public article and project, the blog's search
// and filters, the feeds, the sitemap, the JSON API, every old address and guessed ones. None of
// their words appears anywhere, Open Graph and JSON-LD included.

/** In every field of every item that must stay hidden, and in no public text. */
// Long enough that no hash (an ETag, say) holds it by chance: "zqx" alone did, once in a while.
const MARK = "zqxhidden";
const A_DAY = 24 * 60 * 60 * 1000;

const hidden: { name: string; state: ArticleState }[] = [
  { name: "draft", state: { state: "draft" } },
  { name: "scheduled", state: { state: "published", at: new Date(Date.now() + A_DAY) } },
  { name: "unpublished", state: { state: "unpublished", at: new Date(Date.now() - A_DAY) } },
  { name: "trashed", state: { state: "trashed", at: new Date(Date.now() - A_DAY) } },
];
const slugOf = (name: string) => `${MARK}-${name}-article`;

describe.each(testDrivers)("content that is not public, on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(driver);
    const db = t.database.db;
    for (const { name, state } of hidden) {
      const { id } = await addArticle(
        db,
        articleDocument({
          slug: slugOf(name),
          title: `Zqxhidden ${name} title`,
          excerpt: `An excerpt of the zqxhidden ${name} article.`,
          category: `Zqxhidden ${name} category`,
          imageAlt: `A zqxhidden ${name} picture`,
          author: "",
          body: `## Zqxhidden ${name} heading\n\nThe zqxhidden ${name} body.`,
        }),
        state,
      );
      await addArticleRedirect(db, `legacy-${name}`, id);
    }
    const project = (slug: string, title: string) => ({
      slug,
      title,
      description: `The ${title} description.`,
      category: "Zqxhidden projects",
      imageUrl: "/images/projects/kutch-solar-park-grid-connection.svg",
      year: "2026",
    });
    const [draftProject] = await db
      .insert(projects)
      .values({ ...project(`${MARK}-draft-project`, "Zqxhidden draft project"), status: "draft" })
      .returning({ id: projects.id });
    const [trashedProject] = await db
      .insert(projects)
      .values({
        ...project(`${MARK}-trashed-project`, "Zqxhidden trashed project"),
        status: "published",
        deletedAt: new Date(),
      })
      .returning({ id: projects.id });
    // Published with a time to come (scheduled), and taken off the site: neither is public.
    const [scheduledProject] = await db
      .insert(projects)
      .values({
        ...project(`${MARK}-scheduled-project`, "Zqxhidden scheduled project"),
        status: "published",
        publishedAt: new Date(Date.now() + A_DAY),
      })
      .returning({ id: projects.id });
    const [unpublishedProject] = await db
      .insert(projects)
      .values({
        ...project(`${MARK}-unpublished-project`, "Zqxhidden unpublished project"),
        status: "unpublished",
        publishedAt: new Date(Date.now() - A_DAY),
      })
      .returning({ id: projects.id });
    await db.insert(contentRedirects).values([
      { kind: "project", oldSlug: "legacy-draft-project", projectId: draftProject!.id, createdByLabel: "Test" },
      { kind: "project", oldSlug: "legacy-trashed-project", projectId: trashedProject!.id, createdByLabel: "Test" },
      { kind: "project", oldSlug: "legacy-scheduled-project", projectId: scheduledProject!.id, createdByLabel: "Test" },
      {
        kind: "project",
        oldSlug: "legacy-unpublished-project",
        projectId: unpublishedProject!.id,
        createdByLabel: "Test",
      },
    ]);
    await db.insert(teamMembers).values({
      name: "Zqxhidden Draftmember",
      title: "Zqxhidden engineer",
      expertise: "Zqxhidden studies",
      imageUrl: "/images/team/anil-patel.svg",
      order: 0,
      status: "draft",
    });
    await refreshContentVersion(db);
  });
  afterAll(async () => {
    await t.close();
  });

  /** GETs an address and checks that nothing hidden is in the answer (the address itself aside, which an API 404 repeats). */
  async function walk(url: string, expectedStatus: number | number[]) {
    const response = await t.app.inject({ method: "GET", url });
    expect([expectedStatus].flat(), url).toContain(response.statusCode);
    // What the visitor asked for comes back (a search box keeps its words): that is no leak.
    const asked = [
      url,
      ...[...new URL(url, "http://x").searchParams.values()].flatMap((value) => [
        encodeURIComponent(value),
        encodeURIComponent(value).replaceAll("%20", "+"),
        value,
      ]),
    ];
    const body = asked.reduce((text, echo) => text.replaceAll(echo, ""), response.body);
    expect(body.toLowerCase().includes(MARK), `${url} shows something not public`).toBe(false);
    for (const [name, value] of Object.entries(response.headers)) {
      expect(String(value).toLowerCase().includes(MARK), `${url}: header ${name}`).toBe(false);
    }
    return response;
  }

  it("shows none of it on any page, feed, sitemap or API answer, nor through the blog's search and filters", async () => {
    for (const path of pageRoutesForTests) await walk(path, 200);
    const posts = (await walk(apiPaths.blogPosts, 200)).json<BlogPostSummary[]>();
    const allProjects = (await walk(apiPaths.projects, 200)).json<Project[]>();
    expect(posts.length).toBeGreaterThanOrEqual(9);
    for (const post of posts) {
      await walk(articlePath(post.slug), 200);
      await walk(articleApiPath(post.slug), 200);
    }
    for (const project of allProjects) {
      await walk(projectPath(project.slug), 200);
      await walk(projectApiPath(project.slug), 200);
    }
    for (const url of [
      apiPaths.teamMembers,
      apiPaths.retention,
      "/rss.xml",
      "/sitemap.xml",
      "/robots.txt",
      "/blog?q=zqxhidden",
      `/blog?q=${encodeURIComponent("Zqxhidden draft")}`,
      ...hidden.map(({ name }) => `/blog?category=${encodeURIComponent(`Zqxhidden ${name} category`)}`),
      "/projects?category=Zqxhidden%20projects",
      "/search?q=zqxhidden",
      `/search?q=${encodeURIComponent("Zqxhidden draft")}`,
      `/search?q=${encodeURIComponent("Zqxhidden engineer")}`,
      "/api/search/articles?q=zqxhidden",
    ]) {
      await walk(url, 200);
    }
  });

  it("answers 404 at each one's own address, guessed, in the pages and the API", async () => {
    for (const { name } of hidden) {
      await walk(articlePath(slugOf(name)), 404);
      await walk(articleApiPath(slugOf(name)), 404);
    }
    for (const slug of ["draft", "trashed", "scheduled", "unpublished"].map((name) => `${MARK}-${name}-project`)) {
      await walk(projectPath(slug), 404);
      await walk(projectApiPath(slug), 404);
    }
  });

  it("draws no link-preview card of any of them, at the card address each would have or the site's key", async () => {
    const drawnBefore = t.app.cards.drawn;
    for (const { name } of hidden) {
      const card = { kind: "article" as const, title: `Zqxhidden ${name} title`, label: `Zqxhidden ${name} category` };
      await walk(cardPath(cardKeyOf(articlePath(slugOf(name))), card), 404);
      await walk(cardPath(SITE_CARD_KEY, card), 404);
    }
    for (const name of ["draft", "trashed", "scheduled", "unpublished"]) {
      const card = {
        kind: "project" as const,
        title: `Zqxhidden ${name} project`,
        label: "Project · Zqxhidden projects",
      };
      await walk(cardPath(cardKeyOf(projectPath(`${MARK}-${name}-project`)), card), 404);
    }
    expect(t.app.cards.drawn).toBe(drawnBefore);
  });

  it("answers 404 at every old address leading to one of them: an old address never reveals a new one", async () => {
    for (const { name } of hidden) {
      await walk(articlePath(`legacy-${name}`), 404);
      await walk(articleApiPath(`legacy-${name}`), 404);
    }
    for (const old of ["draft", "trashed", "scheduled", "unpublished"].map((name) => `legacy-${name}-project`)) {
      await walk(projectPath(old), 404);
      await walk(projectApiPath(old), 404);
    }
  });

  it("shows the scheduled article everywhere once it is due, and the others still nowhere", async () => {
    // The check above is only worth something if the walk finds an article once it is public.
    const db = t.database.db;
    const { id } = await addArticle(
      db,
      articleDocument({ slug: "now-public-article", title: "Now Public Article", body: "Public words." }),
      { state: "published", at: new Date(Date.now() - 1000) },
    );
    await addArticleRedirect(db, "legacy-now-public", id);
    await refreshContentVersion(db);
    for (const url of ["/blog", "/rss.xml", "/sitemap.xml", apiPaths.blogPosts, "/blog/now-public-article"]) {
      expect((await walk(url, 200)).body, url).toContain("now-public-article");
    }
    expect((await t.app.inject({ method: "GET", url: "/blog/legacy-now-public" })).headers.location).toBe(
      "/blog/now-public-article",
    );
  });

  it("shows a project whose time has come everywhere, its old address leading to it, and the others still nowhere", async () => {
    const db = t.database.db;
    const [due] = await db
      .insert(projects)
      .values({
        slug: "now-public-project",
        title: "Now Public Project",
        description: "Public words.",
        category: "Utilities",
        imageUrl: "/images/projects/kutch-solar-park-grid-connection.svg",
        year: "2099",
        status: "published",
        publishedAt: new Date(Date.now() - 1000),
      })
      .returning({ id: projects.id });
    await db
      .insert(contentRedirects)
      .values({ kind: "project", oldSlug: "legacy-now-public-project", projectId: due!.id, createdByLabel: "Test" });
    await refreshContentVersion(db);
    for (const url of ["/", "/projects", "/sitemap.xml", apiPaths.projects, "/projects/now-public-project"]) {
      expect((await walk(url, 200)).body, url).toContain("now-public-project");
    }
    expect((await t.app.inject({ method: "GET", url: "/projects/legacy-now-public-project" })).headers.location).toBe(
      "/projects/now-public-project",
    );
  });
});
