import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { onPglite } from "../../../test/drivers.ts";
import { EVENT_LOOP_BUDGET_MS, longestEventLoopStall } from "../../../test/event-loop.ts";
import { type DatabaseHandle, openDatabase, queryRows } from "./client.ts";
import { applyMigrations } from "./migrate.ts";

// The site's embedded database runs in a thread of its own, reached through `pg` over a Unix
// socket (docs/decisions/050-the-embedded-database-in-a-thread-of-its-own.md).

describe.runIf(onPglite)("the embedded database in a thread of its own", () => {
  const opened: DatabaseHandle[] = [];
  const folders: string[] = [];
  const clients: pg.Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.end().catch(() => {});
    for (const handle of opened.splice(0)) await handle.close();
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });
  const open = async (dataDir = "memory://") => {
    const handle = await openDatabase({ dataDir, thread: "worker" });
    opened.push(handle);
    return handle;
  };
  const newFolder = async (prefix: string) => {
    const folder = await mkdtemp(path.join(tmpdir(), prefix));
    folders.push(folder);
    return folder;
  };
  /** A client of the socket in `folder`, as a command is, ended after the test. */
  const commandClient = (folder: string) => {
    const client = new pg.Client({ host: folder, user: "postgres", database: "postgres" });
    clients.push(client);
    return client;
  };
  /** The database shared in a folder of the test's own, and a command connected to it there. */
  const shareWithCommand = async (share: DatabaseHandle["share"]) => {
    const folder = await newFolder("site-share-");
    const shared = await share!(path.join(folder, ".s.PGSQL.5432"));
    const client = commandClient(folder);
    await client.connect();
    return { folder, shared, client };
  };

  it("runs a long query without holding the event loop", async () => {
    const { db } = await open();
    let took = 0;
    const stall = await longestEventLoopStall(async () => {
      const started = performance.now();
      await queryRows(db, sql`select count(*) from generate_series(1, 3000000) as i where i % 7 = 0`);
      took = performance.now() - started;
    });
    // The query itself ran far longer than the event loop was ever held.
    expect(took).toBeGreaterThan(EVENT_LOOP_BUDGET_MS);
    expect(stall).toBeLessThan(EVENT_LOOP_BUDGET_MS / 5);
  });

  it("keeps a transaction whole while other queries wait their turn, and rolls one back", async () => {
    const { db } = await open();
    await db.execute(sql`create table notes (id int primary key, text text not null)`);
    const inside = db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes values (1, 'kept')`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.execute(sql`insert into notes values (2, 'kept')`);
    });
    // Asked while the transaction is open: it runs after it, and sees both rows.
    const counted = queryRows<{ n: number }>(db, sql`select count(*)::int as n from notes`);
    await inside;
    expect((await counted)[0]!.n).toBe(2);
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into notes values (3, 'gone')`);
        await tx.execute(sql`insert into notes values (1, 'a duplicate')`);
      }),
    ).rejects.toThrow();
    expect(await queryRows(db, sql`select id from notes order by id`)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it("lets a query wait its turn behind a transaction that holds the database for seconds, and answers it", async () => {
    // A transaction may wait on the renderer's worker while it holds the one connection (a publish
    // checks the body's links there); the requests behind it must wait, not fail, as they waited
    // for PGlite's lock in the process. A 5 s wait once failed a publish on a loaded run.
    const { db } = await open();
    let release!: () => void;
    const held = db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    const waiting = queryRows<{ n: number }>(db, sql`select 2 as n`);
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    release();
    await held;
    expect(await waiting).toEqual([{ n: 2 }]);
  }, 20_000);

  it("keeps the site's statements and a command's apart when both ask at once", async () => {
    // One PGlite session serves both connections, message by message: a command's statement
    // parsed between the site's parse and bind would be run in its place (and the other way).
    const { db, share } = await open();
    const { client } = await shareWithCommand(share);
    const site = Array.from({ length: 300 }, async (_, index) => {
      const [row] = await queryRows<{ n: number; who: string }>(db, sql`select ${index}::int as n, 'site' as who`);
      return row!.who === "site" && row!.n === index;
    });
    const command = Array.from({ length: 300 }, async (_, index) => {
      const { rows } = await client.query("select $1::text as s, 'command' as who", [`c${index}`]);
      return rows[0]?.who === "command" && rows[0]?.s === `c${index}`;
    });
    const answers = await Promise.allSettled([...site, ...command]);
    expect(answers.filter((answer) => answer.status !== "fulfilled" || answer.value !== true)).toEqual([]);
  });

  it("answers a command's query that waited for the site's transaction, once it ends", async () => {
    const { db, share } = await open();
    const { client } = await shareWithCommand(share);
    expect((await client.query("select 1 as n")).rows).toEqual([{ n: 1 }]);
    let release!: () => void;
    const held = db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const waiting = client.query("select 2 as n");
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await held;
    // Nothing else is asked after the transaction: the command's query must be answered anyway.
    const answer = await Promise.race([
      waiting.then((result) => result.rows),
      new Promise((resolve) => setTimeout(() => resolve("no answer in 3 s"), 3000)),
    ]);
    expect(answer).toEqual([{ n: 2 }]);
  });

  it("writes its files: a folder closed and opened again holds what was written", async () => {
    const folder = await newFolder("site-thread-");
    const first = await open(folder);
    await applyMigrations(first.db);
    await first.db.execute(sql`create table kept (word text)`);
    await first.db.execute(sql`insert into kept values ('Sabarmati')`);
    await first.close();
    const again = await open(folder);
    expect(await queryRows(again.db, sql`select word from kept`)).toEqual([{ word: "Sabarmati" }]);
    // Bytes come back as pg gives them, as from a PostgreSQL server.
    const [row] = await queryRows<{ bytes: Buffer }>(again.db, sql`select '\\x00ff10'::bytea as bytes`);
    expect(Buffer.isBuffer(row!.bytes)).toBe(true);
    expect([...row!.bytes]).toEqual([0, 255, 16]);
  });

  it("shares the database with the commands at a second address, and stops sharing it", async () => {
    const { db, share } = await open();
    await db.execute(sql`create table shared (n int)`);
    await db.execute(sql`insert into shared values (42)`);
    const { folder, shared, client } = await shareWithCommand(share);
    expect((await client.query("select n from shared")).rows).toEqual([{ n: 42 }]);
    await shared.stop();
    await expect(commandClient(folder).connect()).rejects.toThrow();
  });

  it("refuses a database folder it cannot open, saying so, and leaves no thread behind", async () => {
    const folder = await newFolder("site-bad-");
    await expect(
      openDatabase({ dataDir: folder, thread: "worker", template: new Blob([Buffer.from("not an archive")]) }),
    ).rejects.toThrow(/the embedded database did not open/);
  });
});
