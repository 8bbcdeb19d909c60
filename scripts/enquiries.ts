import { and, desc, eq, gte, inArray } from "drizzle-orm";
import { serviceLabel } from "../src/shared/site.ts";
import { parseConfig } from "../src/server/config.ts";
import { enquiryReference } from "../src/server/db/contact-repository.ts";
import { contactSubmissions, mailOutbox } from "../src/server/db/schema.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { spamNotStored } from "../src/server/enquiries/spam.ts";
import { parseExportArgs, printable, toCsv, toJson, toTable } from "../src/server/export/export-format.ts";
import { formatIndiaTime } from "../src/server/mail/enquiry-email.ts";

// `npm run enquiries -- [--since 7d] [--format table|csv|json] [--spam]`: enquiries, newest first.
// Works while the site runs, on the embedded database as well as on PostgreSQL. The Mail column
// says what became of each enquiry's mail: pending, sent, failed (see lastError in JSON) or
// unconfigured; spam has none.

type MailRow = {
  submissionId: string | null;
  kind: string;
  status: string;
  attempts: number;
  lastError: string | null;
};

/** "notification sent", or "notification sent, acknowledgement failed"; "none" for spam. */
function mailSummary(mail: MailRow[]): string {
  return mail.length ? mail.map((row) => `${row.kind} ${row.status}`).join(", ") : "none";
}

async function main() {
  const args = parseExportArgs(process.argv.slice(2), { allowSpam: true });
  const config = parseConfig(process.env);
  const database = await openCommandDatabase(config, "npm run enquiries");
  try {
    const conditions = [
      args.spam ? undefined : eq(contactSubmissions.isSpam, false),
      args.since ? gte(contactSubmissions.createdAt, args.since) : undefined,
    ];
    const rows = await database.db
      .select()
      .from(contactSubmissions)
      .where(and(...conditions))
      .orderBy(desc(contactSubmissions.createdAt));
    const mailRows: MailRow[] = rows.length
      ? await database.db
          .select({
            submissionId: mailOutbox.submissionId,
            kind: mailOutbox.kind,
            status: mailOutbox.status,
            attempts: mailOutbox.attempts,
            lastError: mailOutbox.lastError,
          })
          .from(mailOutbox)
          .where(
            inArray(
              mailOutbox.submissionId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(desc(mailOutbox.kind))
      : [];
    // Spam over the hourly cap is counted, not stored: say how much, beside the spam that was.
    const reportSpamNotStored = async () => {
      if (!args.spam) return;
      const dropped = await spamNotStored(database.db);
      if (dropped > 0)
        process.stderr.write(
          `${dropped} more spam post${dropped === 1 ? " was" : "s were"} counted but not stored (over the hourly cap) in the last 30 days\n`,
        );
    };
    const mailOf = (id: string) => mailRows.filter((mail) => mail.submissionId === id);
    if (args.format === "json") {
      const records = rows.map((row) => ({
        reference: enquiryReference(row.id),
        id: row.id,
        createdAt: row.createdAt.toISOString(),
        firstName: row.firstName,
        lastName: row.lastName,
        email: row.email,
        company: row.company,
        service: row.service,
        message: row.message,
        mail: mailOf(row.id).map(({ submissionId: _id, ...mail }) => mail),
        ...(args.spam ? { spam: row.isSpam, spamReason: row.spamReason } : {}),
      }));
      process.stdout.write(toJson(records));
      await reportSpamNotStored();
      return;
    }
    const columns = [
      "Reference",
      "Received",
      "Name",
      "Email",
      "Company",
      "Service",
      "Message",
      "Mail",
      ...(args.spam ? ["Spam"] : []),
    ];
    const table = rows.map((row) => [
      enquiryReference(row.id),
      args.format === "csv" ? row.createdAt.toISOString() : formatIndiaTime(row.createdAt.toISOString()),
      `${row.firstName} ${row.lastName}`,
      row.email,
      row.company,
      serviceLabel(row.service) ?? row.service,
      row.message,
      mailSummary(mailOf(row.id)),
      ...(args.spam ? [row.isSpam ? (row.spamReason ?? "yes") : ""] : []),
    ]);
    process.stdout.write(args.format === "csv" ? toCsv(columns, table) : toTable(columns, table));
    if (args.format === "table") process.stderr.write(`${rows.length} enquir${rows.length === 1 ? "y" : "ies"}\n`);
    await reportSpamNotStored();
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(printable(error instanceof Error ? error.message : String(error)));
  process.exit(1);
});
