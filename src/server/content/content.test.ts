import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyMigrations } from "../db/migrate.ts";
import { blogPosts, projects, teamMembers } from "../db/schema.ts";
import { readSiteContent } from "./load-content.ts";
import { watchContentVersion } from "./data-version.ts";
import { syncSiteContent } from "./sync-content.ts";
import { siteContentDir } from "../../../test/build-test-app.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";

const teamFile = (name: string, order: number) => `name: ${name}\ntitle: Senior Engineer\nexpertise: Protection\nimage: /images/team/a.svg\norder: ${order}\n`;
const projectFile = (title: string) =>
  `title: ${title}\ndescription: A 220 kV grid connection study.\ncategory: Renewable Energy\nimage: /images/projects/a.svg\nyear: "2024"\ncapacity: 100 MW\ntimeline: 9 months\n`;
const articleFile = (title: string, extra = "") =>
  `---\ntitle: "${title}"\nexcerpt: Short excerpt.\ncategory: Power Quality\nimage: /images/articles/a.svg\npublishedAt: 2025-01-05\n${extra}---\n\n## Heading\n\nBody text.\n`;

async function writeContent(dir: string, files: Record<string, string>) {
  for (const [name, body] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), body);
  }
}

describe("the site's own content files", () => {
  it("are all valid and as plentiful as the site needs", async () => {
    const content = await readSiteContent(siteContentDir);
    expect(content.problems).toEqual([]);
    expect(content.teamMembers.length).toBeGreaterThanOrEqual(6);
    expect(content.projects.length).toBeGreaterThanOrEqual(6);
    expect(new Set(content.projects.map((project) => project.category))).toEqual(
      new Set(["Utilities", "Renewable Energy", "Industrial", "Commercial"]),
    );
    const published = content.articles.filter((article) => !article.draft);
    expect(published.length).toBeGreaterThanOrEqual(9);
    const categories = new Set(published.map((article) => article.category));
    expect(categories.size).toBeGreaterThanOrEqual(4);
    expect(categories).toContain("Renewable Energy");
    for (const article of published) expect(article.content.split(/\s+/).length).toBeGreaterThan(400);
  });
});

describe("readSiteContent", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "content-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names the file and the field at fault, and still reads the valid files", async () => {
    await writeContent(dir, {
      "team/good.yaml": teamFile("Good Person", 1),
      "team/no-title.yaml": "name: No Title\nexpertise: x\nimage: /images/team/a.svg\n",
      "projects/bad-year.yaml": projectFile("Bad Year").replace('year: "2024"', "year: last year"),
      "articles/bad-date.md": articleFile("Bad date").replace("2025-01-05", "someday"),
      "articles/no-front-matter.md": "# Just markdown\n",
      "articles/unknown-author.md": articleFile("Unknown author", "author: nobody-here\n"),
      "articles/typo.md": articleFile("Typo", "categroy: Oops\n"),
      "articles/Bad_Name.md": articleFile("Bad name"),
    });
    const content = await readSiteContent(dir);
    expect(content.teamMembers.map((member) => member.name)).toEqual(["Good Person"]);
    expect(content.problems).toEqual(
      expect.arrayContaining([
        { file: path.join("team", "no-title.yaml"), field: "title", message: "must be text" },
        { file: path.join("projects", "bad-year.yaml"), field: "year", message: "must be a four-digit year" },
        { file: path.join("articles", "bad-date.md"), field: "publishedAt", message: "must be a date like 2025-01-05" },
        { file: path.join("articles", "no-front-matter.md"), field: "(front matter)", message: expect.any(String) },
        { file: path.join("articles", "unknown-author.md"), field: "author", message: expect.stringContaining("nobody-here") },
        { file: path.join("articles", "typo.md"), field: "(file)", message: "unknown field(s) categroy" },
        { file: path.join("articles", "Bad_Name.md"), field: "(file name)", message: expect.any(String) },
      ]),
    );
  });

  it("reads a bare publication date as midnight in India", async () => {
    await writeContent(dir, { "articles/dated.md": articleFile("Dated") });
    const content = await readSiteContent(dir);
    expect(content.articles[0]?.publishedAt.toISOString()).toBe("2025-01-04T18:30:00.000Z");
  });
});

