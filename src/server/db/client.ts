import { constants, existsSync } from "node:fs";
import { cp } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { readDatabaseTemplate } from "./database-template.ts";
import { secureDataDir, tightenDataDir } from "./data-dir-permissions.ts";
import { startPgliteThread } from "./pglite-thread.ts";
import { shareDatabaseOnSocket } from "./shared-socket.ts";
import * as schema from "./schema.ts";

/** One type for both drivers: every query in the project is written against this. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction on the database: what `db.transaction(async (tx) => …)` hands its work. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The database or a transaction on it: what a query takes that may run in its caller's transaction. */
export type Tx = Database | Transaction;

/** Rows of a raw SQL query; both drivers answer with `{ rows }`. */
export async function queryRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

export type DatabaseHandle = {
  db: Database;
  /** "pglite" for the embedded database, "postgres" for a server reached through `pg`. */
  driver: "pglite" | "postgres";
  /** The embedded database itself, when that is the driver and it runs on this thread. */
  pglite?: PGlite;
  /**
   * The embedded database served on a Unix socket at `socketPath` too, for the commands while the
   * site runs (shared-socket.ts); absent for PostgreSQL.
   */
  share?: (socketPath: string) => Promise<{ stop: () => Promise<void> }>;
  /**
   * A copy of the embedded database as it is now, opened in the folder `dir` in a thread of its
   * own: a backup reads the copy rather than holding the site's one session (backup/make-backup.ts).
   * The site's database is held only while its files are copied. Absent for PostgreSQL.
   */
  openCopy?: (dir: string) => Promise<DatabaseHandle>;
  close: () => Promise<void>;
};

export type DatabaseOptions = {
  /** A postgres:// URL. When unset the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; "memory://" keeps it in memory (tests). */
  dataDir: string;
  /**
   * The archive a new embedded database starts from, instead of the build's empty one: the tests
   * start each database from one migrated once per run (test/database-templates.ts).
   */
  template?: Blob;
  /**
   * Where the embedded database runs: "worker", a thread of its own reached through `pg` (the
   * site: a query never holds the event loop, decision 050), or "process", this thread (the
   * commands, the build and most tests: nothing else waits on them, and a thread costs a start).
   */
  thread?: "worker" | "process";
};

/**
 * bytea (type 17) to and from PGlite's text protocol through Buffer's native hex coding. PGlite's
 * own serialiser spreads the bytes into an array of one string per byte, and its parser makes a
 * substring per byte: a 12-megapixel photo's 3 MB of files made about 170 MB of garbage on the
 * embedded database's process (and seconds of CPU) on every upload, and again on every picture read.
 */
export const PGLITE_BYTEA = {
  serializers: {
    17: (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new Error("Invalid input for bytea type");
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`;
    },
  },
  parsers: { 17: (text: string) => Buffer.from(text.slice(2), "hex") },
};

/** How the embedded database's files are copied for a backup (openCopy): a copy-on-write clone where the file system makes one. */
const COPY_OPTIONS = { recursive: true, errorOnExist: true, force: false, mode: constants.COPYFILE_FICLONE };

/**
 * Opens, in a thread of its own, a copy of an embedded database in the folder `dir`, made by `copy`:
 * its files copied into `<dir>/pglite` (a database in a folder), or a tar of them (one in memory).
 */
async function openCopyIn(
  dir: string,
  copy: ((to: string) => Promise<void>) | (() => Promise<Blob>),
): Promise<DatabaseHandle> {
  const tar = await copy(path.resolve(dir, "pglite"));
  return openDatabase({ dataDir: dir, thread: "worker", ...(tar ? { template: tar } : {}) });
}

/** How long PostgreSQL may run one statement before it cancels it itself. */
export const STATEMENT_TIMEOUT_MS = 15_000;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // A server that accepts connections but never answers (or a connection that dies silently)
    // must fail a request, which answers 503, instead of holding it forever.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      // The client's own limit, a little longer, for a server too far gone to cancel.
      query_timeout: STATEMENT_TIMEOUT_MS + 5000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // A client that loses its server must not crash the process. The pool hears an idle one (and
    // replaces it); a client checked out for a transaction has no listener of the pool's, so each
    // gets one of its own: the statement in flight, or the next, fails instead.
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = drizzlePg({ client: pool, schema }) as unknown as Database;
    return { db, driver: "postgres", close: () => pool.end() };
  }
  let location = options.dataDir;
  const onDisk = !location.startsWith("memory://");
  if (onDisk) {
    await secureDataDir(path.resolve(options.dataDir));
    location = path.resolve(location, "pglite");
    await secureDataDir(location);
  }
  // A database made now (in memory, or in a folder without one yet) starts from the build's empty one.
  const isNew = !onDisk || !existsSync(path.join(location, "PG_VERSION"));
  const template = isNew ? (options.template ?? readDatabaseTemplate()) : undefined;
  if (options.thread === "worker") {
    const thread = await startPgliteThread(location, template);
    if (onDisk) await tightenDataDir(path.resolve(options.dataDir));
    const db = drizzlePg({ client: thread.pool, schema }) as unknown as Database;
    const openCopy = (dir: string) => openCopyIn(dir, onDisk ? thread.copyFiles : thread.snapshot);
    return { db, driver: "pglite", share: thread.share, openCopy, close: thread.close };
  }
  // pg_trgm: the inbox search's trigram index (drizzle/0005_enquiry_inbox.sql creates the extension).
  const client = await PGlite.create(location, {
    extensions: { pg_trgm },
    ...PGLITE_BYTEA,
    ...(template ? { loadDataDir: template } : {}),
  });
  // PGlite writes its files open to everyone: closed again at once (and as the site runs).
  if (onDisk) await tightenDataDir(path.resolve(options.dataDir));
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    driver: "pglite",
    pglite: client,
    share: (socketPath) => shareDatabaseOnSocket(client, socketPath),
    openCopy: (dir: string) =>
      openCopyIn(
        dir,
        onDisk
          ? (to: string) => client._runExclusiveQuery(() => cp(location, to, COPY_OPTIONS))
          : () => client.dumpDataDir("none"),
      ),
    close: () => client.close(),
  };
}
