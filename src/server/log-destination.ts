import pino from "pino";

export type LogDestination = {
  stream: ReturnType<typeof pino.destination>;
  /** Writes out every line still held, then closes the destination: the last step before exit. */
  flush: () => Promise<void>;
};

/**
 * Standard output for the production log (JSON lines), written without blocking the event loop:
 * a line is queued in memory and written by the next asynchronous write, so under load many
 * lines go out in one system call instead of one synchronous write per line. What is still
 * queued when the process stops is written out by flush() on the way out (and, should the
 * process exit some other way, synchronously by pino's own exit hook).
 */
export function createLogDestination(): LogDestination {
  const stream = pino.destination({ sync: false });
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
