import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ArticleDocument, CONTENT_LIMITS } from "#shared/content/documents.ts";
import { queryRows } from "../db/client.ts";
import {
  auditEvents,
  blogPosts,
  contentRedirects,
  contentRevisions,
  projects,
  teamMembers,
  testimonials,
} from "../db/schema.ts";
import { listBlogPosts, listProjects, listTeamMembers } from "./public-content.ts";
import { CONTENT_VERSION_KEY } from "./data-version.ts";
import { importContent, type ImportOptions, type ImportSummary } from "./import-content.ts";
import { readSiteContent } from "./load-content.ts";
import { appendRevision } from "./revisions.ts";
import { siteContentDir } from "../../../test/build-test-app.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";

const teamFile = (name: string, order: number) =>
  `name: ${name}\ntitle: Senior Engineer\nexpertise: Protection\nimage: /images/team/a.svg\norder: ${order}\n`;
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

/** What an import said, in one line per item: "updated articles/a.md: published". */
const said = (summary: ImportSummary) => [
  ...summary.added.map((line) => `added ${line.file}: ${line.detail}`),
  ...summary.updated.map((line) => `updated ${line.file}: ${line.detail}`),
  ...summary.trashed.map((line) => `trashed ${line.file}: ${line.detail}`),
  ...summary.skipped.map((line) => `skipped ${line.file}: ${line.detail}`),
];

