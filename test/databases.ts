import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "#server/db/client.ts";
import { isCI } from "./ci.ts";

// The same tests run against the embedded PGlite always, and against a PostgreSQL server too
// when TEST_DATABASE_URL is set. In CI (CI=true) they always run against both: a missing or
// unreachable server fails the run (test/global-setup.ts) instead of skipping half the tests.
// TEST_DRIVERS=pglite is the one explicit way to leave PostgreSQL out (CI's lean Node 20 pass).
// Each call gets a database of its own.

export type TestDriver = "pglite" | "postgres";

const allDrivers: TestDriver[] = ["pglite", "postgres"];

/** Which drivers the database tests run against, from TEST_DRIVERS, TEST_DATABASE_URL and CI. */
export function chosenDrivers(env: NodeJS.ProcessEnv): TestDriver[] {
  if (env.TEST_DRIVERS) {
    const names = env.TEST_DRIVERS.split(",").map((name) => name.trim());
    const unknown = names.filter((name) => !allDrivers.includes(name as TestDriver));
    if (unknown.length || !names.length)
      throw new Error(`TEST_DRIVERS=${env.TEST_DRIVERS}: expected pglite, postgres or pglite,postgres`);
    return allDrivers.filter((driver) => names.includes(driver));
  }
  return env.TEST_DATABASE_URL || isCI(env) ? allDrivers : ["pglite"];
}

export const testDrivers: TestDriver[] = chosenDrivers(process.env);

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export type TestDatabase = DatabaseHandle & { url?: string; drop: () => Promise<void> };

/** A fresh, empty database: an in-memory PGlite, or a new database on the test server. */
export async function createTestDatabase(driver: TestDriver): Promise<TestDatabase> {
  if (driver === "pglite") {
    const handle = await openDatabase({ dataDir: "memory://" });
    return { ...handle, drop: handle.close };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl)
    throw new Error(
      "TEST_DATABASE_URL is not set: CI runs every database test against PostgreSQL too (TEST_DRIVERS=pglite leaves it out)",
    );
  const name = `site_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = withDatabase(serverUrl, name);
  const handle = await openDatabase({ databaseUrl: url, dataDir: "unused" });
  let closed = false;
  return {
    ...handle,
    url,
    close: async () => {
      if (!closed) await handle.close();
      closed = true;
    },
    drop: async () => {
      if (!closed) await handle.close();
      closed = true;
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
