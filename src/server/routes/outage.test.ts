import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { parseConfig } from "../config.ts";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { createTestDatabase, onPglite, onPostgres, type TestDatabase } from "../../../test/databases.ts";
import { enquiry, formBody, TEST_FORM_SECRET } from "../../../test/enquiry-fixtures.ts";
import { testRenderer } from "../../../test/build-test-app.ts";
import { addLibraryPicture } from "../../../test/responsive-fixtures.ts";
import { freePort } from "../../../test/smtp-peer.ts";
import { SilentTcpServer, TcpProxy } from "../../../test/tcp-proxy.ts";
import type { FastifyInstance } from "fastify";

// Needs a PostgreSQL server to cut off: runs when TEST_DATABASE_URL is set (it is in CI).
describe.runIf(onPostgres)("enquiries while PostgreSQL is unreachable", () => {
  let target: TestDatabase;
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    target = await createTestDatabase("postgres", { from: "empty" });
    const url = new URL(target.url!);
    proxy = new TcpProxy(await freePort(), { host: url.hostname, port: Number(url.port || 5432) });
    await proxy.up();
    url.host = `127.0.0.1:${proxy.port}`;
    handle = await openDatabase({ databaseUrl: url.toString(), dataDir: "unused" });
    const config = parseConfig({ NODE_ENV: "test", FORM_SECRET: TEST_FORM_SECRET, RATE_LIMIT_PER_MINUTE: "1000" });
    app = await buildApp({ config, db: handle.db, renderer: testRenderer(config.siteUrl) });
  });
  afterAll(async () => {
    await app.close();
    await handle.close();
    await proxy.down();
    await target.drop();
  });

  it("answers 503 with a clear message, keeps running, and recovers by itself when the database is back", async () => {
    expect((await app.inject({ method: "POST", url: "/api/contact", payload: enquiry() })).statusCode).toBe(201);

    await proxy.down();
    const during = await app.inject({ method: "POST", url: "/api/contact", payload: enquiry() });
    expect(during.statusCode).toBe(503);
    expect(during.headers["retry-after"]).toBe("30");
    expect(during.json()).toEqual({
      error: "Service Unavailable",
      message: expect.stringMatching(/could not store your enquiry/),
    });
    const newsletter = await app.inject({
      method: "POST",
      url: "/api/newsletter",
      payload: { email: "a@example.com" },
    });
    expect(newsletter.statusCode).toBe(503);
    expect((await app.inject({ method: "GET", url: "/api/unknown" })).statusCode).toBe(404);

    await proxy.up();
    const after = await app.inject({ method: "POST", url: "/api/contact", payload: enquiry() });
    expect(after.statusCode).toBe(201);
  });

  it("answers a picture it cannot read with 503 and when to ask again, never a 500, and serves it once the database is back", async () => {
    const picture = await addLibraryPicture(handle.db, { width: 800, height: 600 });
    const address = picture.reference;
    const variant = `/media/${picture.key}/320.webp`;
    await proxy.down();
    let during;
    let variantDuring;
    try {
      during = await app.inject({ method: "GET", url: address });
      variantDuring = await app.inject({ method: "GET", url: variant });
    } finally {
      await proxy.up();
    }
    for (const answer of [during, variantDuring]) {
      expect(answer.statusCode).toBe(503);
      expect(answer.headers["retry-after"]).toBe("5");
      expect(answer.headers["cache-control"]).toBe("no-store");
      expect(answer.json()).toEqual({
        error: "Service Unavailable",
        message: expect.stringMatching(/cannot be read right now/),
      });
    }
    const after = await app.inject({ method: "GET", url: variant });
    expect(after.statusCode).toBe(200);
    expect(after.headers["content-type"]).toBe("image/webp");
  });

  it("answers a page whose data cannot be loaded without keeping it, and the blog reads its articles in the browser", async () => {
    const islandsOf = (html: string) =>
      JSON.parse(/<script type="application\/json" id="islands">([\s\S]*?)<\/script>/.exec(html)![1]!) as [
        string,
        { posts?: unknown },
      ][];
    await proxy.down();
    let during;
    try {
      during = await app.inject({ method: "GET", url: "/blog" });
    } finally {
      await proxy.up();
    }
    expect(during.statusCode).toBe(200);
    expect(during.headers["cache-control"]).toBe("no-store");
    expect(during.body).toContain("Loading articles...");
    expect(islandsOf(during.body).find(([name]) => name === "blogArticles")?.[1].posts).toBeNull();

    // Not kept: once the database is back, the next request renders the page with its data.
    const after = await app.inject({ method: "GET", url: "/blog" });
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain("Loading articles...");
    expect(islandsOf(after.body).find(([name]) => name === "blogArticles")?.[1].posts).toEqual([]);
  });

  it("answers a form post during an outage with the contact page and the visitor's values, status 503", async () => {
    await proxy.down();
    try {
      const response = await app.inject({
        method: "POST",
        url: "/contact",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: formBody(enquiry()),
      });
      expect(response.statusCode).toBe(503);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.body).toContain("We could not store your enquiry just now.");
      expect(response.body).toContain('value="asha.patel@example.com"');
    } finally {
      await proxy.up();
    }
  });
});

// It needs no server of either driver: it runs once, in the project every run has.
describe.runIf(onPglite)("a PostgreSQL server that accepts connections but never answers", () => {
  it(
    "gets /readyz a 503 within about 2 s and an enquiry a 503, instead of hanging them",
    { timeout: 60_000 },
    async () => {
      const silent = await SilentTcpServer.start();
      const handle = await openDatabase({
        databaseUrl: `postgres://postgres@127.0.0.1:${silent.port}/site`,
        dataDir: "unused",
      });
      const config = parseConfig({ NODE_ENV: "test", FORM_SECRET: TEST_FORM_SECRET });
      const app = await buildApp({ config, db: handle.db });
      try {
        let started = Date.now();
        const ready = await app.inject({ method: "GET", url: "/readyz" });
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toEqual({ status: "unavailable", reason: "The database does not answer." });
        expect(Date.now() - started).toBeLessThan(3000);

        started = Date.now();
        const posted = await app.inject({ method: "POST", url: "/api/contact", payload: enquiry() });
        expect(posted.statusCode).toBe(503);
        expect(posted.json().message).toMatch(/could not store your enquiry/);
        // The pool gives up connecting after 5 s.
        expect(Date.now() - started).toBeLessThan(8000);
      } finally {
        await app.close();
        await handle.close();
        await silent.stop();
      }
    },
  );
});
