import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../src/server/config.ts";
import { storeEnquiry } from "../src/server/db/contact-repository.ts";
import { type DataDirLock, DataDirLockedError, lockDataDir, SITE_HOLDER } from "../src/server/db/data-dir-lock.ts";
import { subscribeToNewsletter } from "../src/server/db/newsletter-repository.ts";
import { type Site, startSite } from "../src/server/site.ts";
import { createTestDatabase, onPostgres, type TestDatabase } from "../test/databases.ts";
import { type ServerProcess, startServerProcess } from "../test/server-process.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");

type Script = "enquiries" | "subscribers" | "content-sync" | "backup";

async function command(script: Script, args: string[], env: Record<string, string>) {
  const { stdout } = await run(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
  });
  return stdout;
}

/** A command expected to fail: its exit code and what it printed on stderr. */
async function failingCommand(script: Script, args: string[], env: Record<string, string>) {
  return command(script, args, env).then(
    (stdout) => ({ code: 0, stderr: "", stdout }),
    (error: { code: number; stderr: string; stdout: string }) => error,
  );
}

async function seed(site: Site) {
  const mail = { configured: false, acknowledge: false };
  const base = {
    lastName: "Patel",
    email: "asha@example.com",
    service: "grid-integration" as const,
    message: "Study, please.",
  };
  await storeEnquiry(site.database.db, {
    data: { ...base, firstName: "Old", company: null },
    idempotencyKey: crypto.randomUUID(),
    spamReason: null,
    mail,
  });
  await site.database.db.execute(sql`update contact_submissions set created_at = now() - interval '10 days'`);
  await storeEnquiry(site.database.db, {
    data: { ...base, firstName: "New", company: "=cmd|' /C calc'!A0" },
    idempotencyKey: crypto.randomUUID(),
    spamReason: null,
    mail,
  });
  await storeEnquiry(site.database.db, {
    data: { ...base, firstName: "Bot", company: null },
    idempotencyKey: crypto.randomUUID(),
    spamReason: "honeypot",
    mail,
  });
  await subscribeToNewsletter(site.database.db, "reader@example.com");
  // The mail of the newest one was rejected by the SMTP server.
  await site.database.db.execute(
    sql`update mail_outbox set status = 'failed', last_error = 'rejected by the SMTP server: 550' where submission_id = (select id from contact_submissions where first_name = 'New')`,
  );
}

