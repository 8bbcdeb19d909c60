import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "#server/db/client.ts";

// The same tests run against the embedded PGlite always, and against a PostgreSQL server too
// when TEST_DATABASE_URL is set (CI sets it). Each call gets a database of its own.

export type TestDriver = "pglite" | "postgres";

export const testDrivers: TestDriver[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

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
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is not set");
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
