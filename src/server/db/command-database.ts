import { existsSync } from "node:fs";
import path from "node:path";
import type { Config } from "../config.ts";
import { type DatabaseHandle, openDatabase } from "./client.ts";
import { DataDirLockedError, type LockOwner, lockDataDir, SITE_HOLDER } from "./data-dir-lock.ts";
import { sharedSocketUrl } from "./shared-socket.ts";

// How a command (npm run enquiries, subscribers, content:sync) reaches the site's database. See
// docs/decisions/005-exports-read-the-embedded-database-through-a-socket.md.

export type CommandDatabase = DatabaseHandle & {
  /** Set when the database is the running site's embedded one, reached through its socket. */
  runningSite?: LockOwner;
};

/**
 * PostgreSQL when DATABASE_URL is set. Otherwise the embedded database: through the running
 * site's socket when a live site holds it; opened from the files, under the folder's lock, when no
 * process does. Throws a one-line message when another command holds the files, or when the
 * site holds them but its socket does not answer: the files are never opened beside a live owner.
 */
export async function openCommandDatabase(config: Config, command: string): Promise<CommandDatabase> {
  if (config.databaseUrl) return openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const dataDir = path.resolve(config.dataDir);
  let lock;
  try {
    lock = await lockDataDir(dataDir, command);
  } catch (error) {
    if (error instanceof DataDirLockedError && error.owner.holder === SITE_HOLDER)
      return openThroughSocket(dataDir, error.owner);
    throw error;
  }
  try {
    if (!existsSync(path.join(dataDir, "pglite"))) {
      throw new Error(`No embedded database in ${dataDir} yet: start the site once, or set DATABASE_URL.`);
    }
    const handle = await openDatabase({ dataDir });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function openThroughSocket(dataDir: string, site: LockOwner): Promise<CommandDatabase> {
  const handle = await openDatabase({ databaseUrl: sharedSocketUrl(dataDir), dataDir });
  try {
    await handle.db.execute("select 1");
    return { ...handle, runningSite: site };
  } catch (error) {
    await handle.close();
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(
      `The site (pid ${site.pid}) has the embedded database in ${dataDir} open, but its socket did not answer (${reason}): try again, or stop the site first.`,
      { cause: error },
    );
  }
}