describe.each(testDrivers)("syncSiteContent on %s", (driver) => {
  let dir: string;
  let database: TestDatabase;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "content-"));
    database = await createTestDatabase(driver);
    await applyMigrations(database.db);
  });
  afterEach(async () => {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const snapshot = async () => ({
    team: await database.db.select().from(teamMembers).orderBy(asc(teamMembers.name)),
    projects: await database.db.select().from(projects).orderBy(asc(projects.slug)),
    posts: await database.db.select().from(blogPosts).orderBy(asc(blogPosts.slug)),
  });

  it("loads the site's content twice into the same rows", async () => {
    const content = await readSiteContent(siteContentDir);
    await syncSiteContent(database.db, content);
    const first = await snapshot();
    const again = await syncSiteContent(database.db, await readSiteContent(siteContentDir));
    expect(again.changed).toBe(0);
    expect(await snapshot()).toEqual(first);
    expect(first.team).toHaveLength(content.teamMembers.length);
    expect(first.projects).toHaveLength(content.projects.length);
    expect(first.posts).toHaveLength(content.articles.filter((article) => !article.draft).length);
  });

  it("updates a row in place when its file is edited, and removes rows whose file is gone", async () => {
    await writeContent(dir, {
      "team/a.yaml": teamFile("Anil Shah", 2),
      "team/b.yaml": teamFile("Bina Desai", 1),
      "projects/solar.yaml": projectFile("Solar Park"),
      "projects/wind.yaml": projectFile("Wind Farm"),
      "articles/harmonics.md": articleFile("Harmonics"),
      "articles/old.md": articleFile("Old"),
    });
    await syncSiteContent(database.db, await readSiteContent(dir));
    const before = await snapshot();

    await writeContent(dir, {
      "team/a.yaml": teamFile("Anil Shah", 5),
      "projects/solar.yaml": projectFile("Solar Park, extended"),
      "articles/harmonics.md": articleFile("Harmonics revisited"),
    });
    await rm(path.join(dir, "projects/wind.yaml"));
    await rm(path.join(dir, "articles/old.md"));
    await syncSiteContent(database.db, await readSiteContent(dir));
    const after = await snapshot();

    const anilBefore = before.team.find((member) => member.name === "Anil Shah");
    expect(after.team.find((member) => member.name === "Anil Shah")).toEqual({ ...anilBefore, order: 5 });
    expect(after.projects.map((project) => [project.slug, project.title])).toEqual([["solar", "Solar Park, extended"]]);
    expect(after.projects[0]?.id).toBe(before.projects.find((project) => project.slug === "solar")?.id);
    expect(after.posts.map((post) => [post.slug, post.title])).toEqual([["harmonics", "Harmonics revisited"]]);
  });

  it("keeps a collection's rows when one of its files is broken, and leaves drafts off the site", async () => {
    await writeContent(dir, {
      "articles/one.md": articleFile("One"),
      "articles/two.md": articleFile("Two"),
      "articles/three.md": articleFile("Three"),
    });
    await syncSiteContent(database.db, await readSiteContent(dir));
    await writeContent(dir, {
      "articles/one.md": "---\ntitle: [unclosed\n---\nbody\n",
      "articles/three.md": articleFile("Three", "draft: true\n"),
    });
    const content = await readSiteContent(dir);
    expect(content.problems.map((problem) => problem.file)).toEqual([path.join("articles", "one.md")]);
    await syncSiteContent(database.db, content);
    expect((await snapshot()).posts.map((post) => [post.slug, post.title])).toEqual([
      ["one", "One"],
      ["two", "Two"],
    ]);
  });
});

describe.each(testDrivers)("the content version on %s", (driver) => {
  let dir: string;
  let database: TestDatabase;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "content-"));
    database = await createTestDatabase(driver);
    await applyMigrations(database.db);
  });
  afterEach(async () => {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("changes with a sync that changes a row, so that page caches start again", async () => {
    const watcher = await watchContentVersion(database.db, 60_000);
    try {
      const before = watcher.current();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await syncSiteContent(database.db, await readSiteContent(siteContentDir));
      await watcher.refresh();
      expect(watcher.current()).not.toBe(before);
    } finally {
      watcher.stop();
    }
  });

  it("stays the same through a sync that changes nothing, and moves with an edited, added or removed file", async () => {
    await writeContent(dir, { "team/a.yaml": teamFile("Anil Shah", 1), "projects/solar.yaml": projectFile("Solar Park"), "articles/harmonics.md": articleFile("Harmonics") });
    await syncSiteContent(database.db, await readSiteContent(dir));
    const watcher = await watchContentVersion(database.db, 60_000);
    const versionAfter = async (change: () => Promise<unknown>) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await change();
      const summary = await syncSiteContent(database.db, await readSiteContent(dir));
      await watcher.refresh();
      return { version: watcher.current(), changed: summary.changed };
    };
    try {
      const start = watcher.current();
      // Another instance starting with the same files.
      expect(await versionAfter(async () => {})).toEqual({ version: start, changed: 0 });
      const edited = await versionAfter(() => writeContent(dir, { "articles/harmonics.md": articleFile("Harmonics revisited") }));
      expect(edited.changed).toBe(1);
      expect(edited.version).not.toBe(start);
      const added = await versionAfter(() => writeContent(dir, { "team/b.yaml": teamFile("Bina Desai", 2) }));
      expect(added.version).not.toBe(edited.version);
      const removed = await versionAfter(() => rm(path.join(dir, "projects/solar.yaml")));
      expect(removed.version).not.toBe(added.version);
      expect(await versionAfter(async () => {})).toEqual({ version: removed.version, changed: 0 });
    } finally {
      watcher.stop();
    }
  });
});
