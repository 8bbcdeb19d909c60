import pg from "pg";
import type { TestProject } from "vitest/node";
import { isCI } from "./ci.ts";
import { type DatabaseTemplates, makePgliteTemplates, makePostgresTemplates } from "./database-templates.ts";
import { chosenDrivers } from "./drivers.ts";

/**
 * In CI the PostgreSQL tests are not optional: a missing or unreachable server fails the whole
 * run here, in one line, before any test is skipped or times out for want of it.
 */
export async function checkTestDatabaseServer(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const url = env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      "CI=true but TEST_DATABASE_URL is not set: the database tests must also run against PostgreSQL (.ci/run sets it; TEST_DRIVERS=pglite leaves PostgreSQL out on purpose)",
    );
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("select 1");
  } catch (error) {
    const reason = error instanceof Error ? error.message || error.name : String(error);
    throw new Error(`CI=true but PostgreSQL at TEST_DATABASE_URL does not answer (${reason})`, { cause: error });
  } finally {
    await client.end().catch(() => {});
  }
}

// The database projects' set-up (vitest.config.ts): the server checked in CI, then the run's
// template databases for the project's drivers (test/database-templates.ts), removed at the end.
export default async function setup(project: TestProject) {
  const env = { ...process.env, ...project.config.env };
  const drivers = chosenDrivers(env);
  if (isCI(env) && drivers.includes("postgres")) await checkTestDatabaseServer(env);
  const templates: DatabaseTemplates = {};
  const removals: (() => Promise<void>)[] = [];
  if (drivers.includes("pglite")) {
    const made = await makePgliteTemplates();
    templates.pglite = made.files;
    removals.push(made.remove);
  }
  if (drivers.includes("postgres") && env.TEST_DATABASE_URL) {
    const made = await makePostgresTemplates(env.TEST_DATABASE_URL);
    templates.postgres = made.names;
    removals.push(made.remove);
  }
  project.provide("databaseTemplates", templates);
  return async () => {
    for (const remove of removals) await remove();
  };
}
