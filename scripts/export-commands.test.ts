import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../src/server/config.ts";
import { storeEnquiry } from "../src/server/db/contact-repository.ts";
import { subscribeToNewsletter } from "../src/server/db/newsletter-repository.ts";
import { type Site, startSite } from "../src/server/site.ts";
import { createTestDatabase, type TestDatabase } from "../test/databases.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");

async function command(script: "enquiries" | "subscribers", args: string[], env: Record<string, string>) {
  const { stdout } = await run(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
  });
  return stdout;
}

async function seed(site: Site) {
  const mail = { configured: false, acknowledge: false };
  const base = { lastName: "Patel", email: "asha@example.com", service: "grid-integration" as const, message: "Study, please." };
  await storeEnquiry(site.database.db, { data: { ...base, firstName: "Old", company: null }, idempotencyKey: crypto.randomUUID(), spamReason: null, mail });
  await site.database.db.execute(sql`update contact_submissions set created_at = now() - interval '10 days'`);
  await storeEnquiry(site.database.db, { data: { ...base, firstName: "New", company: "=cmd|' /C calc'!A0" }, idempotencyKey: crypto.randomUUID(), spamReason: null, mail });
  await storeEnquiry(site.database.db, { data: { ...base, firstName: "Bot", company: null }, idempotencyKey: crypto.randomUUID(), spamReason: "honeypot", mail });
  await subscribeToNewsletter(site.database.db, "reader@example.com");
  // The mail of the newest one was rejected by the SMTP server.
  await site.database.db.execute(
    sql`update mail_outbox set status = 'failed', last_error = 'rejected by the SMTP server: 550' where submission_id = (select id from contact_submissions where first_name = 'New')`,
  );
}

async function expectExports(env: Record<string, string>) {
  const all = JSON.parse(await command("enquiries", ["--format", "json"], env)) as { firstName: string; mail: unknown }[];
  expect(all.map((row) => row.firstName)).toEqual(["New", "Old"]);
  expect(all.map((row) => row.mail)).toEqual([
    [{ kind: "notification", status: "failed", attempts: 0, lastError: "rejected by the SMTP server: 550" }],
    [{ kind: "notification", status: "unconfigured", attempts: 0, lastError: null }],
  ]);
  const recent = JSON.parse(await command("enquiries", ["--since", "7d", "--format", "json"], env)) as { firstName: string }[];
  expect(recent.map((row) => row.firstName)).toEqual(["New"]);
  const withSpam = JSON.parse(await command("enquiries", ["--format", "json", "--spam"], env)) as { firstName: string; spamReason: string | null }[];
  expect(withSpam.map((row) => [row.firstName, row.spamReason])).toEqual([["Bot", "honeypot"], ["New", null], ["Old", null]]);
  const csv = await command("enquiries", ["--format", "csv"], env);
  expect(csv.split("\r\n")[0]).toBe("Reference,Received,Name,Email,Company,Service,Message,Mail");
  expect(csv.split("\r\n")[1]).toMatch(/,notification failed$/);
  expect(csv).toContain(`'=cmd|' /C calc'!A0`);
  expect(csv).not.toMatch(/,=cmd/);
  const table = await command("enquiries", [], env);
  expect(table).toMatch(/^Reference\s+Received\s+Name.*\s+Mail$/m);
  expect(table).toMatch(/New Patel.*notification failed/);
  expect(table).toContain("New Patel");
  expect(JSON.parse(await command("subscribers", ["--format", "json"], env))).toEqual([
    { email: "reader@example.com", subscribedAt: expect.any(String) },
  ]);
}

describe("npm run enquiries and npm run subscribers", () => {
  let site: Site | undefined;
  let dataDir: string | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await site?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    site = database = dataDir = undefined;
  });

  it("read the embedded database while the site is running, and after it stopped", { timeout: 60_000 }, async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "site-export-"));
    const config = parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir });
    site = await startSite({ config, syncContent: false });
    await seed(site);
    await expectExports({ DATA_DIR: dataDir });
    await site.close();
    site = undefined;
    await expectExports({ DATA_DIR: dataDir });
  });

  it.runIf(process.env.TEST_DATABASE_URL)("read PostgreSQL through DATABASE_URL", { timeout: 60_000 }, async () => {
    database = await createTestDatabase("postgres");
    const config = parseConfig({ NODE_ENV: "test", DATABASE_URL: database.url });
    site = await startSite({ config, database, syncContent: false });
    await seed(site);
    await expectExports({ DATABASE_URL: database.url! });
  });
});
