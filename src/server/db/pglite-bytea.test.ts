import { randomBytes } from "node:crypto";
import { GCProfiler } from "node:v8";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPglite } from "../../../test/drivers.ts";
import { type DatabaseHandle, openDatabase } from "./client.ts";

// The embedded database's bytea (the media library's files): written and read through Buffer's
// own hex coding. PGlite's coding made a string per byte each way: a 12-megapixel photo's files
// (3 MB) left about 170 MB of garbage in the process on every upload, on top of the picture's own
// memory (docs/decisions/047-a-memory-budget-for-making-pictures.md). The garbage is what the
// garbage collector freed meanwhile, read from V8's own record (GCProfiler), not timed.

describe.runIf(onPglite)("bytea on the embedded database", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ dataDir: "memory://" });
    await handle.pglite!.exec("create table files (id int primary key, bytes bytea not null)");
  });
  afterAll(async () => {
    await handle.close();
  });

  const write = (id: number, bytes: Uint8Array) =>
    handle.pglite!.query("insert into files (id, bytes) values ($1, $2)", [id, bytes]);
  const read = async (id: number) =>
    (await handle.pglite!.query<{ bytes: Uint8Array }>("select bytes from files where id = $1", [id])).rows[0]!.bytes;

  it("keeps every byte: all 256 values, nothing at all, and a Buffer that is a slice of a larger one", async () => {
    const every = Buffer.from(Array.from({ length: 256 }, (_, value) => value));
    const slice = Buffer.concat([Buffer.from("before"), every, Buffer.from("after")]).subarray(6, 6 + 256);
    const cases = [every, Buffer.alloc(0), slice, new Uint8Array([0, 255, 16])];
    for (const [id, bytes] of cases.entries()) await write(id + 1, bytes);
    for (const [id, bytes] of cases.entries())
      expect(Buffer.from(await read(id + 1)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("writes and reads 2 MB of a picture's bytes leaving little garbage (PGlite's own coding left 150 times the bytes)", async () => {
    const bytes = randomBytes(2 * 1024 * 1024);
    const profiler = new GCProfiler();
    profiler.start();
    await write(100, bytes);
    const back = await read(100);
    const { statistics } = profiler.stop();
    expect(Buffer.from(back).equals(bytes)).toBe(true);
    const freed = statistics.reduce(
      (sum, gc) => sum + Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize),
      0,
    );
    expect(freed).toBeLessThan(4 * bytes.length);
  });
});
