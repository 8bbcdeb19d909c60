import { Writable } from "node:stream";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { parseConfig } from "../config.ts";
import { type DatabaseHandle, openDatabase } from "../db/client.ts";
import { storeEnquiry } from "../db/contact-repository.ts";
import { applyMigrations } from "../db/migrate.ts";
import { OutboxWorker } from "../mail/outbox-worker.ts";
import { createSmtpTransport } from "../mail/smtp-transport.ts";
import { testRenderer } from "../../../test/build-test-app.ts";
import { createTestDatabase, onPostgres, type TestDatabase, testDrivers } from "../../../test/databases.ts";
import { enquiry, formBody, TEST_FORM_SECRET } from "../../../test/enquiry-fixtures.ts";
import { freePort, SmtpPeer } from "../../../test/smtp-peer.ts";
import { TcpProxy } from "../../../test/tcp-proxy.ts";

/** A request id: the process's random prefix, then a counter (plugins/request-ids.ts). */
const REQUEST_ID = /^[0-9a-z]{8}-[0-9a-z]+$/;

function logCapture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

describe.each(testDrivers)("health checks and logs on %s", (driver) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  const capture = logCapture();

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    const config = parseConfig({ NODE_ENV: "test", FORM_SECRET: TEST_FORM_SECRET, RATE_LIMIT_PER_MINUTE: "2" });
    app = await buildApp({
      config,
      db: database.db,
      renderer: testRenderer(config.siteUrl),
      logger: { level: "debug", stream: capture.stream },
    });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it("answers /healthz while alive and /readyz only once the migrations are applied", async () => {
    const health = await app.inject({ method: "GET", url: "/healthz" });
    expect(health.statusCode).toBe(200);
    expect(health.headers["cache-control"]).toBe("no-store");
    const before = await app.inject({ method: "GET", url: "/readyz" });
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({ status: "unavailable", reason: "Database migrations are not all applied." });
    await applyMigrations(database.db);
    const after = await app.inject({ method: "GET", url: "/readyz" });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ status: "ready" });
    // Polled every few seconds: logged at debug level only, and never rate limited.
    for (let i = 0; i < 5; i += 1) expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    const healthLines = capture.lines.filter((line) => line.route === "/healthz" || line.route === "/readyz");
    expect(healthLines.length).toBeGreaterThan(0);
    expect(healthLines.every((line) => line.level === 20)).toBe(true);
  });

  it("logs one line per request with its id, method, route, status and duration, and returns the id", async () => {
    const response = await app.inject({ method: "GET", url: "/api/projects" });
    const id = response.headers["x-request-id"];
    expect(id).toMatch(REQUEST_ID);
    // Each request its own id, from the same process prefix.
    const next = String((await app.inject({ method: "GET", url: "/api/projects" })).headers["x-request-id"]);
    expect(next).toMatch(REQUEST_ID);
    expect(next).not.toBe(id);
    expect(next.split("-")[0]).toBe(String(id).split("-")[0]);
    const line = capture.lines.find((entry) => entry.requestId === id && entry.msg === "request completed");
    expect(line).toMatchObject({
      level: 30,
      method: "GET",
      route: "/api/projects",
      status: 200,
      durationMs: expect.any(Number),
    });
  });

  it.each(["/%", "/%zz", "/api/%", "/blog/%E0%A4%A"])(
    "answers the malformed URL %s with a JSON 400, the site's headers, an id and a log line",
    async (url) => {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(400);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.json()).toEqual({
        error: "Bad Request",
        message: expect.stringMatching(/^The address is not a valid URL/),
      });
      expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      const id = response.headers["x-request-id"];
      expect(id).toMatch(REQUEST_ID);
      const line = capture.lines.find((entry) => entry.requestId === id && entry.msg === "request completed");
      expect(line).toMatchObject({ level: 30, method: "GET", status: 400 });
    },
  );

  const secret = {
    firstName: "Zubinlogtest",
    lastName: "Quorraprivate",
    email: "hidden.visitor.9137@example.com",
    company: "Secretive Chemicals Pvt Ltd",
    message: "Confidential 400 kV substation upgrade near Mundra",
  };

  it("never writes a visitor's name, email address, company or message to the log", async () => {
    await app.inject({ method: "POST", url: "/api/contact", payload: enquiry(secret) });
    await app.inject({ method: "POST", url: "/api/contact", payload: enquiry({ ...secret, email: "broken-9137" }) });
    await app.inject({
      method: "POST",
      url: "/contact",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: formBody(enquiry({ ...secret, lastName: "" })),
    });
    await app.inject({ method: "POST", url: "/api/contact", payload: enquiry({ ...secret, "bot-field": "x" }) });
    await app.inject({
      method: "POST",
      url: "/api/contact?email=hidden.visitor.9137@example.com",
      payload: enquiry(secret),
    });
    await app.inject({ method: "POST", url: "/api/newsletter", payload: { email: secret.email } });
    await app.workAfterAnswer.settled();
    const log = JSON.stringify(capture.lines);
    expect(capture.lines.some((line) => line.msg === "enquiry stored")).toBe(true);
    for (const value of [...Object.values(secret), "broken-9137"]) expect(log).not.toContain(value);
  });

  it("keeps them out of the log when the database fails during an enquiry post, logging the cause's code", async () => {
    await applyMigrations(database.db);
    const before = capture.lines.length;
    // The insert fails after the rate limit passed: its error carries the visitor's values.
    await database.db.execute(sql`alter table contact_submissions rename to contact_submissions_away`);
    try {
      const json = await app.inject({
        method: "POST",
        url: "/api/contact",
        payload: enquiry(secret),
        remoteAddress: "192.0.2.61",
      });
      expect(json.statusCode).toBe(503);
      const form = await app.inject({
        method: "POST",
        url: "/contact",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: formBody(enquiry(secret)),
        remoteAddress: "192.0.2.62",
      });
      expect(form.statusCode).toBe(503);
    } finally {
      await database.db.execute(sql`alter table contact_submissions_away rename to contact_submissions`);
    }
    const lines = capture.lines.slice(before);
    const failures = lines.filter((line) => line.msg === "database unavailable");
    expect(failures).toHaveLength(2);
    // 42P01: undefined table, PostgreSQL's code on the cause of Drizzle's error. The first query
    // of the step looks for an earlier enquiry under the key; its parameters are not logged.
    expect(failures[0]).toMatchObject({
      level: 50,
      step: "store enquiry",
      errCode: "42P01",
      err: { code: "42P01", message: expect.stringMatching(/^Failed query: select "id", "first_name", /) },
    });
    // The query's first line alone, cut at 200 characters: a long column list never grows the line.
    expect(String((failures[0]!.err as { message: string }).message).length).toBeLessThanOrEqual(
      "Failed query: ".length + 200,
    );
    const log = JSON.stringify(lines);
    for (const value of Object.values(secret)) expect(log).not.toContain(value);
  });

  it("logs a subscription whose work fails after its answer, with the cause's code and without the address", async () => {
    await applyMigrations(database.db);
    const before = capture.lines.length;
    await database.db.execute(sql`alter table newsletter_subscribers rename to newsletter_subscribers_away`);
    try {
      const answer = await app.inject({
        method: "POST",
        url: "/api/newsletter",
        payload: { email: secret.email },
        remoteAddress: "192.0.2.63",
      });
      // The answer went before the work: it cannot tell of a failure that came after it.
      expect(answer.statusCode).toBe(201);
      await app.workAfterAnswer.settled();
    } finally {
      await database.db.execute(sql`alter table newsletter_subscribers_away rename to newsletter_subscribers`);
    }
    const lines = capture.lines.slice(before);
    const failures = lines.filter((line) => line.msg === "newsletter subscription failed after its answer");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ level: 50, errCode: "42P01", err: { code: "42P01" } });
    expect(JSON.stringify(lines)).not.toContain(secret.email);
  });

  it("keeps them out of the log when the SMTP server rejects the mail or cannot be reached", async () => {
    await applyMigrations(database.db);
    const before = capture.lines.length;
    const queue = () =>
      storeEnquiry(database.db, {
        data: { ...secret, service: "grid-integration" },
        idempotencyKey: randomUUID(),
        spamReason: null,
        mail: { configured: true, acknowledge: true },
        acknowledgementKey: randomUUID(),
      });
    const send = async (smtpUrl: string) => {
      const worker = new OutboxWorker({
        db: database.db,
        transport: createSmtpTransport(smtpUrl),
        from: "website@example.test",
        to: ["firm@example.test"],
        log: app.log,
      });
      await worker.sendDueBatch();
      await worker.stop();
    };
    // A server that refuses for good, quoting the visitor in its answer as some do.
    const peer = await SmtpPeer.start(undefined, {
      rejectRecipients: {
        responseCode: 550,
        message: `5.1.1 no mailbox for ${secret.firstName} ${secret.lastName} at ${secret.company}`,
      },
    });
    try {
      await queue();
      await send(peer.url);
    } finally {
      await peer.stop();
    }
    await queue();
    await send(`smtp://127.0.0.1:${await freePort()}`);
    const lines = capture.lines.slice(before);
    expect(lines.filter((line) => line.msg === "mail rejected by the SMTP server; not retried")).toHaveLength(2);
    expect(lines.some((line) => line.msg === "mail not sent; will retry" && line.errCode === "ESOCKET")).toBe(true);
    const log = JSON.stringify(lines);
    for (const value of Object.values(secret)) expect(log).not.toContain(value);
  });
});

describe.runIf(onPostgres)("/readyz while PostgreSQL is unreachable", () => {
  it("answers 503 with a reason, and 200 again once the database is back, without a restart", async () => {
    const target = await createTestDatabase("postgres", { from: "empty" });
    const url = new URL(target.url!);
    const proxy = new TcpProxy(await freePort(), { host: url.hostname, port: Number(url.port || 5432) });
    await proxy.up();
    url.host = `127.0.0.1:${proxy.port}`;
    const handle: DatabaseHandle = await openDatabase({ databaseUrl: url.toString(), dataDir: "unused" });
    const app = await buildApp({ config: parseConfig({ NODE_ENV: "test" }), db: handle.db });
    try {
      expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
      await proxy.down();
      const down = await app.inject({ method: "GET", url: "/readyz" });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: "unavailable", reason: "The database does not answer." });
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
      await proxy.up();
      expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    } finally {
      await app.close();
      await handle.close();
      await proxy.down();
      await target.drop();
    }
  });
});
