import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { lazyChildLogger, requestIdGenerator } from "./request-ids.ts";

describe("requestIdGenerator", () => {
  it("gives each request of a process its own id, and each process its own prefix", () => {
    const [a, b] = [requestIdGenerator(), requestIdGenerator()];
    const ids = Array.from({ length: 1000 }, () => a());
    expect(new Set(ids).size).toBe(1000);
    expect(ids[0]).toMatch(/^[0-9a-z]{8}-1$/);
    expect(b().split("-")[0]).not.toBe(ids[0]!.split("-")[0]);
  });
});

describe("lazyChildLogger", () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    return { lines, logger: pino({ level: "info" }, stream) };
  };

  it("makes no child until something is logged, then logs with the request's bindings", async () => {
    const { lines, logger } = capture();
    const child = vi.spyOn(logger, "child");
    const requestLog = lazyChildLogger(logger, { requestId: "abc-1" }, {});
    expect(child).not.toHaveBeenCalled();
    expect((requestLog as unknown as { isLevelEnabled: (level: string) => boolean }).isLevelEnabled("debug")).toBe(
      false,
    );
    expect(requestLog.level).toBe("info");
    requestLog.error({ code: "E1" }, "request failed");
    requestLog.debug("not written");
    await new Promise((resolve) => setImmediate(resolve));
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, requestId: "abc-1", code: "E1", msg: "request failed" }),
    ]);
  });

  it("honours a route's own level", () => {
    const { logger } = capture();
    const requestLog = lazyChildLogger(logger, { requestId: "abc-2" }, { level: "debug" });
    expect((requestLog as unknown as { isLevelEnabled: (level: string) => boolean }).isLevelEnabled("debug")).toBe(
      true,
    );
    expect(requestLog.level).toBe("debug");
  });
});
