import pg from "pg";
import { buildIfStale } from "../scripts/build-if-stale.ts";
import { isCI } from "./ci.ts";
import { testDrivers } from "./databases.ts";

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

// Tests that start the real server process need the production bundles.
export default async function setup() {
  if (isCI() && testDrivers.includes("postgres")) await checkTestDatabaseServer();
  buildIfStale();
}
