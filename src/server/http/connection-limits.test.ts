import { connect, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { parseConfig } from "../config.ts";
import { type DatabaseHandle, openDatabase } from "../db/client.ts";
import { applyMigrations } from "../db/migrate.ts";
import { contactSubmissions } from "../db/schema.ts";
import { onPglite } from "../../../test/drivers.ts";

// Slow and greedy clients, over real sockets: the time limits and the connection cap are the
// server's, not Fastify's inject(). The timeouts are set short here (they are settings), and Node
// is told to look for late requests often, so the test waits less than a second for each cut.

type Connection = { socket: Socket; received: () => string; closed: Promise<void> };

function open(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1" });
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", () => {});
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.once("connect", () => resolve({ socket, received: () => data, closed }));
    socket.once("error", reject);
  });
}

/** Resolves when the connection closes; rejects if it is still open after `ms` (the limit is not in force). */
function closedWithin(connection: Connection, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms);
  });
  return Promise.race([connection.closed, deadline]).finally(() => clearTimeout(timer));
}

async function get(connection: Connection, path: string): Promise<string> {
  const before = connection.received().length;
  connection.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await expect
    .poll(() => connection.received().slice(before), { timeout: 5000 })
    .toMatch(/^HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n/);
  return connection.received().slice(before);
}

describe.runIf(onPglite)("slow and greedy clients, on a real socket", () => {
  let app: FastifyInstance | undefined;
  let database: DatabaseHandle;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    await applyMigrations(database.db);
  });
  afterAll(async () => {
    await database.close();
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await app?.close();
    app = undefined;
  });

  async function start(env: Record<string, string>): Promise<number> {
    const config = parseConfig({ NODE_ENV: "test", FORM_SECRET: "connection-limits-test-secret", ...env });
    app = await buildApp({ config, db: database.db });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    return typeof address === "object" && address ? address.port : 0;
  }

  async function connection(port: number): Promise<Connection> {
    const opened = await open(port);
    sockets.push(opened.socket);
    return opened;
  }

  it("cuts off a body sent one byte at a time once the request timeout has passed, answering 408, storing nothing", async () => {
    const port = await start({
      REQUEST_TIMEOUT_MS: "400",
      CONNECTION_CHECK_INTERVAL_MS: "50",
      CONNECTION_TIMEOUT_MS: "60000",
    });
    const slow = await connection(port);
    slow.socket.write(
      "POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{",
    );
    // A byte every 20 ms: the connection is never idle, so only the request timeout can end it.
    const drip = setInterval(() => slow.socket.writable && slow.socket.write(" "), 20);
    try {
      await closedWithin(slow, 5000, "a body trickling in");
    } finally {
      clearInterval(drip);
    }
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(await database.db.$count(contactSubmissions)).toBe(0);
  });

  it("cuts off headers sent one byte at a time too", async () => {
    const port = await start({ REQUEST_TIMEOUT_MS: "400", CONNECTION_CHECK_INTERVAL_MS: "50" });
    const slow = await connection(port);
    const header = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
    slow.socket.write(header);
    const drip = setInterval(() => slow.socket.writable && slow.socket.write("a"), 20);
    try {
      await closedWithin(slow, 5000, "headers trickling in");
    } finally {
      clearInterval(drip);
    }
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("closes a connection on which nothing moves for the connection timeout", async () => {
    const port = await start({ CONNECTION_TIMEOUT_MS: "300" });
    const idle = await connection(port);
    await closedWithin(idle, 5000, "an idle connection");
    expect(idle.received()).toBe("");
  });

  it("refuses a client's connections beyond the cap, while those it has keep working, and takes new ones when one closes", async () => {
    const port = await start({ MAX_CONNECTIONS_PER_CLIENT: "3" });
    const held = [await connection(port), await connection(port), await connection(port)];
    const extra = await connection(port);
    await closedWithin(extra, 5000, "a fourth connection from one client");
    expect(extra.received()).toBe("");
    for (const kept of held) expect(await get(kept, "/healthz")).toMatch(/^HTTP\/1\.1 200 /);
    held[0]!.socket.destroy();
    await held[0]!.closed;
    // The server counts the closed one as gone once it has seen it close.
    await expect
      .poll(
        async () => {
          const next = await connection(port);
          const answer = await Promise.race([get(next, "/healthz"), next.closed.then(() => "closed")]);
          if (answer === "closed") return answer;
          next.socket.destroy();
          return answer.slice(0, 15);
        },
        { timeout: 5000 },
      )
      .toBe("HTTP/1.1 200 OK");
  });

  it("does not cap a trusted proxy's address: every visitor comes through it", async () => {
    const port = await start({ MAX_CONNECTIONS_PER_CLIENT: "2", TRUST_PROXY: "127.0.0.1" });
    const through = [];
    for (let i = 0; i < 5; i += 1) through.push(await connection(port));
    for (const kept of through) expect(await get(kept, "/healthz")).toMatch(/^HTTP\/1\.1 200 /);
  });
});
