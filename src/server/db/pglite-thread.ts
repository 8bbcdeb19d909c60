import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";

// The embedded database in a thread of its own (pglite-worker.mjs), reached through `pg` over a
// Unix socket: a query's work no longer holds the server's event loop, whatever it reads.
// docs/decisions/050-the-embedded-database-in-a-thread-of-its-own.md.

const here = fileURLToPath(import.meta.url);
/** Compiled, this module is part of dist/server-node/main.js, beside which the build puts the worker's file. */
const workerFile = path.join(path.dirname(here), "pglite-worker.mjs");

export type PgliteThread = {
  /** A pool of one connection (PGlite is one session), for drizzle's node-postgres driver. */
  pool: pg.Pool;
  /** The database's files as of now, as a tar a new PGlite opens (a database in memory). */
  snapshot: () => Promise<Blob>;
  /** The database's files as of now, copied into the folder `to` (a database in a folder). */
  copyFiles: (to: string) => Promise<void>;
  /** Makes `socketPath` a link to the database's socket, for the commands (shared-socket.ts). */
  share: (socketPath: string) => Promise<{ stop: () => Promise<void> }>;
  /** Ends the pool, then closes the database (its files written) and the thread. */
  close: () => Promise<void>;
};

/** The longest a query waits for the embedded database's one connection before it fails. */
export const PGLITE_QUEUE_WAIT_MS = 60_000;

type Reply = { type: "ready" | "done" | "failed"; id?: number; message?: string; data?: ArrayBuffer };

/** Starts PGlite on `location` (a folder, or "memory://") in a worker thread, from `template` when it is new. */
export async function startPgliteThread(location: string, template?: Blob): Promise<PgliteThread> {
  // The socket lives in a folder of this process's own, open to this user alone (mkdtemp: 0700).
  const socketDir = await mkdtemp(path.join(tmpdir(), "site-db-"));
  const socketPath = path.join(socketDir, ".s.PGSQL.5432");
  const templateBytes = template ? await template.arrayBuffer() : undefined;
  const worker = new Worker(pathToFileURL(workerFile), {
    workerData: { location, socketPath, template: templateBytes },
    ...(templateBytes ? { transferList: [templateBytes] } : {}),
  });
  let exited = false;
  const waiting = new Map<number, { resolve: (data?: ArrayBuffer) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on("error", (error) => failAll(error));
  worker.on("exit", (code) => {
    exited = true;
    failAll(new Error(`the embedded database's thread ended (exit code ${code})`));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the embedded database's thread ended (exit code ${code})`));
      worker.once("exit", onExit);
      worker.once("error", reject);
      worker.once("message", (reply: Reply) => {
        worker.off("exit", onExit);
        worker.off("error", reject);
        if (reply.type === "ready") resolve();
        else reject(new Error(`the embedded database did not open: ${reply.message}`));
      });
    });
  } catch (error) {
    await worker.terminate();
    await rm(socketDir, { recursive: true, force: true });
    throw error;
  }
  worker.on("message", (reply: Reply) => {
    const pending = reply.id === undefined ? undefined : waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id!);
    if (reply.type === "done") pending.resolve(reply.data);
    else pending.reject(new Error(reply.message ?? "the embedded database's thread failed"));
  });
  let nextId = 0;
  const ask = (message: Record<string, unknown>) =>
    new Promise<ArrayBuffer | undefined>((resolve, reject) => {
      if (exited) return reject(new Error("the embedded database's thread has ended"));
      const id = (nextId += 1);
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });

  const pool = new pg.Pool({
    host: socketDir,
    user: "postgres",
    database: "postgres",
    // PGlite is one session: one connection, which every query and transaction takes in turn, as
    // they take PGlite itself in turn when it runs in the process.
    max: 1,
    idleTimeoutMillis: 0,
    // Waiting for the one connection is the normal state of a busy embedded site (a transaction
    // may wait on the renderer's worker, up to its 10 s limit, while others queue), not a sign of
    // a server in trouble as it is with PostgreSQL's pool of ten: a request waits as long as it
    // did for PGlite's own lock in the process, bounded at PGLITE_QUEUE_WAIT_MS. Once 5 s, which a
    // loaded run of the browser tests passed (a publish answered 500).
    connectionTimeoutMillis: PGLITE_QUEUE_WAIT_MS,
  });
  // A connection lost (the thread gone) fails the statement in flight, never the process.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));

  let closing: Promise<void> | undefined;
  return {
    pool,
    snapshot: async () => new Blob([(await ask({ type: "snapshot" }))!]),
    copyFiles: async (to) => {
      await ask({ type: "copy", to });
    },
    share: async (sharedPath) => {
      await ask({ type: "share", path: sharedPath });
      return {
        stop: async () => {
          await ask({ type: "unshare", path: sharedPath });
        },
      };
    },
    close: () =>
      (closing ??= (async () => {
        await pool.end();
        try {
          if (!exited) await ask({ type: "close" });
        } finally {
          await worker.terminate();
          await rm(socketDir, { recursive: true, force: true });
        }
      })()),
  };
}
