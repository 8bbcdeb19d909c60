import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "./client.ts";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../../test/databases.ts";
import { freePort } from "../../../test/smtp-peer.ts";
import { TcpProxy } from "../../../test/tcp-proxy.ts";

// Needs a PostgreSQL server to cut off: runs when TEST_DATABASE_URL is set (it is in CI).
describe.runIf(onPostgres)("the PostgreSQL pool when the connection is cut", () => {
  let target: TestDatabase;
  let proxy: TcpProxy;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    target = await createTestDatabase("postgres");
    const url = new URL(target.url!);
    proxy = new TcpProxy(await freePort(), { host: url.hostname, port: Number(url.port || 5432) });
    await proxy.up();
    url.host = `127.0.0.1:${proxy.port}`;
    handle = await openDatabase({ databaseUrl: url.toString(), dataDir: "unused" });
  });
  afterAll(async () => {
    await handle.close();
    await proxy.down();
    await target.drop();
  });

  it("fails a transaction that holds a connection between two statements, and the process lives on", async () => {
    // A client checked out for a transaction has no listener of the pool's: without one of our
    // own, the connection's end is an 'error' event nobody hears, which ends the process (CI saw
    // the server refuse connections after the database outage tests cut it mid-transaction).
    const uncaught: unknown[] = [];
    const hear = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", hear);
    try {
      let cut: () => void = () => {};
      const held = new Promise<void>((resolve) => (cut = resolve));
      const transaction = handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        cut();
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.execute(sql`select 1`);
      });
      await held;
      await proxy.down();
      await expect(transaction).rejects.toThrow();
      await proxy.up();
      // The pool replaces the lost client.
      const rows = (await handle.db.execute(sql`select 2 as two`)) as unknown as { rows: { two: number }[] };
      expect(rows.rows[0]!.two).toBe(2);
    } finally {
      process.off("uncaughtException", hear);
    }
    expect(uncaught).toEqual([]);
  });
});
