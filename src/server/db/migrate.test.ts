import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "./client.ts";
import { applyMigrations, migrationsAreApplied } from "./migrate.ts";
import { createTestDatabase, type TestDatabase, testDrivers } from "../../../test/databases.ts";

describe.each(testDrivers)("migrations on %s", (driver) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  it("create the tables of the spec, with the spec's columns first, from an empty database, once", async () => {
    database = await createTestDatabase(driver);
    expect(await migrationsAreApplied(database.db)).toBe(false);
    const first = await applyMigrations(database.db);
    expect(first.applied).toBeGreaterThan(0);
    expect(await applyMigrations(database.db)).toEqual({ applied: 0 });
    expect(await migrationsAreApplied(database.db)).toBe(true);

    const columns = await queryRows<{
      table_name: string;
      column_name: string;
      is_nullable: string;
      column_default: string | null;
    }>(
      database.db,
      sql`
      select table_name, column_name, is_nullable, column_default from information_schema.columns
      where table_schema = 'public' and table_name in ('contact_submissions', 'blog_posts', 'team_members', 'projects')
      order by table_name, ordinal_position`,
    );
    const byTable = new Map<string, string[]>();
    for (const row of columns) byTable.set(row.table_name, [...(byTable.get(row.table_name) ?? []), row.column_name]);
    const specColumns = {
      blog_posts: ["id", "title", "excerpt", "content", "category", "image_url", "published_at", "slug"],
      contact_submissions: ["id", "first_name", "last_name", "email", "company", "service", "message", "created_at"],
      projects: ["id", "title", "description", "category", "image_url", "year", "capacity", "timeline", "slug"],
      team_members: ["id", "name", "title", "expertise", "image_url", "linkedin_url", "email", "order"],
    };
    for (const [table, names] of Object.entries(specColumns)) {
      expect(byTable.get(table)?.slice(0, names.length), table).toEqual(names);
    }
    const column = (table: string, name: string) =>
      columns.find((row) => row.table_name === table && row.column_name === name);
    expect(column("team_members", "order")?.column_default).toBe("0");
    expect(column("contact_submissions", "id")?.column_default).toBe("gen_random_uuid()");
    expect(column("contact_submissions", "created_at")?.column_default).toBe("now()");
    expect(column("contact_submissions", "company")?.is_nullable).toBe("YES");
    expect(column("contact_submissions", "email")?.is_nullable).toBe("NO");
  });

  it("keep slugs unique", async () => {
    database = await createTestDatabase(driver);
    await applyMigrations(database.db);
    const insert = () =>
      database!.db.execute(sql`insert into projects (title, description, category, image_url, year, slug)
        values ('t', 'd', 'Utilities', '/images/x.svg', '2024', 'same-slug')`);
    await insert();
    await expect(insert()).rejects.toThrow();
  });

  if (driver === "postgres") {
    it("are safe when several instances start at once against one server", async () => {
      database = await createTestDatabase(driver);
      const instances = await Promise.all(
        Array.from({ length: 4 }, () => openDatabase({ databaseUrl: database!.url, dataDir: "unused" })),
      );
      try {
        const results = await Promise.all(instances.map((instance) => applyMigrations(instance.db)));
        const total = results.reduce((sum, result) => sum + result.applied, 0);
        expect(results.filter((result) => result.applied > 0)).toHaveLength(1);
        expect(total).toBeGreaterThan(0);
        expect(await migrationsAreApplied(database.db)).toBe(true);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
      }
    });
  }
});
