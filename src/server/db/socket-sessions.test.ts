import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { serialize } from "pg-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepProtocolCyclesTogether } from "./socket-sessions.mjs";

// Two connections to the embedded database's socket whose parameterised queries arrive in pieces,
// one connection's Parse before the other's whole cycle: each must bind its own statement
// (socket-sessions.mjs). Raw protocol messages, sent one at a time, stand for `pg` on a busy machine.

/** A connection that sends messages as told and collects what the server answers. */
async function connect(socketPath: string) {
  const socket = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let received = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  /** The messages received so far, by type, and the error messages' texts. */
  const messages = () => {
    const found: { type: string; text: string }[] = [];
    for (let offset = 0; offset + 5 <= received.length;) {
      const length = received.readUInt32BE(offset + 1);
      const body = received.subarray(offset + 5, offset + 1 + length);
      found.push({ type: String.fromCharCode(received[offset]!), text: body.toString("latin1") });
      offset += 1 + length;
    }
    return found;
  };
  const readyCount = () => messages().filter((message) => message.type === "Z").length;
  const untilReady = async (count: number) => {
    const deadline = Date.now() + 10_000;
    while (readyCount() < count) {
      if (Date.now() > deadline) throw new Error(`no ReadyForQuery ${count}: ${JSON.stringify(messages())}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const send = async (bytes: Buffer) => {
    socket.write(bytes);
    // Each message on its own: let the server take it before the next is written.
    await new Promise((resolve) => setTimeout(resolve, 30));
  };
  await send(serialize.startup({ user: "postgres", database: "postgres" }));
  await untilReady(1);
  return { socket, send, messages, untilReady };
}

describe("the embedded database's socket, with two connections", () => {
  let db: PGlite;
  let server: PGLiteSocketServer;
  let dir: string;
  let socketPath: string;

  beforeAll(async () => {
    db = await PGlite.create();
    dir = await mkdtemp(path.join(tmpdir(), "socket-sessions-"));
    socketPath = path.join(dir, ".s.PGSQL.5432");
    server = new PGLiteSocketServer({ db: keepProtocolCyclesTogether(db), path: socketPath, maxConnections: 4 });
    await server.start();
  });
  afterAll(async () => {
    await server?.stop();
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("runs each connection's cycle of Parse, Bind, Execute and Sync whole, though the messages arrive apart", async () => {
    const a = await connect(socketPath);
    const b = await connect(socketPath);
    // A: a statement of one parameter, its Parse alone first.
    await a.send(serialize.parse({ text: "select $1::int + 1 as a", types: [] }));
    // B: a whole cycle of a statement of two parameters, in between.
    const bDone = (async () => {
      await b.send(serialize.parse({ text: "select $1::int * $2::int as b", types: [] }));
      await b.send(serialize.bind({ values: ["6", "7"] }));
      await b.send(serialize.execute({}));
      await b.send(serialize.sync());
      await b.untilReady(2);
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A's cycle goes on.
    await a.send(serialize.bind({ values: ["41"] }));
    await a.send(serialize.execute({}));
    await a.send(serialize.sync());
    await a.untilReady(2);
    await bDone;
    const errors = [...a.messages(), ...b.messages()].filter((message) => message.type === "E");
    expect(errors.map((message) => message.text)).toEqual([]);
    // Each got its own answer: a DataRow of "42", and one of "42" too (6 × 7), one each.
    expect(a.messages().filter((message) => message.type === "D")).toHaveLength(1);
    expect(a.messages().find((message) => message.type === "D")!.text).toContain("42");
    expect(b.messages().find((message) => message.type === "D")!.text).toContain("42");
    a.socket.destroy();
    b.socket.destroy();
  });
});
