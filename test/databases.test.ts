import { describe, expect, it } from "vitest";
import { isCI } from "./ci.ts";
import { chosenDrivers, onPostgres } from "./databases.ts";
import { checkTestDatabaseServer } from "./global-setup.ts";

// CI must not pass by quietly skipping the PostgreSQL half of the database tests.

describe("which databases the tests run against", () => {
  it("is PGlite alone on a laptop without a server, both with TEST_DATABASE_URL", () => {
    expect(chosenDrivers({})).toEqual(["pglite"]);
    expect(chosenDrivers({ TEST_DATABASE_URL: "postgres://db/test" })).toEqual(["pglite", "postgres"]);
  });

  it("is always both in CI, so a missing server fails instead of skipping", () => {
    expect(isCI({ CI: "true" })).toBe(true);
    expect(isCI({ CI: "false" })).toBe(false);
    expect(isCI({})).toBe(false);
    expect(chosenDrivers({ CI: "true" })).toEqual(["pglite", "postgres"]);
    expect(chosenDrivers({ CI: "1" })).toEqual(["pglite", "postgres"]);
    expect(chosenDrivers({ CI: "false" })).toEqual(["pglite"]);
  });

  it("leaves PostgreSQL out only when TEST_DRIVERS says so, and refuses a name it does not know", () => {
    expect(chosenDrivers({ CI: "true", TEST_DRIVERS: "pglite" })).toEqual(["pglite"]);
    expect(chosenDrivers({ TEST_DRIVERS: "postgres, pglite" })).toEqual(["pglite", "postgres"]);
    expect(() => chosenDrivers({ TEST_DRIVERS: "pglite,mysql" })).toThrow(
      "TEST_DRIVERS=pglite,mysql: expected pglite, postgres or pglite,postgres",
    );
  });
});

describe("CI's check of the PostgreSQL server", () => {
  it("fails when TEST_DATABASE_URL is not set", async () => {
    await expect(checkTestDatabaseServer({ CI: "true" })).rejects.toThrow(/^CI=true but TEST_DATABASE_URL is not set/);
  });

  it("fails when nothing answers at TEST_DATABASE_URL", async () => {
    // Port 1 on the loopback: refused at once.
    await expect(
      checkTestDatabaseServer({ CI: "true", TEST_DATABASE_URL: "postgres://postgres@127.0.0.1:1/postgres" }),
    ).rejects.toThrow(/^CI=true but PostgreSQL at TEST_DATABASE_URL does not answer \(.*ECONNREFUSED/);
  });

  it.runIf(onPostgres)("passes when the server answers", async () => {
    await expect(checkTestDatabaseServer()).resolves.toBeUndefined();
  });
});
