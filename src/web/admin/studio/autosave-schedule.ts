// When autosave runs (decision 038, section 4): 2 s after the last change, and at least every
// 10 s while the changes keep coming, so a long stretch of typing is never only in the browser.
// A debounce with a ceiling, on the page's timers; tests drive it with fake ones.

export const AUTOSAVE_QUIET_MS = 2000;
export const AUTOSAVE_MOST_MS = 10_000;

export class AutosaveSchedule {
  #quiet: ReturnType<typeof setTimeout> | undefined;
  #most: ReturnType<typeof setTimeout> | undefined;
  readonly #run: () => void;
  readonly #quietMs: number;
  readonly #mostMs: number;

  constructor(run: () => void, quietMs = AUTOSAVE_QUIET_MS, mostMs = AUTOSAVE_MOST_MS) {
    this.#run = run;
    this.#quietMs = quietMs;
    this.#mostMs = mostMs;
  }

  /** Whether a run is waiting. */
  get pending(): boolean {
    return this.#quiet !== undefined;
  }

  /** A change: the run moves to `quietMs` from now, but no later than `mostMs` after the first change it waits for. */
  changed(): void {
    clearTimeout(this.#quiet);
    this.#quiet = setTimeout(() => this.now(), this.#quietMs);
    this.#most ??= setTimeout(() => this.now(), this.#mostMs);
  }

  /** Runs now (Ctrl+S, before a preview), whatever was waiting. */
  now(): void {
    this.cancel();
    this.#run();
  }

  /** Nothing waits any more (a conflict stops autosave). */
  cancel(): void {
    clearTimeout(this.#quiet);
    clearTimeout(this.#most);
    this.#quiet = undefined;
    this.#most = undefined;
  }
}

/** A function run `ms` after the last call: the live preview's and the copy's pause. */
export function debounce(run: () => void, ms: number): { (): void; cancel: () => void; flush: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      run();
    }, ms);
  };
  call.cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  call.flush = () => {
    if (timer === undefined) return;
    call.cancel();
    run();
  };
  return call;
}
