import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../src/server/config.ts";
import { auditEvents, staff } from "../src/server/db/schema.ts";
import { type Site, startSite } from "../src/server/site.ts";
import { testAdminRenderer } from "../test/build-test-app.ts";
import { createTestDatabase, onPostgres, type TestDatabase } from "../test/databases.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");

/** `npm run staff -- …`; its exit code, stdout and stderr. */
async function staffCommand(args: string[], env: Record<string, string>) {
  return run(process.execPath, ["--import", "tsx", "scripts/staff.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** Every command against a running site: invite, a link that works, list, sign-in link, disable. */
async function exerciseCommands(site: Site, env: Record<string, string>) {
  const invited = await staffCommand(["invite", "Meera@Example.com", "--name", "Meera Shah", "--role", "admin"], env);
  expect(invited.code).toBe(0);
  const link = invited.stdout.trim().split("\n").at(-1)!;
  expect(link).toMatch(/^https:\/\/admin\.example\.test\/admin\/invite\/[A-Za-z0-9_-]{43}$/);
  // The running site knows the invitation at once: it shares the database.
  const page = await site.app.inject({ method: "GET", url: new URL(link).pathname });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain("Meera Shah");

  const listed = await staffCommand(["list"], env);
  expect(listed.stdout).toMatch(/^Name\s+Email\s+Role\s+State/m);
  expect(listed.stdout).toMatch(/Meera Shah\s+meera@example\.com\s+admin\s+invited/);

  const signInLink = await staffCommand(["sign-in-link", "meera@example.com"], env);
  expect(signInLink.stdout.trim().split("\n").at(-1)).toMatch(
    /^https:\/\/admin\.example\.test\/admin\/sign-in-link\/[A-Za-z0-9_-]{43}$/,
  );
  const linkPage = await site.app.inject({
    method: "GET",
    url: new URL(signInLink.stdout.trim().split("\n").at(-1)!).pathname,
  });
  expect(linkPage.statusCode).toBe(200);

  const disabled = await staffCommand(["disable", "meera@example.com"], env);
  expect(disabled.stdout).toContain("Disabled Meera Shah <meera@example.com>");
  const [row] = await site.database.db.select().from(staff).where(eq(staff.email, "meera@example.com"));
  expect(row!.disabledAt).not.toBeNull();
  // The links made before no longer work.
  expect((await site.app.inject({ method: "GET", url: new URL(link).pathname })).statusCode).toBe(410);

  const events = await site.database.db.select().from(auditEvents).orderBy(auditEvents.id);
  expect(events.map((event) => [event.action, event.actorLabel, event.targetLabel])).toEqual([
    ["invitation-created", "command line", "meera@example.com"],
    ["sign-in-link-created", "command line", "meera@example.com"],
    ["staff-disabled", "command line", "meera@example.com"],
  ]);
}

describe("npm run staff", () => {
  let site: Site | undefined;
  let dataDir: string | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await site?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    site = database = dataDir = undefined;
  });

  it(
    "invites, lists, makes sign-in links and disables while the site runs on the embedded database",
    { timeout: 90_000 },
    async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "site-staff-"));
      const config = parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SITE_URL: "https://admin.example.test" });
      site = await startSite({ config, syncContent: false, adminRenderer: testAdminRenderer() });
      await exerciseCommands(site, { DATA_DIR: dataDir, SITE_URL: "https://admin.example.test" });
    },
  );

  it.runIf(onPostgres)("does the same on PostgreSQL through DATABASE_URL", { timeout: 90_000 }, async () => {
    database = await createTestDatabase("postgres");
    const config = parseConfig({
      NODE_ENV: "test",
      DATABASE_URL: database.url,
      SITE_URL: "https://admin.example.test",
    });
    site = await startSite({ config, database, syncContent: false, adminRenderer: testAdminRenderer() });
    await exerciseCommands(site, { DATABASE_URL: database.url!, SITE_URL: "https://admin.example.test" });
  });

  it("answers bad arguments with a clear message, exit code 2, and changes nothing", { timeout: 90_000 }, async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "site-staff-"));
    site = await startSite({ config: parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir }), syncContent: false });
    const env = { DATA_DIR: dataDir };
    for (const [args, message] of [
      [["invite", "not-an-address", "--name", "X"], "is not an email address"],
      [["invite", "a@example.com"], 'invite needs --name "<name>"'],
      [["invite", "a@example.com", "--name", "X", "--role", "owner"], "--role must be admin or staff"],
      [["invite", "a@example.com", "--name", "Line\u001b]0;owned\u0007"], "--name must be one line"],
      [["promote", "a@example.com"], 'Unknown command "promote"'],
    ] as const) {
      const result = await staffCommand([...args], env);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toContain(message);
      expect(result.stderr).not.toContain("\u001b");
    }
    const missing = await staffCommand(["disable", "nobody@example.com"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("There is no member of staff with the address nobody@example.com.\n");
    expect(await site.database.db.select().from(staff)).toEqual([]);
  });
});
