import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eraseAddress } from "../src/server/admin/privacy/erasure.ts";
import { writeLedgerFile } from "../src/server/backup/erasure-ledger.ts";
import { makeBackup } from "../src/server/backup/make-backup.ts";
import { parseConfig } from "../src/server/config.ts";
import { queryRows } from "../src/server/db/client.ts";
import { storeEnquiry } from "../src/server/db/contact-repository.ts";
import { subscribeToNewsletter } from "../src/server/db/newsletter-repository.ts";
import { type Site, startSite } from "../src/server/site.ts";
import { createTestDatabase, onPglite, type TestDatabase } from "../test/databases.ts";
import { apiPaths } from "../src/shared/paths.ts";
import { pageRoutesForTests } from "../test/page-paths.ts";
import { testAdminRenderer, testRenderer } from "../test/build-test-app.ts";

// `npm run backup` and `npm run restore` as an operator runs them (docs/operations.md, "Backups"):
// a backup of a running embedded site while it answers requests, restored into a fresh embedded
// database and into a fresh PostgreSQL database, each then serving the same pages and pictures,
// with the enquiries and subscribers of the moment of the backup; and what restore refuses.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");

type Outcome = { code: number; stdout: string; stderr: string };

async function command(
  script: "backup" | "restore" | "enquiries" | "subscribers",
  args: string[],
  env: Record<string, string>,
): Promise<Outcome> {
  return run(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

const mail = { configured: false, acknowledge: false };
async function enquiryFrom(site: Site, firstName: string, email: string) {
  await storeEnquiry(site.database.db, {
    data: { firstName, lastName: "Shah", email, company: "Grid Co", service: "grid-integration", message: "A study." },
    idempotencyKey: crypto.randomUUID(),
    spamReason: null,
    mail,
  });
}

/** What a page answers, less what differs on every render (the form's signed token and idempotency key). */
function differences(got: Record<string, string>, want: Record<string, string>) {
  return Object.keys(want)
    .filter((url) => got[url] !== want[url])
    .map((url) => {
      const a = got[url] ?? "";
      const b = want[url]!;
      let at = 0;
      while (a[at] === b[at]) at += 1;
      return `${url}: got …${a.slice(Math.max(0, at - 80), at + 80)}… want …${b.slice(Math.max(0, at - 80), at + 80)}…`;
    });
}

async function answersOf(site: Site, paths: string[]) {
  const answers: Record<string, string> = {};
  for (const url of paths) {
    const answer = await site.app.inject({ method: "GET", url });
    const body = answer.rawPayload;
    answers[url] = `${answer.statusCode} ${answer.headers["content-type"]} ${
      String(answer.headers["content-type"]).startsWith("text/") ||
      String(answer.headers["content-type"]).includes("json")
        ? body
            .toString("utf8")
            .replace(/name="(formToken|idempotencyKey)" value="[^"]*"/g, "")
            .replace(/\\?"(formToken|token|idempotencyKey)\\?":\\?"[^"\\]*\\?"/g, "")
        : body.toString("base64")
    }`;
  }
  return answers;
}

describe.runIf(onPglite)("npm run backup and npm run restore", () => {
  let work: string;
  let site: Site;
  let archive: string;
  let paths: string[];
  let expected: Record<string, string>;
  let enquiriesAtBackup: unknown[];
  let subscribersAtBackup: unknown[];
  const started: Site[] = [];
  const databases: TestDatabase[] = [];
  const onHangUp = () => void site.onHangUp();

  const startOn = async (env: Record<string, string>) => {
    const config = parseConfig({ NODE_ENV: "test", SITE_URL: "https://www.example.test", ...env });
    const restored = await startSite({
      config,
      syncContent: false,
      renderer: testRenderer(config.siteUrl),
      adminRenderer: testAdminRenderer(),
      shareEmbeddedDatabase: false,
    });
    started.push(restored);
    return restored;
  };

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), "backup-commands-"));
    const config = parseConfig({
      NODE_ENV: "test",
      DATA_DIR: path.join(work, "site"),
      SITE_URL: "https://www.example.test",
      BACKUP_DIR: path.join(work, "backups"),
    });
    site = await startSite({ config, renderer: testRenderer(config.siteUrl), adminRenderer: testAdminRenderer() });
    started.push(site);
    // What the server's entry does on SIGHUP (main.ts): `npm run backup` asks this site, the holder
    // of the embedded database, to make the backup, and signals this process.
    process.on("SIGHUP", onHangUp);
    await enquiryFrom(site, "Asha", "asha@example.com");
    await enquiryFrom(site, "Gone", "gone@example.com");
    await subscribeToNewsletter(site.database.db, "reader@example.com");
    const media = await queryRows<{ key: string; name: string }>(
      site.database.db,
      sql`select m.key, f.name from media m join media_files f on f.media_id = m.id order by m.key, f.name`,
    );
    expect(media.length).toBeGreaterThan(0);
    paths = [
      ...pageRoutesForTests,
      apiPaths.blogPosts,
      apiPaths.projects,
      apiPaths.teamMembers,
      ...media.map((file) => `/media/${file.key}/${file.name}`),
    ];
    expected = await answersOf(site, paths);
    const env = { DATA_DIR: path.join(work, "site") };
    enquiriesAtBackup = JSON.parse((await command("enquiries", ["--format", "json"], env)).stdout) as unknown[];
    subscribersAtBackup = JSON.parse((await command("subscribers", ["--format", "json"], env)).stdout) as unknown[];
  }, 180_000);

  afterAll(async () => {
    process.off("SIGHUP", onHangUp);
    for (const running of started) await running.close().catch(() => {});
    for (const database of databases) await database.drop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(
    "backs up the running embedded site while it answers requests; the archive's path is the last line",
    { timeout: 120_000 },
    async () => {
      const backup = command("backup", ["--out", path.join(work, "backups")], { DATA_DIR: path.join(work, "site") });
      let answered = 0;
      let done = false;
      void backup.finally(() => (done = true));
      while (!done) {
        const answer = await site.app.inject({ method: "GET", url: "/about" });
        expect(answer.statusCode).toBe(200);
        answered += 1;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const outcome = await backup;
      expect(outcome).toMatchObject({ code: 0, stderr: "" });
      // The site made it, from a copy of its database's files, and recorded it.
      expect(outcome.stdout).toMatch(
        /^The running site \(pid \d+\) made the backup; its restore drill runs there now\.$/m,
      );
      archive = outcome.stdout.trim().split("\n").pop()!;
      const [recorded] = await queryRows<{ requested_by: string; file_name: string; status: string }>(
        site.database.db,
        sql`select requested_by, file_name, status from backup_runs order by id desc limit 1`,
      );
      expect(recorded).toEqual({
        requested_by: expect.stringMatching(/^command line \(pid \d+\)$/),
        file_name: path.basename(archive),
        status: "done",
      });
      expect(archive).toMatch(/backups\/site-\d{4}-\d{2}-\d{2}T\d{6}Z\.tar\.gz$/);
      expect(existsSync(archive)).toBe(true);
      expect(outcome.stdout).toMatch(/Left out: staff_sessions/);
      expect(answered).toBeGreaterThan(0);
      // After the backup: an enquiry that must not come back, and an erasure that must hold.
      await enquiryFrom(site, "After", "after@example.com");
      await eraseAddress(site.database.db, "gone@example.com");
      await writeLedgerFile(site.database.db, path.join(work, "backups"));
    },
  );

  it(
    "restores it into a fresh embedded database: the same pages and pictures, the enquiries of the backup, the erasure applied again",
    { timeout: 180_000 },
    async () => {
      const env = { DATA_DIR: path.join(work, "restored"), BACKUP_DIR: path.join(work, "backups") };
      const outcome = await command("restore", [archive], env);
      expect(outcome).toMatchObject({ code: 0, stderr: "" });
      expect(outcome.stdout).toMatch(/^Checked site-.*every SHA-256 as its manifest says/m);
      expect(outcome.stdout).toMatch(/erased again 1 address erased after the backup, \d+ records \(1 enquiries/);
      const enquiries = JSON.parse((await command("enquiries", ["--format", "json"], env)).stdout) as {
        firstName: string;
      }[];
      expect(enquiries).toEqual(
        (enquiriesAtBackup as { firstName: string }[]).filter((row) => row.firstName !== "Gone"),
      );
      expect(enquiries.map((row) => row.firstName)).toEqual(["Asha"]);
      expect(JSON.parse((await command("subscribers", ["--format", "json"], env)).stdout)).toEqual(subscribersAtBackup);
      const restored = await startOn(env);
      expect(differences(await answersOf(restored, paths), expected)).toEqual([]);
      await restored.close();

      // Again, into the database that now holds the restored site: refused without --force.
      const again = await command("restore", [archive], env);
      expect(again.code).toBe(1);
      expect(again.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/holds data \(.*1 enquiries.*\): nothing was restored\. Add --force/),
      ]);
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    "restores it into a fresh PostgreSQL database: the way to move the site",
    { timeout: 180_000 },
    async () => {
      const database = await createTestDatabase("postgres");
      databases.push(database);
      const url = (database as unknown as { url?: string }).url;
      expect(url).toBeDefined();
      const env = { DATABASE_URL: url!, BACKUP_DIR: path.join(work, "backups") };
      const outcome = await command("restore", [archive], env);
      expect(outcome).toMatchObject({ code: 0, stderr: "" });
      const restored = await startOn(env);
      expect(differences(await answersOf(restored, paths), expected)).toEqual([]);
      await restored.close();
    },
  );

  it(
    "asks for an encrypted archive's passphrase at a terminal, without showing it; without a terminal says to set BACKUP_PASSPHRASE",
    { timeout: 120_000 },
    async () => {
      const source = await createTestDatabase("pglite", { from: "empty" });
      databases.push(source);
      const passphrase = "a long passphrase of the test";
      const { file } = await makeBackup(source.db, { dir: path.join(work, "encrypted"), driver: "pglite", passphrase });
      expect(file).toMatch(/\.tar\.gz\.enc$/);

      const piped = await command("restore", [file], { DATA_DIR: path.join(work, "piped") });
      expect(piped.code).toBe(1);
      expect(piped.stderr).toMatch(/is encrypted: set BACKUP_PASSPHRASE/);
      expect(existsSync(path.join(work, "piped", "pglite"))).toBe(false);

      // At a terminal (util-linux's `script` gives the command one): asked, typed, restored.
      const atTerminal = async (typed: string) => {
        const child = spawn(
          "script",
          ["-qec", `${process.execPath} --import tsx scripts/restore.ts ${file}`, "/dev/null"],
          { cwd: root, env: { PATH: process.env.PATH, DATA_DIR: path.join(work, `typed-${typed.length}`) } },
        );
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("Its passphrase (BACKUP_PASSPHRASE): ") && !child.stdin.writableEnded)
            child.stdin.end(`${typed}\r`);
        });
        const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
        return { code, output };
      };
      const right = await atTerminal(passphrase);
      expect(right.output).toMatch(/Restored \d+ rows and 0 picture files into the embedded database/);
      expect(right.code).toBe(0);
      expect(right.output).not.toContain(passphrase);
      const wrong = await atTerminal("not the passphrase at all");
      expect(wrong.code).toBe(1);
      expect(wrong.output).toMatch(/passphrase is wrong/);
      expect(wrong.output).not.toContain("not the passphrase at all");
    },
  );

  it(
    "refuses a cut or changed archive with one line naming the part at fault, and writes nothing",
    { timeout: 120_000 },
    async () => {
      const bytes = await readFile(archive);
      const cut = path.join(work, "cut.tar.gz");
      await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
      const env = { DATA_DIR: path.join(work, "untouched") };
      const outcome = await command("restore", [cut], env);
      expect(outcome.code).toBe(1);
      expect(outcome.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/cut\.tar\.gz is damaged in .*part .*: it is cut short/),
      ]);
      expect(existsSync(path.join(work, "untouched", "pglite"))).toBe(false);
    },
  );
});
