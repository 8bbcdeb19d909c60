import type { FastifyBaseLogger } from "fastify";
import { errorCode } from "../plugins/request-logging.ts";

// Work a route does after its answer is sent, so that the answer does not wait on it: what the
// work finds (whether an address is on the list) cannot show in how long the answer took
// (docs/decisions/044-newsletter-double-opt-in.md). The work is bounded (at most `maxPending`
// waiting or running in this instance; the route asks for room before answering, and answers 503
// when there is none), its errors are logged, and the app's close waits for it, so none is
// dropped by a stop.

/** How work is started once accepted: on the next turn of the event loop, or held by a test. */
export type AfterAnswerScheduler = (work: () => Promise<void>) => void;

export class WorkAfterAnswer {
  private pending = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly options: {
      /** How many pieces of work may wait or run at once; more are refused. */
      maxPending: number;
      /** Starts accepted work (tests hold it to look in between); the next turn of the event loop by default. */
      schedule?: AfterAnswerScheduler;
    },
  ) {}

  /**
   * Takes `work` to run after the answer, unless `maxPending` are waiting or running: false then,
   * and nothing is run. A failure is logged on `log` as "<what> failed after its answer".
   */
  accept(log: FastifyBaseLogger, what: string, work: () => Promise<void>): boolean {
    if (this.pending >= this.options.maxPending) {
      log.warn({ pending: this.pending }, `${what} refused: too much work waiting after answers`);
      return false;
    }
    this.pending += 1;
    const run = async () => {
      try {
        await work();
      } catch (error) {
        log.error({ err: error, errCode: errorCode(error) }, `${what} failed after its answer`);
      } finally {
        this.pending -= 1;
        if (this.pending === 0) for (const wake of this.idle.splice(0)) wake();
      }
    };
    const schedule = this.options.schedule ?? ((start) => void setImmediate(() => void start()));
    schedule(run);
    return true;
  }

  /** Resolves once no work is waiting or running (the app's close; tests, before they look). */
  settled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}
