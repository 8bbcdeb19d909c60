import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshContentVersion } from "../content/data-version.ts";
import { unpublishItem } from "../content/publishing.ts";
import { contentRedirects, projects } from "../db/schema.ts";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { addArticle, addArticleRedirect, articleDocument } from "../../../test/content-fixtures.ts";
import { testDrivers } from "../../../test/databases.ts";

// Old addresses (decision 038, section 2): /blog/<old> and /projects/<old> answer one 301 to the
// item's current address while the item is public, else the 404 page; the JSON API does the same
// for /api/blog-posts/<old> and /api/projects/<old>.

const A_DAY = 24 * 60 * 60 * 1000;

describe.each(testDrivers)("old addresses on %s", (driver) => {
  let t: TestApp;
  let movedId: string;
  beforeAll(async () => {
    t = await buildTestApp(driver);
    const db = t.database.db;
    // Published as "a", renamed "b", then "c": both old slugs name the item, not each other.
    movedId = (
      await addArticle(
        db,
        articleDocument({ slug: "cable-sizing-c", title: "Cable Sizing, Third Title", body: "Text." }),
        {
          state: "published",
          at: new Date(Date.now() - A_DAY),
        },
      )
    ).id;
    await addArticleRedirect(db, "cable-sizing-a", movedId);
    await addArticleRedirect(db, "cable-sizing-b", movedId);
    for (const [state, slug] of [
      ["draft", "draft-new"],
      ["unpublished", "unpublished-new"],
      ["trashed", "trashed-new"],
    ] as const) {
      const at = new Date(Date.now() - A_DAY);
      const { id } = await addArticle(
        db,
        articleDocument({ slug, title: `Renamed ${state}` }),
        state === "draft" ? { state } : { state, at },
      );
      await addArticleRedirect(db, `${state}-old`, id);
    }
    const { id: scheduled } = await addArticle(db, articleDocument({ slug: "scheduled-new", title: "Renamed later" }), {
      state: "published",
      at: new Date(Date.now() + A_DAY),
    });
    await addArticleRedirect(db, "scheduled-old", scheduled);
    const [kutch] = await db
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.slug, "kutch-solar-park-grid-connection"));
    await db.insert(contentRedirects).values({
      kind: "project",
      oldSlug: "kutch-solar-park",
      projectId: kutch!.id,
      createdByLabel: "Test Writer",
    });
    await refreshContentVersion(db);
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (url: string) => t.app.inject({ method: "GET", url });

  it("sends each old address of a chain a→b→c on to c in one 301, its query string kept, never kept by a cache on its own", async () => {
    for (const old of ["cable-sizing-a", "cable-sizing-b"]) {
      const response = await get(`/blog/${old}`);
      expect(response.statusCode, old).toBe(301);
      expect(response.headers.location, old).toBe("/blog/cable-sizing-c");
      expect(response.headers["cache-control"], old).toBe("no-cache");
    }
    expect((await get("/blog/cable-sizing-a?utm_source=newsletter")).headers.location).toBe(
      "/blog/cable-sizing-c?utm_source=newsletter",
    );
    const current = await get("/blog/cable-sizing-c");
    expect(current.statusCode).toBe(200);
    expect(current.body).toContain("Cable Sizing, Third Title");
    const project = await get("/projects/kutch-solar-park");
    expect(project.statusCode).toBe(301);
    expect(project.headers.location).toBe("/projects/kutch-solar-park-grid-connection");
  });

  it("answers the 404 page for an old address whose item is a draft, unpublished, in the trash or not yet due", async () => {
    const notFound = await get("/blog/no-such-article");
    for (const old of ["draft-old", "unpublished-old", "trashed-old", "scheduled-old"]) {
      const response = await get(`/blog/${old}`);
      expect(response.statusCode, old).toBe(404);
      expect(response.headers.location, old).toBeUndefined();
      // The same page as any unknown address: nothing says that a new one exists.
      expect(response.body, old).toBe(notFound.body);
    }
  });

  it("does the same in the JSON API: a 301 to the current API address, or the API's 404", async () => {
    const moved = await get("/api/blog-posts/cable-sizing-a");
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe("/api/blog-posts/cable-sizing-c");
    expect(moved.headers["cache-control"]).toBe("no-cache");
    expect((await get("/api/projects/kutch-solar-park")).headers.location).toBe(
      "/api/projects/kutch-solar-park-grid-connection",
    );
    for (const old of ["draft-old", "unpublished-old", "trashed-old", "scheduled-old"]) {
      const response = await get(`/api/blog-posts/${old}`);
      expect(response.statusCode, old).toBe(404);
      expect(response.json(), old).toEqual({
        error: "Not Found",
        message: `There is no article at /api/blog-posts/${old}.`,
      });
    }
  });

  it("follows the content: once the item is taken off the site its old addresses are 404s, at once on the instance that wrote", async () => {
    expect((await get("/blog/cable-sizing-b")).statusCode).toBe(301);
    expect((await get("/api/blog-posts/cable-sizing-b")).statusCode).toBe(301);
    await t.database.db.transaction((tx) => unpublishItem(tx, "article", movedId, "Test Writer"));
    // What the studio does after its commit: this instance serves the change from its next answer.
    await refreshContentVersion(t.database.db);
    for (const url of ["/blog/cable-sizing-a", "/blog/cable-sizing-b", "/blog/cable-sizing-c"]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
    expect((await get("/api/blog-posts/cable-sizing-b")).statusCode).toBe(404);
  });
});
