import { existsSync, readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { projectRoot } from "../project-root.ts";

// A new embedded database starts from a copy of an empty one made at build time, instead of
// running PostgreSQL's initdb on the first start: that took most of a first start's time (about
// 6 s of CPU here, against about 1 s to unpack the copy). The copy is made by the PGlite the
// project has installed and named after its version, so a PGlite upgrade without a new build
// finds no copy of its own and runs initdb as before.
// docs/decisions/034-a-new-embedded-database-starts-from-a-template.md has the why.

function installedPgliteVersion(): string {
  const manifest = path.join(projectRoot, "node_modules", "@electric-sql", "pglite", "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

/** Where the build puts the empty database for the installed PGlite. */
export function databaseTemplatePath(): string {
  return path.join(projectRoot, "dist", `pglite-${installedPgliteVersion()}-empty-database.tar.gz`);
}

/** Makes the empty database (the build's last step). Written under another name, then renamed into place. */
export async function makeDatabaseTemplate(target = databaseTemplatePath()): Promise<number> {
  const pglite = await PGlite.create("memory://");
  try {
    const archive = Buffer.from(await (await pglite.dumpDataDir("gzip")).arrayBuffer());
    await writeFile(`${target}.partial`, archive);
    await rename(`${target}.partial`, target);
    return archive.length;
  } finally {
    await pglite.close();
  }
}

/** The empty database to start a new one from, or undefined when the build has made none. */
export function readDatabaseTemplate(): Blob | undefined {
  let file: string;
  try {
    file = databaseTemplatePath();
  } catch {
    return undefined;
  }
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}
