import path from "node:path";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { projectRoot } from "../project-root.ts";
import { type Database, queryRows } from "./client.ts";

export const migrationsFolder = path.join(projectRoot, "drizzle");

/** Key of the transaction-level advisory lock that serialises schema and content changes. */
export const SCHEMA_LOCK_KEY = 482_901_337;

/**
 * Applies the SQL migrations drizzle-kit generated, in order, each at most once.
 *
 * Our own small runner instead of drizzle's per-driver `migrate()`: one code path for PGlite and
 * PostgreSQL, and an advisory lock so that instances starting at once against one server take
 * turns instead of racing to create the same tables.
 */
export async function applyMigrations(
  db: Database,
  options: { only?: ReadonlySet<string> } = {},
): Promise<{ applied: number }> {
  // `only`: the migrations a restored archive was made under (backup/restore.ts), before the rest.
  const migrations = readMigrationFiles({ migrationsFolder }).filter(
    (migration) => !options.only || options.only.has(migration.hash),
  );
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`);
    await tx.execute(sql`
      create table if not exists schema_migrations (
        hash text primary key,
        created_at bigint not null,
        applied_at timestamptz not null default now()
      )`);
    const done = await queryRows<{ hash: string }>(tx, sql`select hash from schema_migrations`);
    const appliedHashes = new Set(done.map((row) => row.hash));
    let applied = 0;
    for (const migration of migrations) {
      if (appliedHashes.has(migration.hash)) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into schema_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
      applied += 1;
    }
    return { applied };
  });
}

/** The hashes of drizzle/'s migrations, in the order they apply. */
export function knownMigrationHashes(): string[] {
  return (knownMigrations ??= readMigrationFiles({ migrationsFolder })).map((migration) => migration.hash);
}

let knownMigrations: ReturnType<typeof readMigrationFiles> | undefined;

/** True when every migration in drizzle/ is recorded as applied. */
export async function migrationsAreApplied(db: Database): Promise<boolean> {
  const migrations = (knownMigrations ??= readMigrationFiles({ migrationsFolder }));
  const exists = await queryRows<{ present: boolean }>(
    db,
    sql`select to_regclass('schema_migrations') is not null as present`,
  );
  if (!exists[0]?.present) return false;
  const done = await queryRows<{ hash: string }>(db, sql`select hash from schema_migrations`);
  const appliedHashes = new Set(done.map((row) => row.hash));
  return migrations.every((migration) => appliedHashes.has(migration.hash));
}
