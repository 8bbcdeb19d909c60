import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

// The embedded database holds every enquiry, and the content the pages are made of: only the
// site's own user may read or change it. DATA_DIR is made 700 and everything in it 600 (folders
// 700). The embedded PostgreSQL creates its files readable and writable by everyone (666,
// whatever the umask), so the folder is tightened again after it has created them, and from time
// to time while the site runs; the folder's own 700 already keeps other users out meanwhile.

const PRIVATE_FOLDER = 0o700;
const PRIVATE_FILE = 0o600;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

/** Gives `entry` the mode `mode` unless it has it; a file deleted meanwhile is no concern. */
async function restrict(entry: string, isFolder: boolean, currentMode: number): Promise<void> {
  const mode = isFolder ? PRIVATE_FOLDER : PRIVATE_FILE;
  if ((currentMode & 0o777) === mode) return;
  try {
    await chmod(entry, mode);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** Makes every folder under `folder` (itself included) 700 and every other entry 600; symbolic links are left alone. */
export async function tightenDataDir(folder: string): Promise<void> {
  let info;
  try {
    info = await lstat(folder);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  if (info.isSymbolicLink()) return;
  await restrict(folder, info.isDirectory(), info.mode);
  if (!info.isDirectory()) return;
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for (const name of names) await tightenDataDir(path.join(folder, name));
}

/** Creates DATA_DIR (mode 700) when it does not exist, and tightens what it holds when it does. */
export async function secureDataDir(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER });
  await tightenDataDir(folder);
}
