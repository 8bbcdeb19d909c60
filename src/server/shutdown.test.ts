import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { inArray, sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "./db/client.ts";
import { SCHEMA_LOCK_KEY } from "./db/migrate.ts";
import { contactSubmissions } from "./db/schema.ts";
import { createTestDatabase, onPostgres, type TestDatabase, testDrivers } from "../../test/databases.ts";
import { enquiry, TEST_FORM_SECRET } from "../../test/enquiry-fixtures.ts";
import { startServerProcess } from "../../test/server-process.ts";

// SIGTERM while 100 enquiries are in flight: the server exits 0, every enquiry it answered 2xx
// is in the database afterwards, and re-sending the others (as the browser outbox does) under
// the same keys ends with exactly 100.

const IN_FLIGHT = 100;

describe.each(testDrivers)("graceful shutdown on %s", (driver) => {
  let dataDir: string | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    database = dataDir = undefined;
  });

  it(`loses none of ${IN_FLIGHT} enquiries in flight when SIGTERM arrives`, { timeout: 120_000 }, async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "site-shutdown-"));
    let env: Record<string, string> = { DATA_DIR: dataDir };
    if (driver === "postgres") {
      database = await createTestDatabase("postgres");
      env = { DATABASE_URL: database.url! };
    }
    Object.assign(env, {
      FORM_SECRET: TEST_FORM_SECRET,
      RATE_LIMIT_PER_MINUTE: "100000",
      SHUTDOWN_TIMEOUT_MS: "10000",
    });

    const server = await startServerProcess(env);
    await server.ready();
    const payloads = Array.from({ length: IN_FLIGHT }, () => enquiry({ idempotencyKey: randomUUID() }));
    let answeredSoFar = 0;
    let firstAnswered: () => void = () => {};
    const serverIsAnswering = new Promise<void>((resolve) => (firstAnswered = resolve));
    const answers = payloads.map(async (payload) => {
      try {
        const response = await fetch(`${server.baseUrl}/api/contact`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(payload),
        });
        answeredSoFar += 1;
        firstAnswered();
        await response.arrayBuffer();
        return { key: String(payload.idempotencyKey), status: response.status };
      } catch {
        return { key: String(payload.idempotencyKey), status: 0 };
      }
    });
    // The signal goes as soon as the server has answered one: the others are then in its hands.
    await serverIsAnswering;
    const unansweredAtSignal = IN_FLIGHT - answeredSoFar;
    server.child.kill("SIGTERM");
    const results = await Promise.all(answers);
    expect(await server.exited).toBe(0);
    // Otherwise the test proves nothing: every request must not have been answered already.
    expect(unansweredAtSignal).toBeGreaterThan(0);

    const answered = results
      .filter((result) => result.status >= 200 && result.status < 300)
      .map((result) => result.key);
    const handle = await openDatabase(
      driver === "postgres" ? { databaseUrl: database!.url, dataDir: "unused" } : { dataDir: dataDir! },
    );
    try {
      const stored = await handle.db
        .select({ key: contactSubmissions.idempotencyKey })
        .from(contactSubmissions)
        .where(inArray(contactSubmissions.idempotencyKey, answered.length ? answered : [randomUUID()]));
      expect(stored.map((row) => row.key).sort()).toEqual([...answered].sort());
      console.log(
        `shutdown (${driver}): ${unansweredAtSignal} of ${IN_FLIGHT} unanswered at SIGTERM; ` +
          `${answered.length} answered 2xx in all, all ${stored.length} stored; the rest: ` +
          `${results.filter((result) => result.status === 503).length} answered 503, ` +
          `${results.filter((result) => result.status === 0).length} cut off (the browser outbox sends both again)`,
      );
    } finally {
      await handle.close();
    }

    // The browser outbox sends the unanswered ones again, to a restarted server, under the same keys.
    const restarted = await startServerProcess(env);
    await restarted.ready();
    for (const payload of payloads) {
      const response = await fetch(`${restarted.baseUrl}/api/contact`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(payload),
      });
      expect([200, 201]).toContain(response.status);
    }
    restarted.child.kill("SIGINT");
    expect(await restarted.exited).toBe(0);
    const after = await openDatabase(
      driver === "postgres" ? { databaseUrl: database!.url, dataDir: "unused" } : { dataDir: dataDir! },
    );
    try {
      expect(await after.db.$count(contactSubmissions)).toBe(IN_FLIGHT);
    } finally {
      await after.close();
    }
  });
});

