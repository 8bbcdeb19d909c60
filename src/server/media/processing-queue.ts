// The line for making pictures (docs/decisions/047-a-memory-budget-for-making-pictures.md): each
// job is weighed before it starts, by the memory its picture will take (pipeline.ts,
// pictureWeight: its size in pixels and channels, read from its header, and the variants it
// makes), and jobs run together only while their weights fit in the process's budget; the others
// wait their turn, first come first served. A job heavier than the whole budget runs alone once
// nothing else runs. A bound on the line: past it a request is turned away at once (503 with
// Retry-After) instead of holding its upload in memory. A place in line is taken before an
// upload's body is read, so the memory held by waiting uploads is bounded too: `maxWaiting` × 20
// MB at the very most.

export class ProcessingBusy extends Error {
  constructor() {
    super("The server is busy making other pictures ready. Please try again in a few seconds.");
  }
}

/** A place in line: run the work once its weight is admitted (once), or leave without running. */
export type Place = {
  run: <Result>(weight: number, work: () => Promise<Result>) => Promise<Result>;
  leave: () => void;
};

export type QueueCounts = { running: number; waiting: number };

/** A job let in: its weight, and the weight and number of jobs running with it (itself included). */
export type Admission = { weight: number; admitted: number; running: number };

export class ProcessingQueue {
  private running = 0;
  private admitted = 0;
  private readonly line: { weight: number; admit: () => void }[] = [];
  /** Places taken and not yet admitted (in line, or their upload still arriving). */
  private holding = 0;
  private readonly watchers = new Set<(admission: Admission) => void>();

  /** @param budget the bytes the jobs admitted together may weigh */
  constructor(private budget: number) {}

  /** Tells `listener` of each job let in, until the function returned is called (tests watch the budget). */
  watch(listener: (admission: Admission) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  counts(): QueueCounts {
    return { running: this.running, waiting: this.holding };
  }

  /** The weight of the jobs running now. */
  admittedWeight(): number {
    return this.admitted;
  }

  budgetBytes(): number {
    return this.budget;
  }

  /** Sets the budget (the site sets it once it knows its database); jobs in line that now fit start. */
  setBudget(bytes: number): void {
    this.budget = bytes;
    this.admitNext();
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
    let used = false;
    return {
      leave: () => {
        // A place whose job is in line stays until it is admitted; its holder has left the line
        // only once it never asked to run.
        if (!used) settle();
      },
      run: async <Result>(weight: number, work: () => Promise<Result>) => {
        if (used || settled) throw new Error("this place in line was used already");
        used = true;
        const admittedWeight = await this.admission(weight);
        settle();
        try {
          return await work();
        } finally {
          this.release(admittedWeight);
        }
      },
    };
  }

  /** Runs work of this weight once admitted, waiting in line (bounded by `maxWaiting`). */
  run<Result>(maxWaiting: number, weight: number, work: () => Promise<Result>): Promise<Result> {
    return this.enter(maxWaiting).run(weight, work);
  }

  private fits(weight: number): boolean {
    return this.running === 0 || this.admitted + weight <= this.budget;
  }

  private start(weight: number): void {
    this.running += 1;
    this.admitted += weight;
    for (const watcher of this.watchers) watcher({ weight, admitted: this.admitted, running: this.running });
  }

  /** Resolves once the job is admitted, with the weight it was admitted at. */
  private admission(weight: number): Promise<number> {
    const admitted = Number.isFinite(weight) && weight > 0 ? weight : this.budget;
    if (this.line.length === 0 && this.fits(admitted)) {
      this.start(admitted);
      return Promise.resolve(admitted);
    }
    return new Promise((resolve) =>
      this.line.push({
        weight: admitted,
        admit: () => resolve(admitted),
      }),
    );
  }

  /** Lets in, first come first served, every job at the head of the line that now fits. */
  private admitNext(): void {
    while (this.line.length > 0 && this.fits(this.line[0]!.weight)) {
      const next = this.line.shift()!;
      this.start(next.weight);
      next.admit();
    }
  }

  private release(weight: number): void {
    this.running -= 1;
    this.admitted -= weight;
    this.admitNext();
  }
}
