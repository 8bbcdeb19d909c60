import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, queryRows } from "./client.ts";
import { makeDatabaseTemplate, readDatabaseTemplate } from "./database-template.ts";
import { applyMigrations } from "./migrate.ts";

// A new embedded database starts from the build's empty one instead of running initdb. The
// tests' global set-up builds the project, so the template is there.

describe("the empty database a new one starts from", () => {
  let scratch: string | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it("is a gzip archive of a working, empty PostgreSQL", async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "template-"));
    const file = path.join(scratch, "empty.tar.gz");
    const bytes = await makeDatabaseTemplate(file);
    const archive = await readFile(file);
    expect(archive.length).toBe(bytes);
    expect([...archive.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const loaded = await PGlite.create("memory://", { loadDataDir: new Blob([archive]) });
    try {
      expect(
        (
          await loaded.query<{ tables: number }>(
            "select count(*)::int as tables from pg_tables where schemaname = 'public'",
          )
        ).rows,
      ).toEqual([{ tables: 0 }]);
    } finally {
      await loaded.close();
    }
  });

  it("is what a new folder starts from, and a folder that holds a database is opened as it is", async () => {
    expect(readDatabaseTemplate()).toBeInstanceOf(Blob);
    scratch = await mkdtemp(path.join(tmpdir(), "data-"));
    const create = vi.spyOn(PGlite, "create");
    const first = await openDatabase({ dataDir: scratch });
    await applyMigrations(first.db);
    await queryRows(first.db, sql`insert into app_settings (key, value) values ('template-test', 'kept')`);
    await first.close();
    expect(create.mock.calls[0]?.[1]).toMatchObject({ loadDataDir: expect.any(Blob) });

    const again = await openDatabase({ dataDir: scratch });
    try {
      expect(create.mock.calls[1]?.[1]).not.toHaveProperty("loadDataDir");
      expect(await queryRows(again.db, sql`select value from app_settings where key = 'template-test'`)).toEqual([
        { value: "kept" },
      ]);
    } finally {
      await again.close();
    }
  });
});
