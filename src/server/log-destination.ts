import pino from "pino";

/** Lines are handed to stdout once this many characters are queued (about 15 request lines)… */
const BATCH_CHARS = 4096;
/** …and at least this often, so that a quiet site's lines do not wait. */
const BATCH_MS = 250;

export type LogDestination = {
  stream: ReturnType<typeof pino.destination>;
  /** Writes out every line still held, then closes the destination: the last step before exit. */
  flush: () => Promise<void>;
};

/**
 * Standard output for the production log (JSON lines), written without blocking the event loop
 * and in batches: a line is queued in memory, and the queue goes out in one asynchronous write
 * once it holds BATCH_CHARS or every BATCH_MS. One write per line, synchronous or not, cost a
 * cached page about 30% of its rate (docs/decisions/025-the-access-log-is-written-in-batches.md).
 *
 * The batch is kept here, in front of pino's destination (sonic-boom), not by the destination's
 * own `minLength`: sonic-boom measures the UTF-8 length of everything it holds on every line it
 * is given, which cost a cached page about 6% of its CPU. Here a line costs a string append, and
 * the destination sees one write per batch. What is still queued when the process stops is
 * written out by flush() on the way out, or, should the process exit some other way,
 * synchronously by pino's own exit hook, which calls the destination's flushSync().
 */
export function createLogDestination(): LogDestination {
  const stream = pino.destination({ sync: false });
  const destination = {
    write: stream.write.bind(stream),
    flush: stream.flush.bind(stream),
    flushSync: stream.flushSync.bind(stream),
    end: stream.end.bind(stream),
  };
  let queued = "";
  const handOver = () => {
    if (queued === "") return true;
    const batch = queued;
    queued = "";
    return destination.write(batch);
  };
  stream.write = (line: string) => {
    queued += line;
    return queued.length >= BATCH_CHARS ? handOver() : true;
  };
  stream.flush = (callback?: (error?: Error) => void) => {
    handOver();
    destination.flush(callback);
  };
  stream.flushSync = () => {
    handOver();
    destination.flushSync();
  };
  const timer = setInterval(handOver, BATCH_MS);
  timer.unref();
  stream.end = () => {
    clearInterval(timer);
    handOver();
    destination.end();
  };

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
