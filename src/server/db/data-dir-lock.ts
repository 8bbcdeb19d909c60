import { readFileSync } from "node:fs";
import { link, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { secureDataDir } from "./data-dir-permissions.ts";

// The embedded database's files may be opened by one process at a time; a second one would
// corrupt them. Whoever opens them (the site, or a command while no site runs) first creates
// DATA_DIR/database.lock holding its process id and name, and removes it when it closes them. A
// lock whose process is gone (a crash) is stale and taken over. See
// docs/decisions/005-exports-read-the-embedded-database-through-a-socket.md.

/** The holder name the running site writes; commands reach a database it holds through its socket. */
export const SITE_HOLDER = "the site";

export type LockOwner = { pid: number; holder: string };

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by ${owner.holder} (pid ${owner.pid}): wait for it to finish, or stop it.`,
    );
  }
}

export type DataDirLock = { release: () => Promise<void> };

/** Folders this process holds, so that a lock naming our own pid can be told from a stale one. */
const heldHere = new Set<string>();

function lockPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), "database.lock");
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The process holding the folder's database, or undefined when none does (no lock, or a stale one). */
export function liveLockOwner(dataDir: string): LockOwner | undefined {
  let owner: LockOwner;
  try {
    owner = JSON.parse(readFileSync(lockPath(dataDir), "utf8")) as LockOwner;
  } catch {
    // No lock, or one cut short while being written: nobody holds the files.
    return undefined;
  }
  const dir = path.resolve(dataDir);
  // A restarted container gives the new process the pid its predecessor had (often 1): a lock with
  // our own pid that this process did not take is left from before.
  if (owner.pid === process.pid) return heldHere.has(dir) ? owner : undefined;
  return Number.isInteger(owner.pid) && isRunning(owner.pid) ? owner : undefined;
}

/**
 * Takes the folder's lock for `holder` ("the site", "npm run enquiries"…), replacing a stale one;
 * throws a DataDirLockedError naming the live holder when there is one.
 */
export async function lockDataDir(dataDir: string, holder: string): Promise<DataDirLock> {
  const dir = path.resolve(dataDir);
  const file = lockPath(dir);
  // Made private (700, its files 600) before anything is written to it.
  await secureDataDir(dir);
  for (let attempt = 0; ; attempt += 1) {
    const owner = liveLockOwner(dir);
    if (owner) throw new DataDirLockedError(dir, owner);
    // Past the first round, the lock in the way has no live process: it is stale.
    if (attempt > 0) await rm(file, { force: true });
    // Written whole beside it, then linked into place: link() fails when the lock exists, so of
    // two processes starting at once one wins, and no one ever reads a half-written lock.
    const draft = `${file}.${process.pid}`;
    await writeFile(draft, JSON.stringify({ pid: process.pid, holder } satisfies LockOwner), { mode: 0o600 });
    try {
      await link(draft, file);
      break;
    } catch (error) {
      // Taken meanwhile: the next round names its holder, or finds it stale and replaces it.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 2) throw error;
    } finally {
      await rm(draft, { force: true });
    }
  }
  heldHere.add(dir);
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      heldHere.delete(dir);
      await rm(file, { force: true });
    },
  };
}
