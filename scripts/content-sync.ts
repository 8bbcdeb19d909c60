import path from "node:path";
import { parseConfig } from "../src/server/config.ts";
import { contentLoadedAt } from "../src/server/content/data-version.ts";
import { readSiteContent } from "../src/server/content/load-content.ts";
import { syncSiteContent } from "../src/server/content/sync-content.ts";
import { type CommandDatabase, openCommandDatabase } from "../src/server/db/command-database.ts";
import { applyMigrations } from "../src/server/db/migrate.ts";
import { printable } from "../src/server/export/export-format.ts";

// `npm run content:sync`: loads content/ into the database the site uses (the same step runs on
// every start). On an embedded database a running site holds, the site itself does the loading:
// this asks it to (SIGHUP) and waits, through its socket, until it has. A sync run through the
// socket instead would share the site's one database session, and a rollback of its transaction
// could undo what the site wrote meanwhile (docs/decisions/005-…).

const CONFIRM_WITHIN_MS = 60_000;

async function askRunningSiteToLoadContent(database: CommandDatabase, pid: number): Promise<void> {
  const before = await contentLoadedAt(database.db);
  process.kill(pid, "SIGHUP");
  const deadline = Date.now() + CONFIRM_WITHIN_MS;
  // Every sync ends by marking when it ran (the content version moves only when something
  // changed), so a new mark confirms it.
  while ((await contentLoadedAt(database.db)) === before) {
    if (Date.now() > deadline)
      throw new Error(`The running site (pid ${pid}) did not confirm loading the content within 60 s: see its log.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main() {
  const config = parseConfig(process.env);
  const content = await readSiteContent(path.resolve(config.contentDir));
  for (const problem of content.problems)
    console.error(printable(`content/${problem.file}: ${problem.field} ${problem.message}`));
  const counts = `${content.teamMembers.length} team members, ${content.projects.length} projects and ${content.articles.filter((article) => !article.draft).length} articles`;
  const database = await openCommandDatabase(config, "npm run content:sync");
  try {
    if (database.runningSite) {
      await askRunningSiteToLoadContent(database, database.runningSite.pid);
      console.log(`The running site (pid ${database.runningSite.pid}) loaded its content folder: ${counts}.`);
    } else {
      await applyMigrations(database.db);
      const summary = await syncSiteContent(database.db, content);
      console.log(`Synced ${counts}; ${summary.changed} row(s) changed, of which ${summary.removed} removed.`);
    }
    process.exitCode = content.problems.length ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(printable(error instanceof Error ? error.message : String(error)));
  process.exit(1);
});
