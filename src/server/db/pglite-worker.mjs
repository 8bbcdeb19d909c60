// The embedded database's own thread (src/server/db/pglite-thread.ts starts it). PGlite is
// PostgreSQL compiled to WebAssembly: a query runs to its end on the thread that asks it, so on the
// server's own thread a report over many rows held every other request for as long. Here it runs
// beside the event loop, and answers over a Unix socket in PostgreSQL's own protocol: the site
// reaches it through `pg`, as it reaches a PostgreSQL server. Plain JavaScript that imports only
// packages and socket-sessions.mjs (copied beside it by the build), so the source and the compiled
// server start the same file.
// docs/decisions/050-the-embedded-database-in-a-thread-of-its-own.md.
import { Blob } from "node:buffer";
import { constants } from "node:fs";
import { chmod, cp, rm, symlink } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { keepProtocolCyclesTogether } from "./socket-sessions.mjs";

/** @type {{ location: string, template?: ArrayBuffer, socketPath: string }} */
const { location, template, socketPath } = workerData;

/** How the database's files are copied for a backup: a copy-on-write clone where the file system makes one (Btrfs, XFS). */
const COPY_OPTIONS = { recursive: true, errorOnExist: true, force: false, mode: constants.COPYFILE_FICLONE };

/** Starts a socket server over the database at `path`, open to this user alone. */
async function serve(db, path, maxConnections) {
  // A socket file left by a process that crashed would block the bind.
  await rm(path, { force: true });
  const server = new PGLiteSocketServer({ db: keepProtocolCyclesTogether(db), path, maxConnections });
  await server.start();
  await chmod(path, 0o600);
  return server;
}

try {
  // pg_trgm: the inbox search's trigram index (drizzle/0005_enquiry_inbox.sql creates the extension).
  const db = await PGlite.create(location, {
    extensions: { pg_trgm },
    ...(template ? { loadDataDir: new Blob([template]) } : {}),
  });
  // One server for the site's connection and the commands' (decision 005), whose address is a link
  // to this socket: one queue orders every connection's statements. The pool keeps the site to one
  // connection (a second only while a lost one is replaced); the commands may have four.
  const own = await serve(db, socketPath, 6);
  parentPort.on("message", async (message) => {
    try {
      if (message.type === "share") {
        // The commands' address is a link to the one socket.
        await rm(message.path, { force: true });
        await symlink(socketPath, message.path);
      } else if (message.type === "unshare") {
        await rm(message.path, { force: true });
      } else if (message.type === "copy") {
        // The database's files copied to another folder as they are between two statements (no
        // statement runs while PGlite's query lock is held): a backup opens and reads that copy
        // instead of holding the site's one session (src/server/backup/make-backup.ts). What the
        // copy lacks of the last transactions' pages its write-ahead log holds, as after a crash.
        await db._runExclusiveQuery(() => cp(location, message.to, COPY_OPTIONS));
      } else if (message.type === "snapshot") {
        // The same of a database in memory, as a tar (PGlite's own dumpDataDir, under the same lock).
        const data = await (await db.dumpDataDir("none")).arrayBuffer();
        parentPort.postMessage({ type: "done", id: message.id, data }, [data]);
        return;
      } else if (message.type === "close") {
        await own.stop();
        await rm(socketPath, { force: true });
        await db.close();
      }
      parentPort.postMessage({ type: "done", id: message.id });
    } catch (error) {
      parentPort.postMessage({ type: "failed", id: message.id, message: String(error?.message ?? error) });
    }
  });
  parentPort.postMessage({ type: "ready" });
} catch (error) {
  parentPort.postMessage({ type: "failed", message: String(error?.message ?? error) });
}
