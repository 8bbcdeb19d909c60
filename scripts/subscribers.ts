import { desc, gte } from "drizzle-orm";
import { parseConfig } from "../src/server/config.ts";
import { unsubscribeFromNewsletter } from "../src/server/db/newsletter-repository.ts";
import { newsletterSubscribers } from "../src/server/db/schema.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { parseExportArgs, printable, toCsv, toJson, toTable } from "../src/server/export/export-format.ts";

// `npm run subscribers -- [--since 30d] [--format table|csv|json]`: newsletter subscribers, newest
// first, each with its state (pending, confirmed, unsubscribed, bouncing) and when that changed;
// JSON adds the proof of consent (when and from which page). Only confirmed addresses get the
// newsletter (docs/back-office.md, "Subscribers").
// `npm run subscribers -- --remove <email>`: honours an unsubscribe request.

async function main() {
  const args = parseExportArgs(process.argv.slice(2), { allowSpam: false, allowRemove: true });
  const config = parseConfig(process.env);
  const database = await openCommandDatabase(config, "npm run subscribers");
  try {
    if (args.remove !== undefined) {
      const removed = await unsubscribeFromNewsletter(database.db, args.remove);
      const address = printable(args.remove);
      console.log(
        removed ? `Removed ${address} from the newsletter.` : `${address} is not subscribed; nothing to remove.`,
      );
      return;
    }
    const rows = await database.db
      .select()
      .from(newsletterSubscribers)
      .where(args.since ? gte(newsletterSubscribers.createdAt, args.since) : undefined)
      .orderBy(desc(newsletterSubscribers.createdAt));
    if (args.format === "json") {
      process.stdout.write(
        toJson(
          rows.map((row) => ({
            email: row.email,
            subscribedAt: row.createdAt.toISOString(),
            state: row.status,
            stateChangedAt: row.statusChangedAt.toISOString(),
            confirmedAt: row.confirmedAt?.toISOString() ?? null,
            consentPage: row.consentPage,
          })),
        ),
      );
      return;
    }
    const columns = ["Email", "State", "Changed", "Subscribed at"];
    const table = rows.map((row) => [
      row.email,
      row.status,
      row.statusChangedAt.toISOString(),
      row.createdAt.toISOString(),
    ]);
    process.stdout.write(args.format === "csv" ? toCsv(columns, table) : toTable(columns, table));
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(printable(error instanceof Error ? error.message : String(error)));
  process.exit(1);
});
