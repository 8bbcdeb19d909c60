import Fastify, { type FastifyInstance } from "fastify";
import { register as globalRegistry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { bearerTokenCheck, registerMetrics } from "./metrics-routes.ts";

// Without a database: the setting, the token's check, a scrape whose database fails or hangs,
// and one registry per app. metrics.test.ts has the rest, over each database.

const TOKEN = "a-token-of-the-unit-tests-42";
const authorization = `Bearer ${TOKEN}`;

describe("METRICS_TOKEN", () => {
  it("is off when unset or empty", () => {
    expect(parseConfig({}).metricsToken).toBeUndefined();
    expect(parseConfig({ METRICS_TOKEN: "" }).metricsToken).toBeUndefined();
  });

  it("takes a token of 16 characters or more", () => {
    expect(parseConfig({ METRICS_TOKEN: "0123456789abcdef" }).metricsToken).toBe("0123456789abcdef");
  });

  it.each([
    ["0123456789abcde", "Invalid configuration: METRICS_TOKEN must be at least 16 characters"],
    ["short", "Invalid configuration: METRICS_TOKEN must be at least 16 characters"],
    ["a token with spaces in it", "Invalid configuration: METRICS_TOKEN must be printable ASCII without spaces"],
    ["jeton-de-métriques-0123", "Invalid configuration: METRICS_TOKEN must be printable ASCII without spaces"],
  ])("refuses %j, saying why", (token, message) => {
    expect(() => parseConfig({ METRICS_TOKEN: token })).toThrow(message);
  });
});

describe("the bearer token's check", () => {
  const check = bearerTokenCheck(TOKEN);

  it("lets the token through, the scheme in any case", () => {
    expect(check(`Bearer ${TOKEN}`)).toBeUndefined();
    expect(check(`bearer ${TOKEN}`)).toBeUndefined();
    expect(check(`BEARER  ${TOKEN} `)).toBeUndefined();
  });

  it.each([
    [undefined, "Missing token", 'Bearer realm="metrics"'],
    ["", "Missing token", 'Bearer realm="metrics"'],
    [`Basic ${Buffer.from(`user:${TOKEN}`).toString("base64")}`, "Wrong authorization scheme", "invalid_request"],
    [TOKEN, "Wrong authorization scheme", "invalid_request"],
    ["Bearer", "Malformed bearer token", "invalid_request"],
    [`Bearer ${TOKEN} ${TOKEN}`, "Malformed bearer token", "invalid_request"],
    [`Bearer${TOKEN}`, "Wrong authorization scheme", "invalid_request"],
    [`Bearer ${TOKEN.toUpperCase()}`, "Wrong token", "invalid_token"],
    [`Bearer ${TOKEN.slice(0, -1)}`, "Wrong token", "invalid_token"],
    [`Bearer ${TOKEN}${TOKEN}`, "Wrong token", "invalid_token"],
  ])("refuses %j", (header, message, challenge) => {
    const refusal = check(header);
    expect(refusal?.message).toContain(message);
    expect(refusal?.challenge).toMatch(/^Bearer realm="metrics"/);
    expect(refusal?.challenge).toContain(challenge);
  });
});

describe("a scrape without a database", () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  /** An app with the metrics and one route, over a database that answers as `execute` does. */
  async function appWith(execute: () => Promise<unknown>, databaseTimeoutMs?: number) {
    const app = Fastify();
    const db = { execute } as unknown as Database;
    registerMetrics(app, { token: TOKEN, db, databaseTimeoutMs });
    app.get("/things/:id", async () => ({ ok: true }));
    await app.ready();
    apps.push(app);
    return app;
  }
  const scrape = (app: FastifyInstance) => app.inject({ method: "GET", url: "/metrics", headers: { authorization } });

  it("answers 200 with the process's metrics and metrics_database_up 0 when the database fails", async () => {
    const app = await appWith(() => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")));
    await app.inject({ method: "GET", url: "/things/1" });
    const response = await scrape(app);
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/^metrics_database_up 0$/m);
    expect(response.body).toMatch(/^http_requests_total\{method="GET",route="\/things\/:id",status="200"\} 1$/m);
    expect(response.body).toMatch(/^nodejs_eventloop_delay_p99_seconds \d/m);
    expect(response.body).toMatch(/^process_resident_memory_bytes \d/m);
    // The database's gauges have no value, rather than a made-up 0.
    for (const name of ["mail_outbox_waiting", "newsletter_queue_waiting", "backup_last_result"]) {
      expect(response.body).not.toMatch(new RegExp(`^${name} `, "m"));
    }
  });

  it("answers within its timeout when the database hangs, and asks it one query at a time", async () => {
    let queries = 0;
    const app = await appWith(() => {
      queries += 1;
      return new Promise(() => {});
    }, 50);
    for (let scrapes = 0; scrapes < 3; scrapes += 1) {
      const response = await scrape(app);
      expect(response.statusCode).toBe(200);
      expect(response.body).toMatch(/^metrics_database_up 0$/m);
    }
    expect(queries).toBe(1);
  });

  it("reports the event loop's longest delay since the previous scrape", async () => {
    const app = await appWith(() => new Promise<unknown>(() => {}), 10);
    const longest = async () =>
      Number(/^nodejs_eventloop_delay_max_seconds (\S+)$/m.exec((await scrape(app)).body)?.[1]);
    await longest();
    // The histogram's first tick after a scrape only starts its clock: stall after it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stallUntil = Date.now() + 400;
    while (Date.now() < stallUntil) {
      // Holding the event loop, as a long synchronous task would.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await longest()).toBeGreaterThanOrEqual(0.35);
    // The histogram starts again at each scrape.
    expect(await longest()).toBeLessThan(0.35);
  });

  it("keeps each app's counts in a registry of its own, never the global one", async () => {
    const never = () => new Promise<unknown>(() => {});
    const [first, second] = [await appWith(never, 10), await appWith(never, 10)];
    await first.inject({ method: "GET", url: "/things/1" });
    await first.inject({ method: "GET", url: "/things/2" });
    await second.inject({ method: "GET", url: "/things/3" });
    const count = /^http_requests_total\{method="GET",route="\/things\/:id",status="200"\} (\d+)$/m;
    expect(count.exec((await scrape(first)).body)?.[1]).toBe("2");
    expect(count.exec((await scrape(second)).body)?.[1]).toBe("1");
    expect(globalRegistry.getSingleMetric("http_requests_total")).toBeUndefined();
  });
});
