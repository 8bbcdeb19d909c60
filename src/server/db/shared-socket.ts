import { chmod, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { keepProtocolCyclesTogether } from "./socket-sessions.mjs";

// The embedded database can be opened by one process only. While the site runs, it shares its
// PGlite over a Unix socket in DATA_DIR, so that the commands (npm run enquiries, subscribers,
// content:sync) can reach it through `pg` at the same time (db/command-database.ts). See
// docs/decisions/005-exports-read-the-embedded-database-through-a-socket.md.

export function sharedSocketDir(dataDir: string): string {
  return path.resolve(dataDir, "socket");
}

/** A postgres:// URL that reaches the running site's embedded database over its socket. */
export function sharedSocketUrl(dataDir: string): string {
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(sharedSocketDir(dataDir))}`;
}

/** Serves `pglite` (run on this thread) at the Unix socket `socketPath`, open to this user alone. */
export async function shareDatabaseOnSocket(
  pglite: PGlite,
  socketPath: string,
): Promise<{ stop: () => Promise<void> }> {
  // A socket file left by a process that crashed would block the bind.
  await rm(socketPath, { force: true });
  const server = new PGLiteSocketServer({
    db: keepProtocolCyclesTogether(pglite),
    path: socketPath,
    maxConnections: 4,
  });
  await server.start();
  // Whoever may connect reads and changes every enquiry: the site's own user alone.
  await chmod(socketPath, 0o600);
  return {
    stop: async () => {
      await server.stop();
      await rm(socketPath, { force: true });
    },
  };
}

/** Shares the site's embedded database with the commands, on its socket in DATA_DIR. */
export async function shareSiteDatabase(
  share: (socketPath: string) => Promise<{ stop: () => Promise<void> }>,
  dataDir: string,
): Promise<{ stop: () => Promise<void> }> {
  const dir = sharedSocketDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  return share(path.join(dir, ".s.PGSQL.5432"));
}
