import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "./config.ts";
import { contactSubmissions, mailOutbox } from "./db/schema.ts";
import { type Site, startSite } from "./site.ts";
import { createTestDatabase, testDrivers } from "../../test/databases.ts";
import { enquiry, TEST_FORM_SECRET } from "../../test/enquiry-fixtures.ts";
import { SmtpPeer } from "../../test/smtp-peer.ts";

// Enquiries through the real HTTP server, all at once, with the real mail worker and a real SMTP
// server: every one stored once and mailed once. How long 1,000 take is measured by
// `npm run bench -- --only enquiries` (docs/performance.md), not here.

const ENQUIRIES = 50;
const CONCURRENCY = 50;

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await run(item);
      }
    }),
  );
}

describe.each(testDrivers)("enquiries under load on %s", (driver) => {
  let site: Site | undefined;
  let peer: SmtpPeer | undefined;
  afterEach(async () => {
    await site?.close();
    await peer?.stop();
    site = undefined;
    peer = undefined;
  });

  async function start() {
    peer = await SmtpPeer.start();
    const database = await createTestDatabase(driver, { from: "empty" });
    const config = parseConfig({
      NODE_ENV: "test",
      PORT: "0",
      FORM_SECRET: TEST_FORM_SECRET,
      RATE_LIMIT_PER_MINUTE: "1000000",
      SMTP_URL: peer.url,
      MAIL_FROM: "website@sabarmatigrid.example",
      MAIL_TO: "enquiries@sabarmatigrid.example",
    });
    site = await startSite({
      config,
      database: { ...database, close: database.drop },
      syncContent: false,
      outboxOptions: { pollIntervalMs: 200 },
    });
    await site.app.listen({ port: 0, host: "127.0.0.1" });
    const address = site.app.server.address();
    if (typeof address !== "object" || !address) throw new Error("not listening");
    return `http://127.0.0.1:${address.port}`;
  }

  async function post(base: string, payload: Record<string, unknown>): Promise<number> {
    const response = await fetch(`${base}/api/contact`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    await response.arrayBuffer();
    return response.status;
  }

  it(`stores and mails ${ENQUIRIES} concurrent enquiries exactly once each`, async () => {
    const base = await start();
    const statuses: number[] = [];
    const payloads = Array.from({ length: ENQUIRIES }, (_, i) => enquiry({ firstName: `Visitor${i}` }));
    await inBatches(payloads, CONCURRENCY, async (payload) => {
      statuses.push(await post(base, payload));
    });
    await peer!.waitForMessages(ENQUIRIES, 20_000);
    await site!.outbox?.stop();

    expect(statuses.filter((status) => status === 201)).toHaveLength(ENQUIRIES);
    expect(await site!.database.db.$count(contactSubmissions)).toBe(ENQUIRIES);
    expect(peer!.messages).toHaveLength(ENQUIRIES);
    const subjects = new Set(peer!.messages.map((mail) => mail.headers.get("subject")?.[0]));
    expect(subjects.size).toBe(ENQUIRIES);
  });

  it(`still stores and mails ${ENQUIRIES} when every enquiry is sent twice with the same key`, async () => {
    const base = await start();
    const payloads = Array.from({ length: ENQUIRIES }, (_, i) =>
      enquiry({ firstName: `Twice${i}`, idempotencyKey: randomUUID() }),
    );
    const statuses: number[] = [];
    await inBatches(
      [...payloads, ...payloads].sort(() => Math.random() - 0.5),
      CONCURRENCY,
      async (payload) => {
        statuses.push(await post(base, payload));
      },
    );
    await peer!.waitForMessages(ENQUIRIES, 20_000);
    // Any duplicate mail would have been claimed by now: stop the worker and count.
    await site!.outbox?.stop();

    expect(statuses.every((status) => status === 201 || status === 200)).toBe(true);
    expect(statuses.filter((status) => status === 201)).toHaveLength(ENQUIRIES);
    expect(await site!.database.db.$count(contactSubmissions)).toBe(ENQUIRIES);
    expect(await site!.database.db.$count(mailOutbox)).toBe(ENQUIRIES);
    expect(peer!.messages).toHaveLength(ENQUIRIES);
  });
});
