import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config.ts";
import { openDatabase, queryRows } from "../db/client.ts";
import { applyMigrations, migrationsFolder } from "../db/migrate.ts";
import { blogPosts, contentRevisions, media, projects, teamMembers, testimonials } from "../db/schema.ts";
import { startSite } from "../site.ts";
import { CONTENT_SEEDED_KEY, MEDIA_SEEDED_KEY, seedContent } from "./import-content.ts";
import { readMediaFolder } from "./media-files.ts";
import { readSiteContent } from "./load-content.ts";
import { listBlogPosts, listTeamMembers } from "./public-content.ts";
import { siteContentDir } from "../../../test/build-test-app.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";

// The seed (docs/decisions/038-the-database-holds-the-content.md, section 1): the first start of
// a database imports CONTENT_DIR once; every later start reads no content file.

describe.each(testDrivers)("the seed on %s", (driver) => {
  let dir: string;
  let database: TestDatabase;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "seed-"));
    await cp(siteContentDir, dir, { recursive: true });
    database = await createTestDatabase(driver);
  });
  afterEach(async () => {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Starts the site over the test's database (which the test drops itself) and stops it. */
  const startAndStop = async (contentDir: string, syncContent?: boolean) => {
    const site = await startSite({
      config: parseConfig({ NODE_ENV: "test", DATA_DIR: "memory://", CONTENT_DIR: contentDir }),
      database: { ...database, close: async () => {} },
      syncContent,
    });
    await site.close();
  };
  const seeded = async () =>
    (await queryRows(database.db, sql`select 1 from app_settings where key = ${CONTENT_SEEDED_KEY}`)).length === 1;
  const titles = async () =>
    await database.db
      .select({ slug: blogPosts.slug, title: blogPosts.title })
      .from(blogPosts)
      .orderBy(asc(blogPosts.slug));

  it("brings content/media into the library once for a site seeded before the library existed", async () => {
    await startAndStop(dir);
    const { media: pictures } = await readMediaFolder(dir);
    expect(pictures.length).toBeGreaterThan(0);
    expect(await database.db.$count(media)).toBe(pictures.length);
    // A database as the previous release left it: content seeded, no library.
    await database.db.delete(media);
    await database.db.execute(sql`delete from app_settings where key = ${MEDIA_SEEDED_KEY}`);

    await startAndStop(dir);
    expect(await database.db.$count(media)).toBe(pictures.length);
    const [legacy] = await database.db
      .select({ path: media.sourcePath })
      .from(media)
      .where(sql`source_path is not null`);
    expect(legacy?.path).toMatch(/^\/images\//);

    // Once done, a later start reads no picture: gone from the folder, the library keeps them.
    await rm(path.join(dir, "media"), { recursive: true });
    await database.db.delete(media);
    await startAndStop(dir);
    expect(await database.db.$count(media)).toBe(0);
  });

  it("runs on the first start only: a later start reads no content file", async () => {
    await startAndStop(dir, false);
    expect(await seeded()).toBe(false);
    expect(await database.db.$count(blogPosts)).toBe(0);

    await startAndStop(dir);
    expect(await seeded()).toBe(true);
    const content = await readSiteContent(dir);
    const first = await titles();
    expect(first).toHaveLength(content.articles.length);
    const revisions = await database.db.$count(contentRevisions);

    // An edited file and a deleted one change nothing at the next start…
    const file = path.join(dir, "articles", "arc-flash-studies-ieee-1584-2018.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^title: .*$/m, 'title: "Edited after the seed"'));
    await rm(path.join(dir, "articles", "bess-sizing-for-commercial-peak-shaving.md"));
    await startAndStop(dir);
    expect(await titles()).toEqual(first);
    expect(await database.db.$count(contentRevisions)).toBe(revisions);
    // …and a start whose CONTENT_DIR cannot be read at all (a file, not a folder) starts: it reads none.
    await startAndStop(path.join(dir, "articles", "ieee-519-harmonics-at-a-vfd-heavy-plant.md"));
    expect(await titles()).toEqual(first);
  });

  it("is done by one of two instances starting at once", async () => {
    await applyMigrations(database.db);
    const other =
      driver === "postgres" ? await openDatabase({ databaseUrl: database.url, dataDir: "unused" }) : database;
    try {
      const results = await Promise.all([seedContent(database.db, dir), seedContent(other.db, dir)]);
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      const content = await readSiteContent(dir);
      expect(await database.db.$count(blogPosts)).toBe(content.articles.length);
      expect(await database.db.$count(teamMembers)).toBe(content.teamMembers.length);
      expect(await database.db.$count(testimonials)).toBe(content.testimonials.length);
      expect(await database.db.$count(contentRevisions)).toBe(
        content.articles.length + content.teamMembers.length + content.projects.length + content.testimonials.length,
      );
    } finally {
      if (other !== database) await other.close();
    }
  });

  it("gives an upgraded site's rows their first revisions, origins, team slugs and published revisions", async () => {
    // The database as the version before migration 0007 left it: the files synced into rows.
    const migrations = readMigrationFiles({ migrationsFolder });
    const before = migrations.findIndex((migration) => migration.sql.join("").includes('"content_revisions"'));
    expect(before).toBeGreaterThan(0);
    await database.db.transaction(async (tx) => {
      await tx.execute(
        sql`create table schema_migrations (hash text primary key, created_at bigint not null, applied_at timestamptz not null default now())`,
      );
      for (const migration of migrations.slice(0, before)) {
        for (const statement of migration.sql) if (statement.trim()) await tx.execute(sql.raw(statement));
        await tx.execute(
          sql`insert into schema_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
        );
      }
    });
    const content = await readSiteContent(dir);
    const nameOf = new Map(content.teamMembers.map((member) => [member.slug, member.name]));
    for (const member of content.teamMembers) {
      await database.db.execute(
        sql`insert into team_members (name, title, expertise, image_url, linkedin_url, email, "order")
            values (${member.name}, ${member.title}, ${member.expertise}, ${member.imageUrl}, ${member.linkedinUrl}, ${member.email}, ${member.order})`,
      );
    }
    for (const project of [
      ...content.projects,
      { ...content.projects[0]!, slug: "retired-project", title: "Retired" },
    ]) {
      await database.db.execute(
        sql`insert into projects (slug, title, description, category, image_url, year, capacity, timeline)
            values (${project.slug}, ${project.title}, ${project.description}, ${project.category}, ${project.imageUrl}, ${project.year}, ${project.capacity}, ${project.timeline})`,
      );
    }
    for (const { document } of content.articles) {
      await database.db.execute(
        sql`insert into blog_posts (slug, title, excerpt, content, category, image_url, published_at, author_name)
            values (${document.slug}, ${document.title}, ${document.excerpt}, ${document.body}, ${document.category}, ${document.imageUrl}, ${document.publishedAt}, ${nameOf.get(document.author) ?? null})`,
      );
    }
    const idsBefore = {
      posts: await database.db
        .select({ id: blogPosts.id, slug: blogPosts.slug })
        .from(blogPosts)
        .orderBy(asc(blogPosts.slug)),
      team: await database.db
        .select({ id: teamMembers.id, name: teamMembers.name })
        .from(teamMembers)
        .orderBy(asc(teamMembers.name)),
    };

    await startAndStop(dir);

    const posts = await database.db.select().from(blogPosts).orderBy(asc(blogPosts.slug));
    const team = await database.db.select().from(teamMembers).orderBy(asc(teamMembers.name));
    expect(posts.map((post) => ({ id: post.id, slug: post.slug }))).toEqual(idsBefore.posts);
    expect(team.map((member) => ({ id: member.id, name: member.name }))).toEqual(idsBefore.team);
    expect(team.map((member) => member.slug).sort()).toEqual([...nameOf.keys()].sort());
    const revisions = await database.db.select().from(contentRevisions);
    for (const row of [...posts, ...team, ...(await database.db.select().from(projects))]) {
      expect(row.headRevisionId).not.toBeNull();
      expect(revisions.filter((revision) => revision.id === row.headRevisionId)).toEqual([
        expect.objectContaining({ number: 1, source: "seed", hash: row.originHash }),
      ]);
      expect(row.status).toBe("published");
      expect(row.publishedRevisionId).toBe(row.headRevisionId);
    }
    // The testimonials, new in the files (decision 061), each with its revision.
    expect(revisions).toHaveLength(
      posts.length + team.length + content.projects.length + 1 + content.testimonials.length,
    );
    expect(await database.db.$count(testimonials)).toBe(3);
    // Bylines now name their team member by id as well.
    const arcFlash = posts.find((post) => post.slug === "arc-flash-studies-ieee-1584-2018")!;
    expect(arcFlash).toMatchObject({
      authorName: "Anil Patel",
      authorId: team.find((m) => m.slug === "anil-patel")!.id,
    });
    // A row no file matched got its revision too, then the prune moved it to the trash.
    const [retired] = await database.db.select().from(projects).where(eq(projects.slug, "retired-project"));
    expect(retired).toMatchObject({ deletedByLabel: "content files", headRevisionId: expect.any(Number) });
    expect((await listBlogPosts(database.db)).length).toBe(content.articles.length);
    expect((await listTeamMembers(database.db)).length).toBe(content.teamMembers.length);
  });
});