describe("a signal during start-up", () => {
  it(
    "on the embedded database: stops after the step in hand, closes the database and exits 0",
    { timeout: 120_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), "site-startup-"));
      try {
        const server = await startServerProcess({ DATA_DIR: dataDir, FORM_SECRET: TEST_FORM_SECRET });
        await vi.waitFor(() => expect(server.output()).toContain("Starting:"), { timeout: 30_000, interval: 10 });
        server.child.kill("SIGTERM");
        expect(await server.exited).toBe(0);
        expect(server.output()).toContain("Site stopped during start-up (SIGTERM).");
        expect(server.output()).not.toContain("running at");
        // Closed cleanly: the files open again.
        const handle = await openDatabase({ dataDir });
        try {
          await handle.db.execute(sql`select 1`);
        } finally {
          await handle.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  it.runIf(onPostgres)(
    "on PostgreSQL, while waiting for another instance's migrations: exits 0 once they are done, never listening",
    { timeout: 120_000 },
    async () => {
      const database = await createTestDatabase("postgres");
      // Another instance holds the schema lock, as it does while it migrates and syncs content.
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query("select pg_advisory_lock($1)", [SCHEMA_LOCK_KEY]);
        const server = await startServerProcess({ DATABASE_URL: database.url!, FORM_SECRET: TEST_FORM_SECRET });
        const waitingForLock = async () =>
          (
            await other.query<{ waiting: number }>(
              "select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted",
            )
          ).rows[0]?.waiting;
        await vi.waitFor(async () => expect(await waitingForLock()).toBe(1), { timeout: 60_000, interval: 50 });
        server.child.kill("SIGTERM");
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect([server.child.exitCode, server.child.signalCode]).toEqual([null, null]);
        await other.query("select pg_advisory_unlock($1)", [SCHEMA_LOCK_KEY]);
        expect(await server.exited).toBe(0);
        expect(server.output()).toContain("Site stopped during start-up (SIGTERM).");
        expect(server.output()).not.toContain("running at");
      } finally {
        await other.end();
        await database.drop();
      }
    },
  );
});

describe("Ctrl-C in a terminal running npm start", () => {
  it("stops the whole process group cleanly, keeping what was stored", { timeout: 150_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "site-group-"));
    const { spawn } = await import("node:child_process");
    const { freePort } = await import("../../test/smtp-peer.ts");
    const port = await freePort();
    // npm start in a process group of its own, as a terminal runs it.
    const npm = spawn("npm", ["start", "--silent"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
        FORM_SECRET: TEST_FORM_SECRET,
      },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    npm.stdout?.on("data", (chunk) => (output += chunk));
    npm.stderr?.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | string | null>((resolve) =>
      npm.once("exit", (code, signal) => resolve(code ?? signal)),
    );
    try {
      const deadline = Date.now() + 90_000;
      let ready = false;
      while (!ready && Date.now() < deadline) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (response) => response.ok,
          () => false,
        );
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(ready).toBe(true);
      const payload = enquiry();
      const stored = await fetch(`http://127.0.0.1:${port}/api/contact`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(payload),
      });
      expect(stored.status).toBe(201);
      // Ctrl-C: SIGINT to every process of the group. npm itself dies of the signal, as in a
      // terminal; the server finishes its shutdown and says so.
      process.kill(-npm.pid!, "SIGINT");
      expect([0, "SIGINT"]).toContain(await exited);
      const deadline2 = Date.now() + 20_000;
      while (!output.includes("Site stopped cleanly (SIGINT).") && Date.now() < deadline2) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(output).toContain("Site stopped cleanly (SIGINT).");
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      const handle = await openDatabase({ dataDir });
      try {
        expect(await handle.db.$count(contactSubmissions)).toBe(1);
      } finally {
        await handle.close();
      }
    } finally {
      try {
        process.kill(-npm.pid!, "SIGKILL");
      } catch {
        // The group has already gone, as it should have.
      }
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
