import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { seedContent } from "#server/content/import-content.ts";
import { type DatabaseHandle, openDatabase } from "#server/db/client.ts";
import { applyMigrations } from "#server/db/migrate.ts";
import type { TestDriver } from "./drivers.ts";
import { type DatabaseTemplates, onServer, type TemplateKind, withDatabase } from "./database-templates.ts";
import { currentLayer } from "./layers.ts";
import { siteContentDir } from "./paths.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's template databases (test/global-setup.ts), when the project made them. */
    databaseTemplates: DatabaseTemplates;
  }
}

export { chosenDrivers, onPglite, onPostgres, projectDriver, type TestDriver, testDrivers } from "./drivers.ts";

export type TestDatabase = DatabaseHandle & { url?: string; drop: () => Promise<void> };

const templates = (): DatabaseTemplates => inject("databaseTemplates") ?? {};
const archives = new Map<string, Blob>();
function pgliteArchive(file: string): Blob {
  let archive = archives.get(file);
  if (!archive) archives.set(file, (archive = new Blob([readFileSync(file)])));
  return archive;
}

/**
 * A database of its own for the caller: an in-memory PGlite, or a new database on the test
 * server. `from` says what it holds: nothing at all (the default, for tests of migrating and
 * seeding), the schema ("empty"), or the schema and the site's content ("content"). Those two
 * are copies of the run's templates when the global set-up made them.
 */
export async function createTestDatabase(
  driver: TestDriver,
  options: {
    from?: TemplateKind;
    /**
     * Where an embedded database runs: on the test's thread (the default: a thread costs a start
     * and a turn per query, about 30% of the embedded project's time), or in a thread of its own,
     * as the site runs it (decision 050). TEST_PGLITE_THREAD=worker runs every file that way.
     */
    thread?: "worker" | "process";
    /** An embedded database in this folder, rather than in memory (the caller removes the folder). */
    dataDir?: string;
  } = {},
): Promise<TestDatabase> {
  if (currentLayer() === "unit")
    throw new Error(
      "a unit test opened a database: it belongs in the integration layer (test/layers.ts decides from its imports)",
    );
  const from = options.from;
  const prepared = async (handle: TestDatabase, copied: boolean): Promise<TestDatabase> => {
    if (from && !copied) {
      await applyMigrations(handle.db);
      if (from === "content") await seedContent(handle.db, siteContentDir);
    }
    return handle;
  };
  if (driver === "pglite") {
    const file = from ? templates().pglite?.[from] : undefined;
    const handle = await openDatabase({
      dataDir: options.dataDir ?? "memory://",
      thread: options.thread ?? (process.env.TEST_PGLITE_THREAD === "worker" ? "worker" : "process"),
      ...(file ? { template: pgliteArchive(file) } : {}),
    });
    return prepared({ ...handle, drop: handle.close }, Boolean(file));
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl)
    throw new Error(
      "TEST_DATABASE_URL is not set: CI runs every database test against PostgreSQL too (TEST_DRIVERS=pglite leaves it out)",
    );
  const name = `site_test_${randomBytes(6).toString("hex")}`;
  const template = from ? templates().postgres?.[from] : undefined;
  await onServer(serverUrl, (client) =>
    client.query(`create database ${name}${template ? ` template ${template}` : ""}`),
  );
  const url = withDatabase(serverUrl, name);
  const handle = await openDatabase({ databaseUrl: url, dataDir: "unused" });
  let closed = false;
  return prepared(
    {
      ...handle,
      url,
      close: async () => {
        if (!closed) await handle.close();
        closed = true;
      },
      drop: async () => {
        if (!closed) await handle.close();
        closed = true;
        await onServer(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
      },
    },
    Boolean(template),
  );
}
