import { desc, gte } from "drizzle-orm";
import { parseConfig } from "../src/server/config.ts";
import { unsubscribeFromNewsletter } from "../src/server/db/newsletter-repository.ts";
import { newsletterSubscribers } from "../src/server/db/schema.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { parseExportArgs, toCsv, toTable } from "../src/server/export/export-format.ts";

// `npm run subscribers -- [--since 30d] [--format table|csv|json]`: newsletter subscribers, newest first.
// `npm run subscribers -- --remove <email>`: honours an unsubscribe request.

async function main() {
  const args = parseExportArgs(process.argv.slice(2), { allowSpam: false, allowRemove: true });
  const config = parseConfig(process.env);
  const database = await openCommandDatabase(config, "npm run subscribers");
  try {
    if (args.remove !== undefined) {
      const removed = await unsubscribeFromNewsletter(database.db, args.remove);
      console.log(removed ? `Removed ${args.remove} from the newsletter.` : `${args.remove} is not subscribed; nothing to remove.`);
      return;
    }
    const rows = await database.db
      .select()
      .from(newsletterSubscribers)
      .where(args.since ? gte(newsletterSubscribers.createdAt, args.since) : undefined)
      .orderBy(desc(newsletterSubscribers.createdAt));
    if (args.format === "json") {
      process.stdout.write(`${JSON.stringify(rows.map((row) => ({ email: row.email, subscribedAt: row.createdAt.toISOString() })), null, 2)}\n`);
      return;
    }
    const table = rows.map((row) => [row.email, row.createdAt.toISOString()]);
    process.stdout.write(args.format === "csv" ? toCsv(["Email", "Subscribed at"], table) : toTable(["Email", "Subscribed at"], table));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
