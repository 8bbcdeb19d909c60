import { existsSync } from "node:fs";
import path from "node:path";
import type { Config } from "../config.ts";
import { type DatabaseHandle, openDatabase } from "../db/client.ts";
import { sharedSocketDir, sharedSocketUrl } from "../db/shared-socket.ts";

/**
 * The database for an export command: PostgreSQL when DATABASE_URL is set; otherwise the running
 * site's embedded database through its socket; otherwise (site stopped) the embedded database
 * opened directly.
 */
export async function openExportDatabase(config: Config): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  if (existsSync(path.join(sharedSocketDir(config.dataDir), ".s.PGSQL.5432"))) {
    const handle = await openDatabase({ databaseUrl: sharedSocketUrl(config.dataDir), dataDir: config.dataDir });
    try {
      await handle.db.execute("select 1");
      return handle;
    } catch {
      // A socket left behind by a site that stopped without cleaning up: open the files instead.
      await handle.close();
    }
  }
  if (!existsSync(path.resolve(config.dataDir, "pglite"))) {
    throw new Error(`No embedded database in ${path.resolve(config.dataDir)} yet: start the site once, or set DATABASE_URL.`);
  }
  return openDatabase({ dataDir: config.dataDir });
}
