import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { Registry } from "prom-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { testDrivers } from "../../../test/databases.ts";
import { backupRuns, mailOutbox, newsletters, pageViews } from "../db/schema.ts";
import { NO_ROUTE } from "./metrics.ts";

// /metrics on each database: off without METRICS_TOKEN, refused without the token, and with it
// the requests by route pattern, the outbox and the backups as the rows say.

const TOKEN = "metrics-token-for-the-tests-0123456789";
const ARTICLE = "/blog/arc-flash-studies-ieee-1584-2018";
const chrome =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a Prometheus text exposition (comments left out). */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[label[1]!] = label[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample of `name` with these labels (and any others), or undefined. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe.each(testDrivers)("/metrics on %s", (driver) => {
  let t: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    [t, off] = await Promise.all([
      buildTestApp(driver, { env: { METRICS_TOKEN: TOKEN } }),
      buildTestApp(driver, { content: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), off?.close()]);
  });

  const scrape = async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    return parseMetrics(response.body);
  };

  it("is off without METRICS_TOKEN: /metrics is an unknown address", async () => {
    const unknown = await off.app.inject({ method: "GET", url: "/no-such-page" });
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = await off.app.inject({ method: "GET", url: "/metrics", headers });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toBe(unknown.headers["content-type"]);
      expect(response.body).not.toContain("http_requests_total");
    }
  });

  it.each([
    ["no Authorization header", undefined, /^Missing token/],
    ["an empty Authorization header", "", /^Missing token/],
    ["a wrong token of the same length", `Bearer ${TOKEN.slice(0, -1)}X`, /^Wrong token/],
    ["the token with a character more", `Bearer ${TOKEN}0`, /^Wrong token/],
    ["the token less its last character", `Bearer ${TOKEN.slice(0, -1)}`, /^Wrong token/],
    ["the token twice", `Bearer ${TOKEN} ${TOKEN}`, /^Malformed bearer token/],
    [
      "the Basic scheme",
      `Basic ${Buffer.from(`prometheus:${TOKEN}`).toString("base64")}`,
      /^Wrong authorization scheme/,
    ],
    ["the token without a scheme", TOKEN, /^Wrong authorization scheme/],
  ])("answers 401 to %s", async (_name, authorization, message) => {
    const response = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer realm="metrics"/);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.body).toMatch(message);
    expect(response.body).not.toContain("http_requests_total");
  });

  it("answers the metrics in Prometheus's text format to the token, never cached", async () => {
    for (const scheme of ["Bearer", "bearer"]) {
      const response = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `${scheme} ${TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe(Registry.PROMETHEUS_CONTENT_TYPE);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.body).toContain("# TYPE http_requests_total counter");
      expect(response.body).toContain("# TYPE http_request_duration_seconds histogram");
      const samples = parseMetrics(response.body);
      for (const name of [
        "nodejs_eventloop_delay_p50_seconds",
        "nodejs_eventloop_delay_p99_seconds",
        "nodejs_eventloop_delay_max_seconds",
        "process_resident_memory_bytes",
        "process_cpu_user_seconds_total",
      ]) {
        expect(valueOf(samples, name), name).toBeGreaterThanOrEqual(0);
      }
      expect(valueOf(samples, "metrics_database_up")).toBe(1);
    }
    const head = await t.app.inject({ method: "HEAD", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(head.statusCode).toBe(200);
    expect(head.headers["cache-control"]).toBe("no-store");
    expect(head.body).toBe("");
  });

  it("answers other methods as it does at a page's address", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"] as const) {
      const atPage = await t.app.inject({ method, url: "/about" });
      const response = await t.app.inject({ method, url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
      expect(atPage.statusCode).toBe(404);
      expect(response.statusCode, method).toBe(atPage.statusCode);
      expect(response.body).not.toContain("http_requests_total");
    }
  });

  it("is never counted as a page view", async () => {
    await t.app.viewCounter.flush();
    await t.database.db.delete(pageViews);
    const browser = { "user-agent": chrome };
    expect((await t.app.inject({ method: "GET", url: "/about", headers: browser })).statusCode).toBe(200);
    const response = await t.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { ...browser, authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    await t.app.viewCounter.flush();
    const paths = (await t.database.db.select({ path: pageViews.path }).from(pageViews)).map((row) => row.path);
    // The page was counted (so counting is on), the metrics were not.
    expect(paths).toEqual(["/about"]);
  });

  it("counts a page under its route pattern, not its address", async () => {
    const labels = { method: "GET", route: "/blog/:slug", status: "200" };
    const before = await scrape();
    const response = await t.app.inject({ method: "GET", url: `${ARTICLE}?utm_source=metrics-test` });
    expect(response.statusCode).toBe(200);
    const after = await scrape();
    expect(valueOf(after, "http_requests_total", labels)).toBe(
      (valueOf(before, "http_requests_total", labels) ?? 0) + 1,
    );
    const durations = { method: "GET", route: "/blog/:slug" };
    expect(valueOf(after, "http_request_duration_seconds_count", durations)).toBe(
      (valueOf(before, "http_request_duration_seconds_count", durations) ?? 0) + 1,
    );
    expect(valueOf(after, "http_request_duration_seconds_bucket", { ...durations, le: "+Inf" })).toBe(
      valueOf(after, "http_request_duration_seconds_count", durations),
    );
    // A route of Fastify's own is labelled by its pattern too.
    expect(valueOf(after, "http_requests_total", { method: "GET", route: "/metrics", status: "200" })).toBeGreaterThan(
      0,
    );
    expect(after.some((sample) => JSON.stringify(sample.labels).includes("arc-flash"))).toBe(false);
    expect(after.some((sample) => JSON.stringify(sample.labels).includes("utm_source"))).toBe(false);
  });

  it('counts an address that matches no route under "(no route)"', async () => {
    const scanned = `/wp-admin-${randomBytes(6).toString("hex")}`;
    const get = { method: "GET", route: NO_ROUTE, status: "404" };
    const post = { method: "POST", route: NO_ROUTE, status: "404" };
    const before = await scrape();
    expect((await t.app.inject({ method: "GET", url: scanned })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "POST", url: `${scanned}/login.php`, payload: {} })).statusCode).toBe(404);
    const after = await scrape();
    expect(valueOf(after, "http_requests_total", get)).toBe((valueOf(before, "http_requests_total", get) ?? 0) + 1);
    expect(valueOf(after, "http_requests_total", post)).toBe((valueOf(before, "http_requests_total", post) ?? 0) + 1);
    expect(after.some((sample) => JSON.stringify(sample.labels).includes("wp-admin"))).toBe(false);
  });

  describe("the outbox", () => {
    beforeEach(async () => {
      await t.database.db.delete(mailOutbox);
    });

    it("gauges the mail waiting, the oldest, the failures of the last day and the newsletter's queue", async () => {
      const now = Date.now();
      const ago = (seconds: number) => new Date(now - seconds * 1000);
      const [newsletter] = await t.database.db
        .insert(newsletters)
        .values({ subject: "Metrics", campaign: `metrics-${randomBytes(4).toString("hex")}` })
        .returning({ id: newsletters.id });
      const staffMail = (status: string, createdAt: Date, nextAttemptAt = createdAt) => ({
        kind: "staff-sign-in-link",
        recipient: "meera@example.com",
        status,
        createdAt,
        nextAttemptAt,
      });
      const newsletterMail = (status: string, createdAt: Date) => ({
        kind: "newsletter-test",
        newsletterId: newsletter!.id,
        recipient: "reader@example.com",
        status,
        createdAt,
        nextAttemptAt: createdAt,
      });
      await t.database.db.insert(mailOutbox).values([
        // Waiting: the oldest queued ten minutes ago (its next attempt is sooner: a retry).
        staffMail("pending", ago(600), ago(30)),
        staffMail("pending", ago(60)),
        // Not waiting: sent, cancelled, and queued while no SMTP server was set.
        staffMail("sent", ago(7200)),
        staffMail("cancelled", ago(7200)),
        staffMail("unconfigured", ago(7200)),
        // Failed: its last attempt an hour ago (counted), and 30 hours ago (not).
        staffMail("failed", ago(86_400), ago(3600)),
        staffMail("failed", ago(200_000), ago(30 * 3600)),
        // The newsletter's: three waiting, one failed (not the outbox's failure).
        newsletterMail("pending", ago(100_000)),
        newsletterMail("pending", ago(50)),
        newsletterMail("pending", ago(40)),
        newsletterMail("failed", ago(3600)),
        newsletterMail("sent", ago(3600)),
      ]);

      const samples = await scrape();
      expect(valueOf(samples, "metrics_database_up")).toBe(1);
      expect(valueOf(samples, "mail_outbox_waiting")).toBe(2);
      const oldest = valueOf(samples, "mail_outbox_oldest_waiting_seconds")!;
      expect(oldest).toBeGreaterThanOrEqual(600);
      expect(oldest).toBeLessThan(600 + 300);
      expect(valueOf(samples, "mail_outbox_failed_24h")).toBe(1);
      expect(valueOf(samples, "newsletter_queue_waiting")).toBe(3);

      // Read at each scrape: the oldest sent, the other waits alone.
      await t.database.db.execute(
        sql`update mail_outbox set status = 'sent' where created_at = ${ago(600).toISOString()}::timestamptz`,
      );
      const later = await scrape();
      expect(valueOf(later, "mail_outbox_waiting")).toBe(1);
      const newest = valueOf(later, "mail_outbox_oldest_waiting_seconds")!;
      expect(newest).toBeGreaterThanOrEqual(60);
      expect(newest).toBeLessThan(60 + 300);
    });

    it("gauges an empty outbox as 0 waiting, for 0 seconds", async () => {
      const samples = await scrape();
      expect(valueOf(samples, "mail_outbox_waiting")).toBe(0);
      expect(valueOf(samples, "mail_outbox_oldest_waiting_seconds")).toBe(0);
      expect(valueOf(samples, "mail_outbox_failed_24h")).toBe(0);
      expect(valueOf(samples, "newsletter_queue_waiting")).toBe(0);
    });
  });

  describe("the backups", () => {
    const HOUR = 3600;
    beforeEach(async () => {
      await t.database.db.delete(backupRuns);
    });
    const run = (
      status: "running" | "done" | "failed",
      startedSecondsAgo: number,
      finishedSecondsAgo: number | null,
      drillStatus: "passed" | "failed" | null = null,
    ) => {
      const now = Date.now();
      return {
        trigger: "command",
        requestedBy: "command line",
        status,
        startedAt: new Date(now - startedSecondsAgo * 1000),
        finishedAt: finishedSecondsAgo === null ? null : new Date(now - finishedSecondsAgo * 1000),
        drillStatus,
      };
    };

    it("leaves the backup gauges out when no backup has run", async () => {
      const samples = await scrape();
      expect(valueOf(samples, "metrics_database_up")).toBe(1);
      expect(valueOf(samples, "backup_last_success_age_seconds")).toBeUndefined();
      expect(valueOf(samples, "backup_last_result")).toBeUndefined();
      expect(valueOf(samples, "backup_last_drill_passed")).toBeUndefined();
    });

    it("gauges the last success's age, the last result and the last drill", async () => {
      await t.database.db
        .insert(backupRuns)
        .values([
          run("done", 50 * HOUR, 49 * HOUR, "passed"),
          run("done", 26 * HOUR, 25 * HOUR, "failed"),
          run("failed", 2 * HOUR, 1.9 * HOUR),
          run("running", 600, null),
        ]);
      let samples = await scrape();
      const age = valueOf(samples, "backup_last_success_age_seconds")!;
      expect(age).toBeGreaterThanOrEqual(25 * HOUR);
      expect(age).toBeLessThan(25 * HOUR + 300);
      expect(valueOf(samples, "backup_last_result")).toBe(0);
      expect(valueOf(samples, "backup_last_drill_passed")).toBe(0);

      await t.database.db.insert(backupRuns).values(run("done", 1800, 1200, "passed"));
      samples = await scrape();
      const newAge = valueOf(samples, "backup_last_success_age_seconds")!;
      expect(newAge).toBeGreaterThanOrEqual(1200);
      expect(newAge).toBeLessThan(1200 + 300);
      expect(valueOf(samples, "backup_last_result")).toBe(1);
      expect(valueOf(samples, "backup_last_drill_passed")).toBe(1);
    });

    it("takes the newest finished run by when it finished", async () => {
      // The success started first and finished last: it is the newest finished run.
      await t.database.db.insert(backupRuns).values([run("done", 5 * HOUR, HOUR), run("failed", 3 * HOUR, 2 * HOUR)]);
      const samples = await scrape();
      expect(valueOf(samples, "backup_last_result")).toBe(1);
      const age = valueOf(samples, "backup_last_success_age_seconds")!;
      expect(age).toBeGreaterThanOrEqual(HOUR);
      expect(age).toBeLessThan(HOUR + 300);
      expect(valueOf(samples, "backup_last_drill_passed")).toBeUndefined();
    });
  });
});
