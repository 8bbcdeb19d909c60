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

/**
 * The project's one driver, for a test about something other than storage (pages, headers): it
 * runs once per project on that project's database, with no second database of its own.
 */
export const projectDriver: TestDriver = testDrivers[0]!;

/**
 * True in the project whose database is PostgreSQL. Tests of PostgreSQL itself (two instances over
 * one server, a connection cut between statements) run there alone: `describe.runIf(onPostgres)`.
 * Elsewhere they are skipped, and `npm test` counts them among those that need PostgreSQL.
 */
export const onPostgres = testDrivers.includes("postgres") && Boolean(process.env.TEST_DATABASE_URL);

/**
 * True in the project whose database is PGlite, the one every run has. Tests that need no test
 * database of either driver (the embedded database's own folder, a client against a silent
 * socket) run there once, not once per project: `describe.runIf(onPglite)`.
 */
export const onPglite = testDrivers.includes("pglite");
