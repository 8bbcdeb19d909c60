import path from "node:path";
import { parseConfig } from "../src/server/config.ts";
import { type CommandDatabase, openCommandDatabase } from "../src/server/db/command-database.ts";
import { contactSubmissions, newsletterSubscribers } from "../src/server/db/schema.ts";

// What the browser tests' server has stored, read over the running site's database socket, as the
// site's own commands read it (see scripts/e2e-server.ts for where that database lives). A query
// in this process, not `npm run enquiries`: the commands themselves are tested in
// scripts/export-commands.test.ts, and starting one per check costs a second or more.

const root = path.resolve(import.meta.dirname, "..");
export const e2eDataDir = path.join(root, "test-results", "e2e-data");

/** Runs `read` against the browser tests' running site's database, through its socket. */
export async function readSiteDatabase<T>(read: (db: CommandDatabase["db"]) => Promise<T>): Promise<T> {
  const database = await openCommandDatabase(parseConfig({ DATA_DIR: e2eDataDir }), "browser tests");
  try {
    return await read(database.db);
  } finally {
    await database.close();
  }
}

export type StoredEnquiry = {
  firstName: string;
  lastName: string;
  email: string;
  message: string;
  spam: boolean;
  spamReason: string | null;
};

/** Every stored enquiry, spam included. */
export async function storedEnquiries(): Promise<StoredEnquiry[]> {
  return readSiteDatabase((db) =>
    db
      .select({
        firstName: contactSubmissions.firstName,
        lastName: contactSubmissions.lastName,
        email: contactSubmissions.email,
        message: contactSubmissions.message,
        spam: contactSubmissions.isSpam,
        spamReason: contactSubmissions.spamReason,
      })
      .from(contactSubmissions),
  );
}

export async function storedSubscribers(): Promise<{ email: string }[]> {
  return readSiteDatabase((db) => db.select({ email: newsletterSubscribers.email }).from(newsletterSubscribers));
}

/** An address no other test uses, to find this test's rows. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}
