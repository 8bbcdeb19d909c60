import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../../src/server/db/client.ts";
import { applyMigrations } from "../../../src/server/db/migrate.ts";
import { newsletters, staff } from "../../../src/server/db/schema.ts";
import { createSmtpTransport } from "../../../src/server/mail/smtp-transport.ts";
import { sendNewsletter } from "../../../src/server/newsletter/queue.ts";
import { NewsletterSender } from "../../../src/server/newsletter/sender.ts";
import { SmtpPeer } from "../../../test/smtp-peer.ts";
import { createScratchDatabase, postgresAnswers, sleep } from "../processes.ts";
import { table } from "../report.ts";
import { defineSection } from "../section.ts";

// The newsletter's sending (docs/performance.md, "Newsletter"; decision 045), in this process,
// through the same functions the site runs:
// - Queueing: RECIPIENTS confirmed subscribers, then sendNewsletter timed (one transaction: lock
//   the newsletter, freeze its snapshot, one insert … select of an outbox row per subscriber), on
//   the embedded database (files on disk, as the site keeps them) and on PostgreSQL when one
//   answers at BENCH_POSTGRES_URL. QUEUE_RUNS newsletters each, to the same subscribers.
// - Pace: a NewsletterSender at PACE a minute sends to a local SMTP peer (test/smtp-peer.ts, the
//   smtp-server package) for SEND_SECONDS; the mails received, counted per second, give the rate
//   a minute against the pace. On the embedded database.

const RECIPIENTS = 10_000;
const QUEUE_RUNS = 3;
const PACE = 600;
const SEND_SECONDS = 30;

type QueueRun = { database: string; recipients: number; runsMs: number[] };

export type NewsletterResult = {
  queue: QueueRun[];
  pace: {
    perMinute: number;
    seconds: number;
    received: number;
    perMinuteMeasured: number;
    busiestSecond: number;
    busiestMinute: number;
  };
};

const round = (value: number) => Math.round(value * 10) / 10;
const silent = pino({ level: "silent" });

async function prepared(db: Awaited<ReturnType<typeof openDatabase>>["db"], subscribers: number) {
  await applyMigrations(db);
  const [admin] = await db
    .insert(staff)
    .values({ email: "bench@example.com", name: "Bench", role: "admin", webauthnUserId: "bench" })
    .returning({ id: staff.id });
  await db.execute(
    sql`insert into newsletter_subscribers (email, status, confirmed_at)
        select 'reader' || n || '@example.com', 'confirmed', now() from generate_series(1, ${subscribers}) as n`,
  );
  const draft = async (campaign: string) => {
    const [row] = await db
      .insert(newsletters)
      .values({ subject: "Bench newsletter", introduction: "Hello.", campaign })
      .returning({ id: newsletters.id, version: newsletters.version });
    return row!;
  };
  return { actor: { id: admin!.id, label: "Bench" }, draft };
}

async function timeQueueing(
  label: string,
  options: { databaseUrl?: string; dataDir: string },
  progress: (line: string) => void,
): Promise<QueueRun> {
  const handle = await openDatabase(options);
  try {
    const { actor, draft } = await prepared(handle.db, RECIPIENTS);
    const runsMs: number[] = [];
    for (let run = 0; run < QUEUE_RUNS; run += 1) {
      const newsletter = await draft(`bench-${run}`);
      const started = performance.now();
      const result = await sendNewsletter(handle.db, {
        newsletterId: newsletter.id,
        expectedVersion: newsletter.version,
        actor,
        now: new Date(),
      });
      const ms = performance.now() - started;
      if (!result.ok || result.queued !== RECIPIENTS) throw new Error(`queueing answered ${JSON.stringify(result)}`);
      runsMs.push(round(ms));
      progress(`newsletter: ${label}: ${RECIPIENTS} recipients queued in ${round(ms)} ms`);
    }
    return { database: label, recipients: RECIPIENTS, runsMs };
  } finally {
    await handle.close();
  }
}

async function measurePace(dataDir: string, progress: (line: string) => void): Promise<NewsletterResult["pace"]> {
  const handle = await openDatabase({ dataDir });
  const peer = await SmtpPeer.start();
  // More subscribers than the run can send, so the pace, not the list, ends it.
  const { actor, draft } = await prepared(handle.db, Math.ceil((PACE * SEND_SECONDS) / 60) * 2);
  const newsletter = await draft("bench-pace");
  const sender = new NewsletterSender({
    db: handle.db,
    transport: createSmtpTransport(peer.url),
    from: "newsletter@sabarmatigrid.example",
    siteUrl: "https://sabarmatigrid.example",
    secret: "bench-secret-of-enough-length",
    log: silent,
    perMinute: PACE,
  });
  const arrivals: number[] = [];
  try {
    await sendNewsletter(handle.db, { newsletterId: newsletter.id, expectedVersion: 1, actor, now: new Date() });
    const started = performance.now();
    let seen = 0;
    sender.start();
    while (performance.now() - started < SEND_SECONDS * 1000) {
      await sleep(50);
      for (; seen < peer.messages.length; seen += 1) arrivals.push(performance.now() - started);
    }
    await sender.stop();
  } finally {
    await peer.stop();
    await handle.close();
  }
  const received = arrivals.filter((at) => at < SEND_SECONDS * 1000).length;
  const perSecond = new Map<number, number>();
  for (const at of arrivals) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
  const result = {
    perMinute: PACE,
    seconds: SEND_SECONDS,
    received,
    perMinuteMeasured: round((received / SEND_SECONDS) * 60),
    busiestSecond: Math.max(0, ...perSecond.values()),
    // The run is shorter than a minute: every mail of it fell within one.
    busiestMinute: arrivals.length,
  };
  progress(`newsletter: ${received} mails in ${SEND_SECONDS} s at a pace of ${PACE} a minute`);
  return result;
}

export const newsletterSection = defineSection<NewsletterResult>({
  name: "newsletter",
  description: `the newsletter: queueing ${RECIPIENTS} recipients in one transaction, then sending at ${PACE} a minute to a local SMTP peer`,
  usesWrk: false,
  async run(settings, progress) {
    const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-newsletter-"));
    try {
      const queue = [await timeQueueing("embedded (PGlite)", { dataDir: path.join(scratch, "queue") }, progress)];
      if (settings.postgresUrl && (await postgresAnswers(settings.postgresUrl))) {
        const database = await createScratchDatabase(settings.postgresUrl);
        try {
          queue.push(await timeQueueing("PostgreSQL", { databaseUrl: database.url, dataDir: "unused" }, progress));
        } finally {
          await database.drop();
        }
      }
      const pace = await measurePace(path.join(scratch, "pace"), progress);
      return { queue, pace };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
  format(result) {
    return [
      `Newsletter: queueing (sendNewsletter, one transaction) and sending at a pace`,
      table(
        ["database", "recipients", ...result.queue[0]!.runsMs.map((_, run) => `run ${run + 1} (ms)`)],
        result.queue.map((run) => [run.database, run.recipients, ...run.runsMs]),
      ),
      table(
        ["pace (a minute)", "run (s)", "mails received", "a minute, measured", "busiest second", "within one minute"],
        [
          [
            result.pace.perMinute,
            result.pace.seconds,
            result.pace.received,
            result.pace.perMinuteMeasured,
            result.pace.busiestSecond,
            result.pace.busiestMinute,
          ],
        ],
      ),
    ].join("\n\n");
  },
});