describe("the site's own content files", () => {
  it("are all valid and as plentiful as the site needs", async () => {
    const content = await readSiteContent(siteContentDir);
    expect(content.problems).toEqual([]);
    expect(content.teamMembers.length).toBeGreaterThanOrEqual(6);
    expect(content.projects.length).toBeGreaterThanOrEqual(6);
    expect(new Set(content.projects.map((project) => project.category))).toEqual(
      new Set(["Utilities", "Renewable Energy", "Industrial", "Commercial"]),
    );
    const published = content.articles.filter((article) => !article.draft).map((article) => article.document);
    expect(published.length).toBeGreaterThanOrEqual(9);
    const categories = new Set(published.map((article) => article.category));
    expect(categories.size).toBeGreaterThanOrEqual(4);
    expect(categories).toContain("Renewable Energy");
    for (const article of published) expect(article.body.split(/\s+/).length).toBeGreaterThan(400);
    // Team members are named by their file name, which articles give as their author.
    expect(content.teamMembers.map((member) => member.slug)).toContain("anil-patel");
    expect(published.every((article) => article.author === "" || /^[a-z-]+$/.test(article.author))).toBe(true);
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
      "articles/no-excerpt.md": articleFile("No excerpt").replace("excerpt: Short excerpt.\n", ""),
    });
    const content = await readSiteContent(dir);
    expect(content.teamMembers.map((member) => [member.slug, member.name])).toEqual([["good", "Good Person"]]);
    expect(content.articles).toEqual([]);
    expect(content.problems).toEqual(
      expect.arrayContaining([
        { file: path.join("team", "no-title.yaml"), field: "title", message: "must be text" },
        { file: path.join("projects", "bad-year.yaml"), field: "year", message: "must be a four-digit year" },
        {
          file: path.join("articles", "bad-date.md"),
          field: "publishedAt",
          message: expect.stringContaining("must be a date like 2025-01-05"),
        },
        { file: path.join("articles", "no-front-matter.md"), field: "(front matter)", message: expect.any(String) },
        {
          file: path.join("articles", "unknown-author.md"),
          field: "author",
          message: expect.stringContaining("nobody-here"),
        },
        { file: path.join("articles", "typo.md"), field: "(file)", message: "unknown field(s) categroy" },
        { file: path.join("articles", "Bad_Name.md"), field: "(file name)", message: expect.any(String) },
        { file: path.join("articles", "no-excerpt.md"), field: "excerpt", message: expect.stringContaining("draft") },
      ]),
    );
  });

  it("takes an article whose author is a member of staff (staff-<id>), who has no file of the team", async () => {
    const author = "staff-8f14e45f-ceea-467f-a0e6-0a1b2c3d4e5f";
    await writeContent(dir, { "articles/by-staff.md": articleFile("By staff", `author: ${author}\n`) });
    const content = await readSiteContent(dir);
    expect(content.problems).toEqual([]);
    expect(content.articles.map(({ document }) => document.author)).toEqual([author]);
  });

  it("reads an article as the document a revision stores, a bare date as midnight in India", async () => {
    await writeContent(dir, {
      "team/anil.yaml": teamFile("Anil Shah", 1),
      "articles/dated.md": articleFile("Dated", "author: anil\nimageAlt: A substation at dusk\n").replace(
        "Body text.\n",
        "Body text.\r\nSecond line.\r\n\r\n",
      ),
      "articles/timed.md": articleFile("Timed").replace("2025-01-05", "2025-01-05T09:30:00+05:30"),
    });
    const content = await readSiteContent(dir);
    expect(content.problems).toEqual([]);
    expect(content.articles.map((article) => article.document)).toEqual([
      {
        slug: "dated",
        title: "Dated",
        excerpt: "Short excerpt.",
        category: "Power Quality",
        imageUrl: "/images/articles/a.svg",
        imageAlt: "A substation at dusk",
        publishedAt: "2025-01-04T18:30:00.000Z",
        author: "anil",
        body: "## Heading\n\nBody text.\nSecond line.",
      },
      expect.objectContaining({ slug: "timed", imageAlt: "", author: "", publishedAt: "2025-01-05T04:00:00.000Z" }),
    ]);
  });

  it("takes a draft with only a title, as the studio does, and holds a published article to every field", async () => {
    await writeContent(dir, { "articles/idea.md": '---\ntitle: "An idea"\ndraft: true\n---\n' });
    const content = await readSiteContent(dir);
    expect(content.problems).toEqual([]);
    expect(content.articles).toEqual([
      {
        draft: true,
        document: {
          slug: "idea",
          title: "An idea",
          excerpt: "",
          category: "",
          imageUrl: "",
          imageAlt: "",
          publishedAt: "",
          author: "",
          body: "",
        },
      },
    ]);
  });

  it("refuses what the studio refuses: its lengths, control characters, a title on two lines", async () => {
    await writeContent(dir, {
      "articles/long-title.md": articleFile("x".repeat(CONTENT_LIMITS.title + 1)),
      "articles/long-alt.md": articleFile("Alt", `imageAlt: ${"a".repeat(CONTENT_LIMITS.imageAlt + 1)}\n`),
      "articles/escape.md": articleFile("Escape \u001b[31m red"),
      "articles/two-lines.md": articleFile("Two\\nlines"),
      "articles/long-body.md": articleFile("Long body").replace("Body text.", "x".repeat(CONTENT_LIMITS.body)),
      "articles/fine.md": articleFile("x".repeat(CONTENT_LIMITS.title)),
      [`articles/${"s".repeat(CONTENT_LIMITS.slug + 1)}.md`]: articleFile("Long slug"),
    });
    const content = await readSiteContent(dir);
    expect(content.articles.map((article) => article.document.slug)).toEqual(["fine"]);
    const problem = (name: string) => content.problems.find((found) => found.file === path.join("articles", name));
    expect(problem("long-title.md")).toEqual({
      file: path.join("articles", "long-title.md"),
      field: "title",
      message: `must be at most ${CONTENT_LIMITS.title} characters`,
    });
    expect(problem("long-alt.md")?.field).toBe("imageAlt");
    expect(problem("escape.md")?.message).toBe("must not contain control characters");
    expect(problem("two-lines.md")?.message).toBe("must be a single line of text");
    expect(problem("long-body.md")?.field).toBe("(body)");
    expect(problem(`${"s".repeat(CONTENT_LIMITS.slug + 1)}.md`)?.field).toBe("(file name)");
  });

  it("reads redirects.yaml, and names a broken one", async () => {
    await writeContent(dir, { "redirects.yaml": "articles:\n  old-name: new-name\nprojects:\n  a: b\n" });
    expect((await readSiteContent(dir)).redirects).toEqual([
      { kind: "article", oldSlug: "old-name", slug: "new-name" },
      { kind: "project", oldSlug: "a", slug: "b" },
    ]);
    await writeContent(dir, { "redirects.yaml": "articles:\n  Old_Name: new-name\n  same: same\nteam: {}\n" });
    const broken = await readSiteContent(dir);
    expect(broken.redirects).toEqual([]);
    expect(broken.problems.map((problem) => [problem.file, problem.field])).toEqual(
      expect.arrayContaining([
        ["redirects.yaml", "(file)"],
        ["redirects.yaml", "articles.Old_Name"],
      ]),
    );
  });
});

