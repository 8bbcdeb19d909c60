import { randomUUID } from "node:crypto";
import { issueFormToken } from "../../../src/server/enquiries/form-token.ts";
import { SmtpPeer } from "../../../test/smtp-peer.ts";
import { createScratchDatabase, postgresAnswers, type SiteProcess, startSite } from "../processes.ts";
import { table } from "../report.ts";
import { defineSection } from "../section.ts";

// Enquiries under load (docs/performance.md, "Enquiries under load"): the production build with
// its mail worker and a local SMTP peer (test/smtp-peer.ts, the smtp-server package); ENQUIRIES
// enquiries posted to /api/contact, CONCURRENCY at a time, then the same again with every enquiry
// sent twice under one idempotency key (a browser's retry). Timed: until every answer came (each
// stored), and until every mail arrived. Checked: every enquiry answered 201 once, and exactly
// ENQUIRIES distinct mails. On the embedded database, and on PostgreSQL when one answers at
// BENCH_POSTGRES_URL. The suite keeps the behaviour with 50 at once (src/server/enquiry-load.test.ts).

const ENQUIRIES = 1000;
const CONCURRENCY = 50;
const FORM_SECRET = "bench-form-secret-0123456789";

type Run = { database: string; kind: string; requests: number; storedMs: number; mailedMs: number; mails: number };
export type EnquiriesResult = { runs: Run[] };

function enquiry(index: number, idempotencyKey = randomUUID()) {
  return {
    firstName: `Visitor${index}`,
    lastName: "Bench",
    email: `visitor${index}@example.com`,
    company: "Kutch Solar Park Pvt Ltd",
    service: "grid-integration",
    message: "We need a grid connectivity study for a 120 MW solar plant at a 220 kV substation.",
    // Issued a while ago, as a page rendered before the visitor typed.
    formToken: issueFormToken(FORM_SECRET, Date.now() - 10_000),
    idempotencyKey,
  };
}

async function postAll(base: string, payloads: object[]): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < payloads.length) {
        const payload = payloads[next++]!;
        const response = await fetch(`${base}/api/contact`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(payload),
        });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    }),
  );
  return statuses;
}

async function measure(
  database: string,
  start: (smtpUrl: string) => Promise<SiteProcess>,
  progress: (line: string) => void,
): Promise<Run[]> {
  const runs: Run[] = [];
  for (const kind of ["once each", "each twice, one key"] as const) {
    const peer = await SmtpPeer.start();
    const site = await start(peer.url);
    try {
      const payloads =
        kind === "once each"
          ? Array.from({ length: ENQUIRIES }, (_, index) => enquiry(index))
          : Array.from({ length: ENQUIRIES }, (_, index) => enquiry(index)).flatMap((payload) => [payload, payload]);
      if (kind !== "once each") payloads.sort(() => Math.random() - 0.5);
      const started = performance.now();
      const statuses = await postAll(site.base, payloads);
      const storedMs = performance.now() - started;
      await peer.waitForMessages(ENQUIRIES, 300_000);
      const mailedMs = performance.now() - started;
      const created = statuses.filter((status) => status === 201).length;
      const refused = statuses.filter((status) => status !== 201 && status !== 200);
      if (created !== ENQUIRIES || refused.length)
        throw new Error(`${database}, ${kind}: ${created} answered 201, refused: ${refused.slice(0, 5).join(", ")}`);
      // Any mail sent twice would have arrived by now.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const subjects = new Set(peer.messages.map((mail) => mail.headers.get("subject")?.[0]));
      if (peer.messages.length !== ENQUIRIES || subjects.size !== ENQUIRIES)
        throw new Error(`${database}, ${kind}: ${peer.messages.length} mails, ${subjects.size} distinct`);
      runs.push({
        database,
        kind,
        requests: payloads.length,
        storedMs: Math.round(storedMs),
        mailedMs: Math.round(mailedMs),
        mails: peer.messages.length,
      });
      progress(
        `enquiries: ${database}, ${kind}: stored in ${Math.round(storedMs)} ms, mailed in ${Math.round(mailedMs)} ms`,
      );
    } finally {
      await site.stop();
      await peer.stop();
    }
  }
  return runs;
}

export const enquiriesSection = defineSection<EnquiriesResult>({
  name: "enquiries",
  description: `${ENQUIRIES} enquiries, ${CONCURRENCY} at a time, through the site with its mail worker and an SMTP peer: until stored, until mailed`,
  usesWrk: false,
  async run(settings, progress) {
    const env = (smtpUrl: string) => ({
      FORM_SECRET,
      RATE_LIMIT_PER_MINUTE: "1000000",
      SMTP_URL: smtpUrl,
      MAIL_FROM: "website@sabarmatigrid.example",
      MAIL_TO: "enquiries@sabarmatigrid.example",
    });
    const runs = await measure(
      "embedded (PGlite)",
      (smtpUrl) => startSite({ logLevel: "warn", env: env(smtpUrl) }),
      progress,
    );
    if (settings.postgresUrl && (await postgresAnswers(settings.postgresUrl))) {
      const databases: { drop: () => Promise<void> }[] = [];
      try {
        runs.push(
          ...(await measure(
            "PostgreSQL",
            async (smtpUrl) => {
              const database = await createScratchDatabase(settings.postgresUrl);
              databases.push(database);
              return startSite({ logLevel: "warn", databaseUrl: database.url, env: env(smtpUrl) });
            },
            progress,
          )),
        );
      } finally {
        for (const database of databases) await database.drop();
      }
    }
    return { runs };
  },
  format(result) {
    return [
      `Enquiries under load: ${ENQUIRIES} through the site, ${CONCURRENCY} at a time`,
      table(
        ["database", "sent", "requests", "all stored (ms)", "all mailed (ms)", "mails"],
        result.runs.map((run) => [run.database, run.kind, run.requests, run.storedMs, run.mailedMs, run.mails]),
      ),
    ].join("\n\n");
  },
});
