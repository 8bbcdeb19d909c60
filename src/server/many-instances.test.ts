import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, queryRows } from "./db/client.ts";
import { contactSubmissions } from "./db/schema.ts";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../test/databases.ts";
import { enquiry, TEST_FORM_SECRET } from "../../test/enquiry-fixtures.ts";
import { type ServerProcess, startServerProcess } from "../../test/server-process.ts";
import { SmtpPeer } from "../../test/smtp-peer.ts";

// Two real server processes over one PostgreSQL, started at the same moment from an empty
// database, behave as one site.

const ENQUIRIES = 1000;
const CONCURRENCY = 50;

async function post(server: ServerProcess, payload: Record<string, unknown>): Promise<number> {
  try {
    const response = await fetch(`${server.baseUrl}/api/contact`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

describe.runIf(onPostgres)("two instances over one PostgreSQL", () => {
  let database: TestDatabase | undefined;
  let peer: SmtpPeer | undefined;
  const servers: ServerProcess[] = [];

  afterEach(async () => {
    for (const server of servers.splice(0)) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill("SIGTERM");
        await server.exited;
      }
    }
    await peer?.stop();
    await database?.drop();
    peer = database = undefined;
  });

  async function startPair(extra: Record<string, string> = {}) {
    database = await createTestDatabase("postgres");
    peer = await SmtpPeer.start();
    const env = {
      DATABASE_URL: database.url!,
      FORM_SECRET: TEST_FORM_SECRET,
      RATE_LIMIT_PER_MINUTE: "1000000",
      SMTP_URL: peer.url,
      MAIL_FROM: "website@sabarmatigrid.example",
      MAIL_TO: "enquiries@sabarmatigrid.example",
      MAIL_LEASE_MS: "3000",
      ...extra,
    };
    const pair = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    servers.push(...pair);
    await Promise.all(pair.map((server) => server.ready()));
    return pair as [ServerProcess, ServerProcess];
  }

  async function countRows() {
    const handle = await openDatabase({ databaseUrl: database!.url, dataDir: "unused" });
    try {
      return await handle.db.$count(contactSubmissions);
    } finally {
      await handle.close();
    }
  }

  /**
   * Waits until every queued mail is recorded as sent. A row is marked sent only after the SMTP
   * server took it, so from then on no send is in flight and the peer holds every message,
   * repeats included: nothing more can arrive.
   */
  async function waitUntilEveryMailIsSent(expected: number) {
    const handle = await openDatabase({ databaseUrl: database!.url, dataDir: "unused" });
    try {
      await vi.waitFor(
        async () => {
          const rows = await queryRows<{ status: string; count: number }>(
            handle.db,
            sql`select status, count(*)::int as count from mail_outbox group by status`,
          );
          expect(rows).toEqual([{ status: "sent", count: expected }]);
        },
        { timeout: 120_000, interval: 250 },
      );
    } finally {
      await handle.close();
    }
  }

  it(
    `both become ready from an empty database, and ${ENQUIRIES} enquiries spread over them are stored and mailed once each`,
    { timeout: 180_000 },
    async () => {
      const started = performance.now();
      const [a, b] = await startPair();
      const payloads = Array.from({ length: ENQUIRIES }, (_, i) =>
        enquiry({ firstName: `Visitor${i}`, idempotencyKey: randomUUID() }),
      );
      let next = 0;
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < payloads.length) {
            const index = next++;
            statuses.push(await post(index % 2 ? b : a, payloads[index]!));
          }
        }),
      );
      await waitUntilEveryMailIsSent(ENQUIRIES);
      expect(statuses.filter((status) => status === 201)).toHaveLength(ENQUIRIES);
      expect(await countRows()).toBe(ENQUIRIES);
      expect(peer!.messages).toHaveLength(ENQUIRIES);
      console.log(
        `two instances: ${ENQUIRIES} sent, ${await countRows()} stored, ${peer!.messages.length} mailed in ${Math.round(performance.now() - started)} ms (start-up included)`,
      );
    },
  );

  it(
    `still ends with ${ENQUIRIES} rows and ${ENQUIRIES} distinct mails when one instance is killed midway`,
    { timeout: 180_000 },
    async () => {
      const started = performance.now();
      const [a, b] = await startPair();
      const payloads = Array.from({ length: ENQUIRIES }, (_, i) =>
        enquiry({ firstName: `Killed${i}`, idempotencyKey: randomUUID() }),
      );
      let next = 0;
      let resent = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < payloads.length) {
            const index = next++;
            if (index === ENQUIRIES / 2) a.child.kill("SIGKILL");
            const target = index % 2 && a.child.signalCode === null ? a : b;
            const status = await post(target, payloads[index]!);
            if (status !== 201 && status !== 200) {
              // What the browser outbox does: the same enquiry, the same key, to whichever instance answers.
              resent += 1;
              expect([200, 201]).toContain(await post(b, payloads[index]!));
            }
          }
        }),
      );
      expect(a.child.signalCode).toBe("SIGKILL");
      // Mail the killed instance had claimed is sent by the survivor once the 3 s lease runs out.
      await waitUntilEveryMailIsSent(ENQUIRIES);
      const messageIds = new Set(peer!.messages.map((mail) => mail.headers.get("message-id")?.[0]));
      const subjects = new Set(peer!.messages.map((mail) => mail.headers.get("subject")?.[0]?.replace(/.* from /, "")));
      expect(await countRows()).toBe(ENQUIRIES);
      expect(messageIds.size).toBe(ENQUIRIES);
      expect(subjects.size).toBe(ENQUIRIES);
      const duplicates = peer!.messages.length - messageIds.size;
      // A message the dead instance handed to SMTP in the instant before recording it as sent can go
      // out once more, with the same Message-ID (receivers drop such a repeat): at most that one.
      expect(duplicates).toBeLessThanOrEqual(1);
      console.log(
        `two instances, one killed: ${ENQUIRIES} sent (${resent} re-sent to the survivor), ${await countRows()} stored, ` +
          `${messageIds.size} distinct mails (${duplicates} repeated Message-IDs) in ${Math.round(performance.now() - started)} ms`,
      );
    },
  );

  it(
    "share the rate limit: a client's fourth post in a minute is refused whichever instance it reaches",
    { timeout: 60_000 },
    async () => {
      const [a, b] = await startPair({ RATE_LIMIT_PER_MINUTE: "3" });
      const statuses = [
        await post(a, enquiry()),
        await post(b, enquiry()),
        await post(a, enquiry()),
        await post(b, enquiry()),
      ];
      expect(statuses).toEqual([201, 201, 201, 429]);
    },
  );
});
