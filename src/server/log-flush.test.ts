import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_FORM_SECRET } from "../../test/enquiry-fixtures.ts";
import { startServerProcess } from "../../test/server-process.ts";

// The production log is written asynchronously (log-destination.ts): a line is queued and
// written later. A shutdown must still write every line out before the process exits: the
// requests answered just before SIGTERM, and the shutdown's own lines, the last of them logged
// just before the exit.

const REQUESTS = 200;

describe("the access log at shutdown", () => {
  it(
    "writes the line of every request answered around SIGTERM before the process says it stopped",
    { timeout: 120_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), "site-log-flush-"));
      try {
        const server = await startServerProcess({
          DATA_DIR: dataDir,
          FORM_SECRET: TEST_FORM_SECRET,
          LOG_LEVEL: "info",
        });
        await server.ready();

        // Many requests at once, and SIGTERM as soon as the first is answered: the lines of the
        // requests answered around the signal are logged moments before the process exits.
        const answeredIds: string[] = [];
        let firstAnswered: () => void = () => {};
        const serverIsAnswering = new Promise<void>((resolve) => (firstAnswered = resolve));
        const requests = Array.from({ length: REQUESTS }, async () => {
          try {
            const response = await fetch(`${server.baseUrl}/`);
            await response.arrayBuffer();
            const id = response.headers.get("x-request-id");
            if (id) answeredIds.push(id);
            firstAnswered();
          } catch {
            // Cut off by the shutdown: never answered, so never logged either.
          }
        });
        await serverIsAnswering;
        server.child.kill("SIGTERM");
        await Promise.all(requests);
        expect(await server.exited).toBe(0);

        const output = server.output();
        const stoppedAt = output.indexOf("Site stopped cleanly (SIGTERM).");
        expect(stoppedAt).toBeGreaterThan(0);
        // Only what was written before the process said it stopped counts: pino's exit hook would
        // write leftovers after that line, and a line kept in memory until then was not flushed.
        const lines = output
          .slice(0, stoppedAt)
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { msg?: string; requestId?: string });
        const loggedIds = new Set(
          lines.filter((line) => line.msg === "request completed").map((line) => line.requestId),
        );
        expect(answeredIds.length).toBeGreaterThan(0);
        expect(answeredIds.filter((id) => !loggedIds.has(id))).toEqual([]);
        expect(lines.some((line) => line.msg === "shutting down")).toBe(true);
        // Logged once the site has closed, a moment before the process exits: still queued then.
        expect(lines.some((line) => line.msg === "shut down")).toBe(true);
        console.log(
          `log flush: ${answeredIds.length} of ${REQUESTS} requests answered around SIGTERM, every one logged before exit`,
        );
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  it("writes the lines still queued when the process exits without a shutdown (pino's exit hook)", () => {
    // 1,000 lines written out (handed over, then every write done: the destination's "drain"),
    // then 10 more, under one batch: those are held in log-destination.ts alone when process.exit
    // runs, and only the exit hook can write them. (Waiting first keeps a batch still in flight
    // on libuv's thread pool out of the test: an exit does not wait for that write, which on a
    // loaded machine then landed after the exit hook's lines. `flush(callback)` alone does not
    // wait: the destination calls it back at once.)
    const script = [
      'import pino from "pino";',
      'import { createLogDestination } from "./src/server/log-destination.ts";',
      "const { stream } = createLogDestination();",
      "const logger = pino({ level: 'info' }, stream);",
      "for (let i = 0; i < 1000; i += 1) logger.info({ n: i }, 'line');",
      "stream.once('drain', () => {",
      "  for (let i = 1000; i < 1010; i += 1) logger.info({ n: i }, 'line');",
      "  process.exit(0);",
      "});",
      "stream.flush();",
    ].join("\n");
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(0);
    const numbers = run.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => (JSON.parse(line) as { n: number }).n);
    expect(numbers).toEqual(Array.from({ length: 1010 }, (_, i) => i));
  });
});
