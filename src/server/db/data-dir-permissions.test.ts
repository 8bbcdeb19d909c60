import { chmod, lstat, mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config.ts";
import { type Site, startSite } from "../site.ts";
import { onPglite } from "../../../test/drivers.ts";

// The embedded database on a real folder: only the site's own user may read or change it.

/** Every entry under `folder` (itself included) whose mode lets group or others in, with that mode. */
async function openEntries(folder: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (entry: string) => {
    const info = await lstat(entry);
    if (info.isSymbolicLink()) return;
    const expected = info.isDirectory() ? 0o700 : 0o600;
    if ((info.mode & 0o777) !== expected)
      found.push(`${path.relative(folder, entry) || "."} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of await readdir(entry)) await visit(path.join(entry, name));
  };
  await visit(folder);
  return found;
}

describe.runIf(onPglite)("DATA_DIR of the embedded database", () => {
  let site: Site | undefined;
  let scratch: string | undefined;
  afterEach(async () => {
    await site?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
    site = scratch = undefined;
  });

  const start = (dataDir: string) =>
    startSite({
      config: parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" }),
      syncContent: false,
    });

  it("is created 700, with the database's files 600 and its folders 700 (the database makes them 666)", async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "data-dir-"));
    const dataDir = path.join(scratch, "new", "data");
    site = await start(dataDir);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    // The database, its lock and the export commands' socket are all in there.
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining(["pglite", "database.lock", "socket"]));
    expect(await openEntries(dataDir)).toEqual([]);
  });

  it("is tightened at start when it exists with looser modes", async () => {
    scratch = await mkdtemp(path.join(tmpdir(), "data-dir-"));
    const dataDir = path.join(scratch, "data");
    // A folder as the previous version left it: world-readable and writable.
    site = await start(dataDir);
    await site.close();
    site = undefined;
    await mkdir(path.join(dataDir, "old-backup"));
    await writeFile(path.join(dataDir, "old-backup", "notes.txt"), "kept by hand");
    const loosen = async (entry: string) => {
      const info = await lstat(entry);
      await chmod(entry, info.isDirectory() ? 0o777 : 0o666);
      if (info.isDirectory()) for (const name of await readdir(entry)) await loosen(path.join(entry, name));
    };
    await loosen(dataDir);
    expect((await openEntries(dataDir)).length).toBeGreaterThan(100);
    site = await start(dataDir);
    expect(await openEntries(dataDir)).toEqual([]);
  });
});
