import pino from "pino";
import { describe, expect, it } from "vitest";
import { WorkAfterAnswer } from "./after-answer.ts";

describe("work after an answer", () => {
  const logged: { level: number; msg: string; errCode?: string }[] = [];
  const log = pino({ level: "info" }, { write: (line: string) => void logged.push(JSON.parse(line)) });

  it("takes at most its bound, logs a failure, and settles once every piece has run", async () => {
    const held: (() => Promise<void>)[] = [];
    const work = new WorkAfterAnswer({ maxPending: 2, schedule: (run) => held.push(run) });
    const done: string[] = [];
    expect(work.accept(log, "first", async () => void done.push("first"))).toBe(true);
    expect(
      work.accept(log, "second", async () => {
        throw Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
      }),
    ).toBe(true);
    expect(work.accept(log, "third", async () => void done.push("third"))).toBe(false);
    expect(logged.at(-1)).toMatchObject({ level: 40, msg: "third refused: too much work waiting after answers" });

    let settled = false;
    const settling = work.settled().then(() => (settled = true));
    await held.shift()!();
    await Promise.resolve();
    expect(settled).toBe(false);
    await held.shift()!();
    await settling;
    expect(done).toEqual(["first"]);
    expect(logged.at(-1)).toMatchObject({ level: 50, msg: "second failed after its answer", errCode: "ECONNREFUSED" });
    // Room again.
    expect(work.accept(log, "fourth", async () => void done.push("fourth"))).toBe(true);
    await held.shift()!();
    expect(done).toEqual(["first", "fourth"]);
  });

  it("starts work on the next turn of the event loop by default", async () => {
    const work = new WorkAfterAnswer({ maxPending: 1 });
    let ran = false;
    work.accept(log, "soon", async () => void (ran = true));
    expect(ran).toBe(false);
    await work.settled();
    expect(ran).toBe(true);
  });
});