describe.each(testDrivers)("importContent on %s", (driver) => {
  let dir: string;
  let database: TestDatabase;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "content-"));
    database = await createTestDatabase(driver, { from: "empty" });
  });
  afterEach(async () => {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (options: ImportOptions = {}) => importContent(database.db, await readSiteContent(dir), options);
  const version = async () =>
    (
      await queryRows<{ value: string }>(
        database.db,
        sql`select value from app_settings where key = ${CONTENT_VERSION_KEY}`,
      )
    )[0]?.value;
  const article = async (slug: string) => {
    const rows = await database.db.select().from(blogPosts);
    const revisions = await database.db.select().from(contentRevisions).orderBy(asc(contentRevisions.number));
    const row = rows.find(
      (candidate) =>
        candidate.slug === slug ||
        revisions.some((revision) => revision.id === candidate.headRevisionId && revision.document.slug === slug),
    );
    return row && { row, revisions: revisions.filter((revision) => revision.articleId === row.id) };
  };
  /** A change in the studio: a new revision by Meera Shah at 26 Nov 2026, 14:32 in India. */
  const studioEdit = async (slug: string, change: Record<string, string>) => {
    const found = (await article(slug))!;
    const head = found.revisions.at(-1)!;
    const saved = await appendRevision(database.db, {
      kind: "article",
      itemId: found.row.id,
      baseRevisionId: head.id,
      document: { ...(head.document as unknown as ArticleDocument), ...change },
      source: "studio",
      author: { id: null, label: "Meera Shah" },
    });
    expect(saved.outcome).toBe("saved");
    await database.db
      .update(blogPosts)
      .set({ studioChangedAt: new Date("2026-11-26T09:02:00Z") })
      .where(eq(blogPosts.id, found.row.id));
  };

  it("loads the site's content, and a second import of the same files says nothing and moves nothing", async () => {
    const content = await readSiteContent(siteContentDir);
    const first = await importContent(database.db, content, { prune: true, source: "seed" });
    expect(first.added).toHaveLength(
      content.teamMembers.length +
        content.projects.length +
        content.articles.length +
        content.media.length +
        content.testimonials.length,
    );
    expect(first.added.filter((line) => line.kind === "testimonial")).toHaveLength(3);
    expect(first.publicChanged).toBe(true);
    const snapshot = async () => ({
      team: await database.db.select().from(teamMembers).orderBy(asc(teamMembers.slug)),
      projects: await database.db.select().from(projects).orderBy(asc(projects.slug)),
      posts: await database.db.select().from(blogPosts).orderBy(asc(blogPosts.slug)),
      revisions: await database.db.select().from(contentRevisions).orderBy(asc(contentRevisions.id)),
      testimonials: await database.db.select().from(testimonials).orderBy(asc(testimonials.slug)),
    });
    const before = await snapshot();
    const versionBefore = await version();
    const again = await importContent(database.db, await readSiteContent(siteContentDir), { prune: true });
    expect(said(again)).toEqual([]);
    expect(again).toMatchObject({ unchanged: first.added.length, changed: false, publicChanged: false });
    expect(await snapshot()).toEqual(before);
    expect(await version()).toBe(versionBefore);
    // Every item has its first revision (source seed), its origin and its published copy.
    expect(before.revisions.map((revision) => [revision.number, revision.source])).toEqual(
      before.revisions.map(() => [1, "seed"]),
    );
    for (const row of [...before.team, ...before.projects, ...before.posts]) {
      expect(row).toMatchObject({ status: "published", originHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(row.publishedRevisionId).toBe(row.headRevisionId);
    }
    expect(before.team.map((member) => member.slug)).toEqual(content.teamMembers.map((member) => member.slug).sort());
    // The byline comes from the team member the article names.
    expect(before.posts.find((post) => post.slug === "arc-flash-studies-ieee-1584-2018")).toMatchObject({
      authorName: "Anil Patel",
      authorId: before.team.find((member) => member.slug === "anil-patel")!.id,
    });
  });

  it("writes a changed file as a new revision and publishes it when the studio has not changed the item", async () => {
    await writeContent(dir, {
      "team/anil.yaml": teamFile("Anil Shah", 2),
      "projects/solar.yaml": projectFile("Solar Park"),
      "articles/harmonics.md": articleFile("Harmonics", "author: anil\n"),
    });
    await run();
    const { row: before } = (await article("harmonics"))!;
    const versionBefore = await version();
    await writeContent(dir, {
      "team/anil.yaml": teamFile("Anil Shah-Mehta", 5),
      "projects/solar.yaml": projectFile("Solar Park, extended"),
      "articles/harmonics.md": articleFile("Harmonics revisited", "author: anil\n"),
    });
    const summary = await run();
    expect(said(summary)).toEqual([
      "updated team/anil.yaml: published",
      "updated projects/solar.yaml: published",
      "updated articles/harmonics.md: published",
    ]);
    const { row, revisions } = (await article("harmonics"))!;
    expect(row.id).toBe(before.id);
    expect(revisions.map((revision) => [revision.number, revision.source, revision.authorLabel])).toEqual([
      [1, "import", "command line"],
      [2, "import", "command line"],
    ]);
    expect(row).toMatchObject({
      title: "Harmonics revisited",
      authorName: "Anil Shah-Mehta",
      headRevisionId: revisions[1]!.id,
      publishedRevisionId: revisions[1]!.id,
      studioChangedAt: null,
    });
    expect(row.originHash).toBe(revisions[1]!.hash);
    expect(row.originHash).not.toBe(before.originHash);
    expect((await listProjects(database.db)).map((project) => project.title)).toEqual(["Solar Park, extended"]);
    // The member's place stays the team's: a file's `order` places only a member the import adds (decision 043).
    expect((await listTeamMembers(database.db)).map((member) => [member.name, member.order])).toEqual([
      ["Anil Shah-Mehta", 2],
    ]);
    expect(await version()).not.toBe(versionBefore);
  });

  it("skips an item changed in the studio, naming who and when; --force writes it and keeps the studio's revision", async () => {
    await writeContent(dir, { "articles/harmonics.md": articleFile("Harmonics") });
    await run();
    await studioEdit("harmonics", { title: "Harmonics, as Meera wrote it" });

    // The file as imported before: the studio's version rules, and nothing is said.
    const quiet = await run();
    expect(said(quiet)).toEqual([]);
    expect(quiet.unchanged).toBe(1);

    await writeContent(dir, { "articles/harmonics.md": articleFile("Harmonics, as the file says") });
    const skipped = await run();
    expect(said(skipped)).toEqual([
      "skipped articles/harmonics.md: changed in the studio by Meera Shah on 26 Nov 2026, 14:32",
    ]);
    expect(skipped.changed).toBe(false);
    expect((await article("harmonics"))!.revisions).toHaveLength(2);

    const forced = await run({ force: true });
    expect(said(forced)).toEqual([
      "updated articles/harmonics.md: published, forced over the studio (changed in the studio by Meera Shah on 26 Nov 2026, 14:32)",
    ]);
    const { row, revisions } = (await article("harmonics"))!;
    expect(revisions.map((revision) => [revision.number, revision.source, revision.document.title])).toEqual([
      [1, "import", "Harmonics"],
      [2, "studio", "Harmonics, as Meera wrote it"],
      [3, "import", "Harmonics, as the file says"],
    ]);
    expect(row).toMatchObject({
      title: "Harmonics, as the file says",
      studioChangedAt: null,
      studioChangedByLabel: null,
    });
    const [audit] = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "content-imported"))
      .orderBy(asc(auditEvents.id))
      .offset(1);
    expect(audit).toMatchObject({
      actorLabel: "command line",
      details: expect.objectContaining({ forced: ["articles/harmonics.md"] }),
    });
    // From now on the file rules again.
    expect(said(await run())).toEqual([]);
  });

  it("skips a file whose item was made in the studio", async () => {
    await writeContent(dir, { "articles/harmonics.md": articleFile("Harmonics") });
    const [made] = await database.db.insert(blogPosts).values({ status: "draft" }).returning({ id: blogPosts.id });
    const content = await readSiteContent(dir);
    await appendRevision(database.db, {
      kind: "article",
      itemId: made!.id,
      document: { ...content.articles[0]!.document, title: "Harmonics, a draft" },
      source: "studio",
      author: { id: null, label: "Meera Shah" },
    });
    const summary = await run();
    expect(said(summary)).toEqual([
      expect.stringMatching(
        /^skipped articles\/harmonics\.md: changed in the studio by Meera Shah on \d+ \w{3} \d{4}, \d\d:\d\d$/,
      ),
    ]);
    expect(await database.db.$count(blogPosts)).toBe(1);
  });

  it("with --prune moves to the trash the items whose file is gone, never deleting, and never what the studio changed", async () => {
    await writeContent(dir, {
      "team/anil.yaml": teamFile("Anil Shah", 1),
      "team/bina.yaml": teamFile("Bina Desai", 2),
      "projects/solar.yaml": projectFile("Solar Park"),
      "projects/wind.yaml": projectFile("Wind Farm"),
      "articles/harmonics.md": articleFile("Harmonics"),
      "articles/old.md": articleFile("Old"),
      "articles/kept.md": articleFile("Kept by Meera"),
    });
    await run();
    await studioEdit("kept", { title: "Kept, edited" });
    for (const file of ["team/bina.yaml", "projects/wind.yaml", "articles/old.md", "articles/kept.md"])
      await rm(path.join(dir, file));

    expect(said(await run())).toEqual([]);
    const versionBefore = await version();
    const pruned = await run({ prune: true });
    expect(said(pruned).sort()).toEqual([
      "trashed articles/old.md: its file is gone; moved to the trash",
      "trashed projects/wind.yaml: its file is gone; moved to the trash",
      "trashed team/bina.yaml: its file is gone; moved to the trash",
    ]);
    expect(await version()).not.toBe(versionBefore);
    const { row: old, revisions } = (await article("old"))!;
    expect(old).toMatchObject({ deletedByLabel: "content files", status: "published" });
    expect(old.deletedAt).toBeInstanceOf(Date);
    expect(revisions).toHaveLength(1);
    expect(await database.db.$count(blogPosts)).toBe(3);
    expect((await listBlogPosts(database.db)).map((post) => post.slug).sort()).toEqual(["harmonics", "kept"]);
    expect((await listProjects(database.db)).map((project) => project.slug)).toEqual(["solar"]);
    expect((await listTeamMembers(database.db)).map((member) => member.name)).toEqual(["Anil Shah"]);
    // Pruning again finds nothing more; a file that comes back takes its item out of the trash.
    expect(said(await run({ prune: true }))).toEqual([]);
    await writeContent(dir, { "articles/old.md": articleFile("Old") });
    expect(said(await run({ prune: true }))).toEqual(["updated articles/old.md: published, restored from the trash"]);
    expect((await article("old"))!.row).toMatchObject({ deletedAt: null, deletedByLabel: null });
  });

  it("keeps every item of a folder that has a broken file, and prunes the other folders", async () => {
    await writeContent(dir, {
      "projects/solar.yaml": projectFile("Solar Park"),
      "projects/wind.yaml": projectFile("Wind Farm"),
      "articles/one.md": articleFile("One"),
      "articles/two.md": articleFile("Two"),
      "articles/three.md": articleFile("Three"),
    });
    await run();
    await writeContent(dir, { "articles/one.md": "---\ntitle: [unclosed\n---\nbody\n" });
    await rm(path.join(dir, "articles/three.md"));
    await rm(path.join(dir, "projects/wind.yaml"));
    const content = await readSiteContent(dir);
    expect(content.problems.map((problem) => problem.file)).toEqual([path.join("articles", "one.md")]);
    const summary = await importContent(database.db, content, { prune: true });
    expect(said(summary)).toEqual(["trashed projects/wind.yaml: its file is gone; moved to the trash"]);
    expect(summary.problems).toHaveLength(1);
    expect((await listBlogPosts(database.db)).map((post) => [post.slug, post.title])).toEqual([
      ["one", "One"],
      ["three", "Three"],
      ["two", "Two"],
    ]);
  });

  it("keeps a draft: true article off the site: a new one is a draft, a public one is unpublished", async () => {
    await writeContent(dir, {
      "articles/public.md": articleFile("Public"),
      "articles/idea.md": '---\ntitle: "An idea"\ndraft: true\n---\n\nA first paragraph.\n',
    });
    const versionBefore = await version();
    const first = await run();
    expect(said(first)).toEqual(["added articles/idea.md: draft", "added articles/public.md: published"]);
    expect((await article("idea"))!.row).toMatchObject({ status: "draft", title: null, slug: null, content: null });
    // A draft alone changes nothing public.
    const afterPublic = await version();
    expect(afterPublic).not.toBe(versionBefore);
    await writeContent(dir, { "articles/idea.md": '---\ntitle: "An idea, longer"\ndraft: true\n---\n' });
    expect(said(await run())).toEqual(["updated articles/idea.md: draft"]);
    expect(await version()).toBe(afterPublic);

    await writeContent(dir, { "articles/public.md": articleFile("Public", "draft: true\n") });
    expect(said(await run())).toEqual(["updated articles/public.md: unpublished (draft: true)"]);
    expect((await article("public"))!.row).toMatchObject({ status: "unpublished", title: "Public" });
    expect(await listBlogPosts(database.db)).toEqual([]);
    expect(await version()).not.toBe(afterPublic);
  });

  it("adds redirects.yaml's old addresses, and skips a file whose slug is another article's old address", async () => {
    await writeContent(dir, {
      "articles/harmonics.md": articleFile("Harmonics"),
      "redirects.yaml": "articles:\n  vfd-harmonics: harmonics\n  nowhere: no-such-article\n",
    });
    const summary = await run();
    expect(said(summary)).toEqual([
      "added articles/harmonics.md: published",
      "added redirects.yaml: leads to /blog/harmonics",
      "skipped redirects.yaml: no article here has the slug no-such-article",
    ]);
    const { row } = (await article("harmonics"))!;
    expect(await database.db.select().from(contentRedirects)).toEqual([
      expect.objectContaining({
        kind: "article",
        oldSlug: "vfd-harmonics",
        articleId: row.id,
        createdByLabel: "command line",
      }),
    ]);
    await writeContent(dir, { "articles/vfd-harmonics.md": articleFile("A new article at an old address") });
    const again = await run();
    expect(said(again)).toEqual([
      "skipped articles/vfd-harmonics.md: /blog/vfd-harmonics is an old address of «Harmonics»; an admin can release it",
      "skipped redirects.yaml: no article here has the slug no-such-article",
    ]);
    expect(again.unchanged).toBe(2);
  });

  it("on a dry run says what it would do and writes nothing", async () => {
    await writeContent(dir, {
      "articles/harmonics.md": articleFile("Harmonics"),
      "team/anil.yaml": teamFile("Anil Shah", 1),
    });
    const versionBefore = await version();
    const summary = await run({ dryRun: true, prune: true });
    expect(said(summary)).toEqual(["added team/anil.yaml: published", "added articles/harmonics.md: published"]);
    expect(summary).toMatchObject({ dryRun: true, changed: true });
    expect(await database.db.$count(blogPosts)).toBe(0);
    expect(await database.db.$count(teamMembers)).toBe(0);
    expect(await database.db.$count(contentRevisions)).toBe(0);
    expect(await version()).toBe(versionBefore);
  });
});
