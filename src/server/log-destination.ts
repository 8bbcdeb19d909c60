import pino from "pino";

/** Lines are written once this many bytes are queued (about 15 request lines)… */
const BATCH_BYTES = 4096;
/** …or this long after the last write, so that a quiet site's lines do not wait. */
const BATCH_MS = 250;

export type LogDestination = {
  stream: ReturnType<typeof pino.destination>;
  /** Writes out every line still held, then closes the destination: the last step before exit. */
  flush: () => Promise<void>;
};

/**
 * Standard output for the production log (JSON lines), written without blocking the event loop
 * and in batches: a line is queued in memory, and the queue goes out in one asynchronous write
 * once it holds BATCH_BYTES or every BATCH_MS. One write per line, synchronous or not, cost a
 * cached page about 30% of its rate (docs/decisions/025-the-access-log-is-written-in-batches.md).
 * What is still queued when the process stops is written out by flush() on the way out (and,
 * should the process exit some other way, synchronously by pino's own exit hook).
 */
export function createLogDestination(): LogDestination {
  const stream = pino.destination({ sync: false, minLength: BATCH_BYTES, periodicFlush: BATCH_MS });
  let flushed: Promise<void> | undefined;
  return {
    stream,
    flush: () =>
      (flushed ??= new Promise<void>((resolve) => {
        stream.once("close", () => resolve());
        // A closed or broken stdout: nothing more can be written, and shutting down goes on.
        stream.once("error", () => resolve());
        stream.end();
      })),
  };
}
