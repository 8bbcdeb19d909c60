// At most so many pictures processed at once by this instance, the others waiting in line, and a
// bound on the line: past it a request is turned away at once (503 with Retry-After) instead of
// holding its upload in memory. A place in line is taken before an upload's body is read, so the
// memory held by waiting uploads is bounded too: (slots + waiting) × 20 MB at the very most.

export class ProcessingBusy extends Error {
  constructor() {
    super("The server is busy making other pictures ready. Please try again in a few seconds.");
  }
}

/** A place in line: run the work when a slot is free (once), or leave without running. */
export type Place = {
  run: <Result>(work: () => Promise<Result>) => Promise<Result>;
  leave: () => void;
};

export type QueueCounts = { running: number; waiting: number };

export class ProcessingQueue {
  private running = 0;
  private readonly waiters: (() => void)[] = [];
  /** Places taken and not yet running (waiting for a slot, or their upload still arriving). */
  private holding = 0;

  constructor(readonly slots: number) {}

  counts(): QueueCounts {
    return { running: this.running, waiting: this.holding };
  }

  /**
   * A place in line, or throws ProcessingBusy when `maxWaiting` places are held already. Uploads
   * ask with a small bound (each holds its file in memory); a missing variant of a public picture
   * with a larger one (it holds nothing while it waits).
   */
  enter(maxWaiting: number): Place {
    if (this.holding >= maxWaiting) throw new ProcessingBusy();
    this.holding += 1;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      this.holding -= 1;
      return true;
    };
    return {
      leave: () => void settle(),
      run: async <Result>(work: () => Promise<Result>) => {
        if (settled) throw new Error("this place in line was used already");
        await this.slot();
        settle();
        try {
          return await work();
        } finally {
          this.release();
        }
      },
    };
  }

  /** Runs work in a slot, waiting in line (bounded by `maxWaiting`). */
  run<Result>(maxWaiting: number, work: () => Promise<Result>): Promise<Result> {
    return this.enter(maxWaiting).run(work);
  }

  private slot(): Promise<void> {
    if (this.running < this.slots) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release() {
    const next = this.waiters.shift();
    if (next) next();
    else this.running -= 1;
  }
}
