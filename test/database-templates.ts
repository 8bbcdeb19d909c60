import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { seedContent } from "#server/content/import-content.ts";
import { openDatabase } from "#server/db/client.ts";
import { applyMigrations } from "#server/db/migrate.ts";
import { siteContentDir } from "./paths.ts";

// Every test database starts as a copy of one made once per run: migrated ("empty") or migrated
// and seeded with the site's content ("content"). Migrating and seeding a database took about 1.3 s
// of CPU each time, and the suite makes a few hundred. On PostgreSQL a copy is
// `CREATE DATABASE … TEMPLATE`; on PGlite it is the data directory's archive, loaded at start.
// Vitest's global set-up makes them (test/global-setup.ts) and hands their names to the tests
// (`provide`/`inject`); test/databases.ts uses them, and works without them by migrating.

export type TemplateKind = "empty" | "content";

export type DatabaseTemplates = {
  /** Files of the PGlite data directory archives. */
  pglite?: Record<TemplateKind, string>;
  /** Names of the template databases on TEST_DATABASE_URL's server. */
  postgres?: Record<TemplateKind, string>;
};

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs `work` with a client on the server's maintenance database. */
export async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function prepare(db: Parameters<typeof applyMigrations>[0], kind: TemplateKind): Promise<void> {
  await applyMigrations(db);
  if (kind === "content") await seedContent(db, siteContentDir);
}

/** Makes the PGlite archives in a folder of their own; `remove` deletes it. */
export async function makePgliteTemplates(): Promise<{
  files: Record<TemplateKind, string>;
  remove: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(tmpdir(), "site-test-templates-"));
  const files = {} as Record<TemplateKind, string>;
  for (const kind of ["empty", "content"] as const) {
    const handle = await openDatabase({ dataDir: "memory://" });
    try {
      await prepare(handle.db, kind);
      // Not compressed: 40 MB on disk, but loaded faster than the gzip, a few hundred times a run.
      const archive = await handle.pglite!.dumpDataDir("none");
      files[kind] = path.join(dir, `${kind}.tar`);
      await writeFile(files[kind], Buffer.from(await archive.arrayBuffer()));
    } finally {
      await handle.close();
    }
  }
  return { files, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Makes the template databases on the server; `remove` drops them. */
export async function makePostgresTemplates(
  serverUrl: string,
): Promise<{ names: Record<TemplateKind, string>; remove: () => Promise<void> }> {
  const run = randomBytes(4).toString("hex");
  const names = { empty: `site_template_${run}_empty`, content: `site_template_${run}_content` };
  const remove = () =>
    onServer(serverUrl, async (client) => {
      for (const name of Object.values(names)) await client.query(`drop database if exists ${name} with (force)`);
    });
  try {
    for (const kind of ["empty", "content"] as const) {
      await onServer(serverUrl, (client) => client.query(`create database ${names[kind]}`));
      const handle = await openDatabase({ databaseUrl: withDatabase(serverUrl, names[kind]), dataDir: "unused" });
      try {
        await prepare(handle.db, kind);
      } finally {
        await handle.close();
      }
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { names, remove };
}
