import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * How long, at most, the event loop was held while `work` ran, in ms: what a second client (a
 * `/healthz` poll) would have waited. A request whose synchronous work grows with what a user
 * sends shows here as seconds; docs/testing.md.
 */
export async function longestEventLoopStall(work: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    // The histogram's timer records a delay from its second tick on: a block that began before
    // then (a query run at once) went unseen, so the work starts after a few ticks.
    await new Promise((resolve) => setTimeout(resolve, 30));
    await work();
    // One more turn, so that a block at the very end is measured too.
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    histogram.disable();
  }
  return histogram.max / 1e6;
}

/** The most the event loop may be held by one request: a health check waits no longer. */
export const EVENT_LOOP_BUDGET_MS = 500;