async function expectExports(env: Record<string, string>) {
  const all = JSON.parse(await command("enquiries", ["--format", "json"], env)) as {
    firstName: string;
    mail: unknown;
  }[];
  expect(all.map((row) => row.firstName)).toEqual(["New", "Old"]);
  expect(all.map((row) => row.mail)).toEqual([
    [{ kind: "notification", status: "failed", attempts: 0, lastError: "rejected by the SMTP server: 550" }],
    [{ kind: "notification", status: "unconfigured", attempts: 0, lastError: null }],
  ]);
  const recent = JSON.parse(await command("enquiries", ["--since", "7d", "--format", "json"], env)) as {
    firstName: string;
  }[];
  expect(recent.map((row) => row.firstName)).toEqual(["New"]);
  const withSpam = JSON.parse(await command("enquiries", ["--format", "json", "--spam"], env)) as {
    firstName: string;
    spamReason: string | null;
  }[];
  expect(withSpam.map((row) => [row.firstName, row.spamReason])).toEqual([
    ["Bot", "honeypot"],
    ["New", null],
    ["Old", null],
  ]);
  const csv = await command("enquiries", ["--format", "csv"], env);
  expect(csv.split("\r\n")[0]).toBe('"Reference","Received","Name","Email","Company","Service","Message","Mail"');
  expect(csv.split("\r\n")[1]).toMatch(/,"notification failed"$/);
  expect(csv).toContain(`"'=cmd|' /C calc'!A0`);
  expect(csv).not.toMatch(/[,;"]=cmd/);
  const table = await command("enquiries", [], env);
  expect(table).toMatch(/^Reference\s+Received\s+Name.*\s+Mail$/m);
  expect(table).toMatch(/New Patel.*notification failed/);
  expect(table).toContain("New Patel");
  const subscribers = await command("subscribers", [], env);
  expect(subscribers).toMatch(/^Email\s+State\s+Changed\s+Subscribed at$/m);
  expect(subscribers).toMatch(/^reader@example\.com\s+pending\s+20\d\d-/m);
  expect((await command("subscribers", ["--format", "csv"], env)).split("\r\n")[0]).toBe(
    '"Email","State","Changed","Subscribed at"',
  );
  expect(JSON.parse(await command("subscribers", ["--format", "json"], env))).toEqual([
    {
      email: "reader@example.com",
      subscribedAt: expect.any(String),
      state: "pending",
      stateChangedAt: expect.any(String),
      confirmedAt: null,
      consentPage: null,
    },
  ]);
}

/**
 * The seeded rows, read with one command of each kind: for a second way into the same database,
 * where every format and filter of expectExports would repeat what the first way showed.
 */
async function expectSeededRows(env: Record<string, string>) {
  const withSpam = JSON.parse(await command("enquiries", ["--format", "json", "--spam"], env)) as {
    firstName: string;
    spamReason: string | null;
    mail: { status: string }[];
  }[];
  expect(withSpam.map((row) => [row.firstName, row.spamReason, row.mail.map((mail) => mail.status)])).toEqual([
    ["Bot", "honeypot", []],
    ["New", null, ["failed"]],
    ["Old", null, ["unconfigured"]],
  ]);
  expect(JSON.parse(await command("subscribers", ["--format", "json"], env))).toEqual([
    {
      email: "reader@example.com",
      subscribedAt: expect.any(String),
      state: "pending",
      stateChangedAt: expect.any(String),
      confirmedAt: null,
      consentPage: null,
    },
  ]);
}

async function expectUnsubscribe(env: Record<string, string>) {
  expect(await command("subscribers", ["--remove", "Reader@Example.com"], env)).toBe(
    "Removed reader@example.com from the newsletter.\n",
  );
  expect(JSON.parse(await command("subscribers", ["--format", "json"], env))).toEqual([]);
  expect(await command("subscribers", ["--remove", "reader@example.com"], env)).toBe(
    "reader@example.com is not subscribed; nothing to remove.\n",
  );
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

  it("read the embedded database while the site is running, and after it stopped", { timeout: 120_000 }, async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "site-export-"));
    const config = parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir });
    site = await startSite({ config, syncContent: false });
    await seed(site);
    await expectExports({ DATA_DIR: dataDir });
    await site.close();
    site = undefined;
    await expectSeededRows({ DATA_DIR: dataDir });
  });

  it("remove a subscriber who asked to unsubscribe, while the site runs", { timeout: 120_000 }, async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "site-export-"));
    site = await startSite({ config: parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir }), syncContent: false });
    await seed(site);
    await expectUnsubscribe({ DATA_DIR: dataDir });
  });

  it(
    "print no control character from stored text, in any format, so a message cannot drive the terminal",
    { timeout: 120_000 },
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "site-export-"));
      site = await startSite({ config: parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir }), syncContent: false });
      // Stored by an earlier version, which let them in: retitle the terminal, erase the line, a C1
      // CSI (some terminals obey it like ESC [), DEL, a lone CR, a right-to-left override.
      const hostile = "Study\u001b]0;pwned\u0007 please\u001b[2K\u009b2J\u007f\rover\u202eeman";
      await site.database.db.execute(
        sql`insert into contact_submissions (first_name, last_name, email, company, message, is_spam, spam_reason)
          values (${"Asha\u001b[31m"}, 'Patel', 'asha@example.com', ${"Co\u0085"}, ${hostile}, true, ${"honeypot\u001b]0;x\u0007"})`,
      );
      await site.database.db.execute(
        sql`insert into newsletter_subscribers (email) values (${"reader\u001b]0;x\u0007@example.com"})`,
      );
      const env = { DATA_DIR: dataDir };
      const outputs = [
        await command("enquiries", ["--spam"], env),
        await command("enquiries", ["--spam", "--format", "csv"], env),
        await command("enquiries", ["--spam", "--format", "json"], env),
        await command("subscribers", [], env),
        await command("subscribers", ["--format", "csv"], env),
        await command("subscribers", ["--format", "json"], env),
      ];
      for (const output of outputs) {
        // Nothing but tab, line feed, and the CR of CSV's CR LF line ends.
        expect(output.replace(/\r\n/g, "\n")).not.toMatch(
          // eslint-disable-next-line no-control-regex -- control characters are what it looks for
          /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/,
        );
        // JSON writes ESC as the six characters \u001b: escaped, but a reader may unescape it.
        expect(output).not.toMatch(/\\u00(1b|07|9b|7f)/i);
      }
      const [json] = JSON.parse(outputs[2]!) as { firstName: string; message: string; spamReason: string }[];
      expect(json).toMatchObject({
        firstName: "Asha[31m",
        message: "Study]0;pwned please[2K2J\novereman",
        spamReason: "honeypot]0;x",
      });
      expect(outputs[0]).toContain("Study]0;pwned please[2K2J over");
    },
  );

  it.runIf(onPostgres)("read PostgreSQL through DATABASE_URL", { timeout: 120_000 }, async () => {
    database = await createTestDatabase("postgres");
    const config = parseConfig({ NODE_ENV: "test", DATABASE_URL: database.url });
    site = await startSite({ config, database, syncContent: false });
    await seed(site);
    await expectExports({ DATABASE_URL: database.url! });
    await expectUnsubscribe({ DATABASE_URL: database.url! });
  });
});

