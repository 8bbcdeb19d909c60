import path from "node:path";
import { parseConfig } from "../src/server/config.ts";
import { readSiteContent } from "../src/server/content/load-content.ts";
import { syncSiteContent } from "../src/server/content/sync-content.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { applyMigrations } from "../src/server/db/migrate.ts";

// `npm run content:sync`: loads content/ into the database the site uses (the same step runs on
// every start). The embedded database can be opened by one process at a time: stop the site first.

const config = parseConfig(process.env);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await applyMigrations(database.db);
  const content = await readSiteContent(path.resolve(config.contentDir));
  for (const problem of content.problems) console.error(`content/${problem.file}: ${problem.field} ${problem.message}`);
  const summary = await syncSiteContent(database.db, content);
  console.log(
    `Synced ${summary.teamMembers} team members, ${summary.projects} projects and ${summary.articles} articles; ` +
      `${summary.changed} row(s) changed, of which ${summary.removed} removed.`,
  );
  process.exitCode = content.problems.length ? 1 : 0;
} finally {
  await database.close();
}
