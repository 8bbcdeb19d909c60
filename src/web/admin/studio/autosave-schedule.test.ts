import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AUTOSAVE_MOST_MS, AUTOSAVE_QUIET_MS, AutosaveSchedule, debounce } from "./autosave-schedule.ts";

// When autosave runs: 2 s after the last change, and at least every 10 s of continuous typing.

describe("the autosave schedule", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs 2 s after the last change, once", () => {
    const run = vi.fn();
    const schedule = new AutosaveSchedule(run);
    schedule.changed();
    vi.advanceTimersByTime(1000);
    schedule.changed();
    vi.advanceTimersByTime(AUTOSAVE_QUIET_MS - 1);
    expect(run).not.toHaveBeenCalled();
    expect(schedule.pending).toBe(true);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(schedule.pending).toBe(false);
    vi.advanceTimersByTime(AUTOSAVE_MOST_MS * 2);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("runs at least every 10 s while the changes keep coming", () => {
    const run = vi.fn();
    const schedule = new AutosaveSchedule(run);
    // A key every half second for 25 s.
    for (let elapsed = 0; elapsed < 25_000; elapsed += 500) {
      schedule.changed();
      vi.advanceTimersByTime(500);
    }
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(AUTOSAVE_QUIET_MS);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it("runs now when asked, and not again for what it already took", () => {
    const run = vi.fn();
    const schedule = new AutosaveSchedule(run);
    schedule.changed();
    schedule.now();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(AUTOSAVE_MOST_MS);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("runs nothing once cancelled (a conflict stops autosave)", () => {
    const run = vi.fn();
    const schedule = new AutosaveSchedule(run);
    schedule.changed();
    schedule.cancel();
    vi.advanceTimersByTime(AUTOSAVE_MOST_MS);
    expect(run).not.toHaveBeenCalled();
  });
});

describe("debounce", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it("runs after the pause, or at once when flushed, and not after a cancel", () => {
    const run = vi.fn();
    const later = debounce(run, 300);
    later();
    vi.advanceTimersByTime(299);
    later();
    vi.advanceTimersByTime(299);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
    later();
    later.flush();
    expect(run).toHaveBeenCalledTimes(2);
    later.flush();
    expect(run).toHaveBeenCalledTimes(2);
    later();
    later.cancel();
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