describe("one owner of the embedded database's files at a time", () => {
  let dataDir: string | undefined;
  let contentDir: string | undefined;
  let server: ServerProcess | undefined;
  let site: Site | undefined;
  let lock: DataDirLock | undefined;
  afterEach(async () => {
    await lock?.release();
    await site?.close();
    if (server && server.child.exitCode === null) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    for (const dir of [dataDir, contentDir]) if (dir) await rm(dir, { recursive: true, force: true });
    dataDir = contentDir = server = site = lock = undefined;
  });

  it(
    "content:sync asks the running site to import its content folder, and the site shows it",
    { timeout: 120_000 },
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "site-lock-"));
      contentDir = await mkdtemp(path.join(tmpdir(), "site-content-"));
      await cp(path.join(root, "content"), contentDir, { recursive: true });
      const env = { DATA_DIR: dataDir, CONTENT_DIR: contentDir };
      server = await startServerProcess({ ...env, LOG_LEVEL: "warn" });
      await server.ready();
      expect(JSON.parse(await readFile(path.join(dataDir, "database.lock"), "utf8"))).toEqual({
        pid: server.child.pid,
        holder: SITE_HOLDER,
      });

      const teamFile = path.join(contentDir, "team", "anil-patel.yaml");
      await writeFile(
        teamFile,
        (await readFile(teamFile, "utf8")).replace(/^title: .*$/m, "title: Chief Relay Whisperer"),
      );
      const output = await command("content-sync", [], env);
      expect(output).toMatch(
        new RegExp(
          `^The running site \\(pid ${server.child.pid}\\) imported .+:\nupdated team/anil-patel\\.yaml «Anil Patel»: published\n\\d+ unchanged\\.\n$`,
        ),
      );
      // The site's page and API caches follow the new content version within a poll (5 s).
      await expect
        .poll(async () => (await fetch(`${server!.baseUrl}/api/team-members`)).text(), { timeout: 15_000 })
        .toContain("Chief Relay Whisperer");
      // Asked again with nothing changed, it confirms as well (it once waited 60 s and failed).
      expect(await command("content-sync", [], env)).toMatch(/imported .+:\n\d+ unchanged\.\n$/);
      // The site kept the files to itself all along.
      expect(server.child.exitCode).toBeNull();
      expect(JSON.parse(await readFile(path.join(dataDir, "database.lock"), "utf8")).pid).toBe(server.child.pid);
    },
  );

  it(
    "npm run backup asks the running site to make the backup, and the site keeps its files and answers",
    { timeout: 180_000 },
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "site-lock-"));
      const env = { DATA_DIR: dataDir };
      server = await startServerProcess({ ...env, LOG_LEVEL: "warn", BACKUP_DIR: path.join(dataDir, "backups") });
      await server.ready();
      const out = path.join(dataDir, "by-hand");
      const output = await command("backup", ["--out", out], env);
      expect(output).toMatch(
        new RegExp(
          `^The running site \\(pid ${server.child.pid}\\) made the backup; its restore drill runs there now\\.$`,
          "m",
        ),
      );
      const archive = output.trim().split("\n").at(-1)!;
      expect(path.dirname(archive)).toBe(out);
      expect(existsSync(archive)).toBe(true);
      // The copy it read is gone; the site still holds its files and answers.
      expect((await readdir(out)).filter((name) => name.startsWith("."))).toEqual([]);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      expect(JSON.parse(await readFile(path.join(dataDir, "database.lock"), "utf8")).pid).toBe(server.child.pid);
    },
  );

  it(
    "a command holding the files keeps the site from starting, and other commands out",
    { timeout: 120_000 },
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "site-lock-"));
      // A stopped site left its database behind.
      await (
        await startSite({ config: parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir }), syncContent: false })
      ).close();
      expect(existsSync(path.join(dataDir, "database.lock"))).toBe(false);

      lock = await lockDataDir(dataDir, "npm run content:sync");
      const held = `The embedded database in ${dataDir} is in use by npm run content:sync (pid ${process.pid}): wait for it to finish, or stop it.`;
      server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
      expect(
        await server.ready().then(
          () => "started",
          () => "refused",
        ),
      ).toBe("refused");
      expect(await server.exited).toBe(1);
      // Its last word, after the line saying what start-up does, is one line naming the holder.
      expect(server.output().trim().split("\n").at(-1)).toBe(`The server could not start: ${held}`);
      const refused = await failingCommand("enquiries", [], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`${held}\n`);

      await lock.release();
      expect(await command("subscribers", ["--format", "json"], { DATA_DIR: dataDir })).toBe("[]\n");
    },
  );

  it(
    "a command refuses, without opening the files, when a live site holds them but its socket does not answer",
    { timeout: 120_000 },
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "site-lock-"));
      // This test process stands in for a site that is still starting, or answers no more connections.
      await writeFile(path.join(dataDir, "database.lock"), JSON.stringify({ pid: process.pid, holder: SITE_HOLDER }));
      for (const script of ["enquiries", "subscribers", "content-sync"] as const) {
        const refused = await failingCommand(script, [], { DATA_DIR: dataDir });
        expect(refused.code, script).toBe(1);
        expect(refused.stderr, script).toMatch(
          new RegExp(
            `^The site \\(pid ${process.pid}\\) has the embedded database in .+ open, but its socket did not answer \\(.+\\): try again, or stop the site first\\.\n$`,
          ),
        );
      }
      expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
    },
  );

  it(
    "a lock left by a process that is gone is taken over, and removed when the site stops",
    { timeout: 120_000 },
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "site-lock-"));
      const gone = spawn(process.execPath, ["-e", ""]);
      await new Promise((resolve) => gone.once("exit", resolve));
      await writeFile(path.join(dataDir, "database.lock"), JSON.stringify({ pid: gone.pid, holder: SITE_HOLDER }));
      site = await startSite({ config: parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir }), syncContent: false });
      expect(JSON.parse(await readFile(path.join(dataDir, "database.lock"), "utf8"))).toEqual({
        pid: process.pid,
        holder: SITE_HOLDER,
      });
      await expect(lockDataDir(dataDir, "npm run enquiries")).rejects.toThrow(DataDirLockedError);
      await site.close();
      site = undefined;
      expect(existsSync(path.join(dataDir, "database.lock"))).toBe(false);
    },
  );
});
