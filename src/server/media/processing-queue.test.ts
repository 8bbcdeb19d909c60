import { describe, expect, it } from "vitest";
import { type Admission, ProcessingBusy, ProcessingQueue } from "./processing-queue.ts";

// The line for making pictures, with jobs that are promises the test settles: which jobs the
// budget lets run together, that a job heavier than the whole budget runs alone (never stuck),
// first come first served, and the bound on the line. Real pictures through it, with their real
// weights: src/server/media/memory-budget.test.ts.

/** A job that runs until the test ends it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Lets every job that can start, start (their admissions are promise callbacks). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function watched(budget: number) {
  const admissions: Admission[] = [];
  const started: string[] = [];
  const queue = new ProcessingQueue(budget);
  queue.watch((admission) => admissions.push(admission));
  const job = (name: string, weight: number) => {
    const { opened, open } = gate();
    const done = queue.run(10, weight, async () => {
      started.push(name);
      await opened;
      return name;
    });
    return { done, end: open };
  };
  return { queue, admissions, started, job };
}

describe("the processing line's memory budget", () => {
  it("runs jobs together while their weights fit, and the next when one ends", async () => {
    const { queue, started, job } = watched(100);
    const a = job("a", 40);
    const b = job("b", 40);
    const c = job("c", 40);
    await settle();
    expect(started).toEqual(["a", "b"]);
    expect(queue.admittedWeight()).toBe(80);
    expect(queue.counts()).toEqual({ running: 2, waiting: 1 });
    a.end();
    await a.done;
    await settle();
    expect(started).toEqual(["a", "b", "c"]);
    expect(queue.admittedWeight()).toBe(80);
    b.end();
    c.end();
    expect(await Promise.all([b.done, c.done])).toEqual(["b", "c"]);
    expect(queue.counts()).toEqual({ running: 0, waiting: 0 });
    expect(queue.admittedWeight()).toBe(0);
  });

  it("runs a job heavier than the whole budget alone, once nothing else runs, and lets nothing in beside it", async () => {
    const { queue, admissions, started, job } = watched(100);
    const small = job("small", 30);
    const heavy = job("heavy", 250);
    const after = job("after", 10);
    await settle();
    // First come first served: the small job after the heavy one waits although it would fit.
    expect(started).toEqual(["small"]);
    small.end();
    await small.done;
    await settle();
    expect(started).toEqual(["small", "heavy"]);
    expect(queue.admittedWeight()).toBe(250);
    heavy.end();
    await heavy.done;
    await settle();
    expect(started).toEqual(["small", "heavy", "after"]);
    after.end();
    await after.done;
    expect(admissions).toEqual([
      { weight: 30, admitted: 30, running: 1 },
      { weight: 250, admitted: 250, running: 1 },
      { weight: 10, admitted: 10, running: 1 },
    ]);
  });

  it("never admits together more than the budget, whatever arrives", async () => {
    const { admissions, job } = watched(100);
    const weights = [70, 20, 20, 90, 5, 150, 45, 45, 10, 60];
    const jobs = weights.map((weight, index) => job(`job ${index}`, weight));
    for (const each of jobs) {
      await settle();
      each.end();
      await each.done;
    }
    expect(admissions.map((admission) => admission.weight)).toEqual(weights);
    for (const admission of admissions)
      expect(admission.running === 1 || admission.admitted <= 100, JSON.stringify(admission)).toBe(true);
  });

  it("starts the jobs in line that fit a larger budget at once", async () => {
    const { queue, started, job } = watched(50);
    const jobs = [job("a", 40), job("b", 40), job("c", 40)];
    await settle();
    expect(started).toEqual(["a"]);
    queue.setBudget(120);
    await settle();
    expect(started).toEqual(["a", "b", "c"]);
    for (const each of jobs) each.end();
    await Promise.all(jobs.map((each) => each.done));
  });

  it("goes on after a job that fails", async () => {
    const { queue, started, job } = watched(100);
    const failing = queue.run(10, 100, async () => {
      throw new Error("the encoder failed");
    });
    const next = job("next", 100);
    await expect(failing).rejects.toThrow("the encoder failed");
    await settle();
    expect(started).toEqual(["next"]);
    next.end();
    await next.done;
    expect(queue.admittedWeight()).toBe(0);
  });

  it("turns away a place beyond the line's bound, and counts a place left before it ran as free", async () => {
    const queue = new ProcessingQueue(100);
    const places = Array.from({ length: 3 }, () => queue.enter(3));
    expect(() => queue.enter(3)).toThrow(ProcessingBusy);
    places[0]!.leave();
    expect(queue.counts()).toEqual({ running: 0, waiting: 2 });
    const again = queue.enter(3);
    expect(await again.run(10, async () => "ran")).toBe("ran");
    await expect(places[0]!.run(10, async () => "twice")).rejects.toThrow("used already");
    for (const place of places.slice(1)) place.leave();
    expect(queue.counts()).toEqual({ running: 0, waiting: 0 });
  });
});
