import Fastify, { LogController } from "fastify";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { redactPersonalData, registerRequestLogging } from "./request-logging.ts";

// redactPersonalData sees error messages that can quote what a visitor sent: it must hide the
// personal data in them, and must not spend seconds on a long hostile one (its regular
// expressions once took 3.9 s on 50,000 characters, blocking every request meanwhile).

describe("redactPersonalData", () => {
  it.each([
    ["Key (email)=(asha@example.com) already exists.", "Key (email)=(…) already exists."],
    ["550 5.1.1 <asha@example.com>: no mailbox", "550 5.1.1 <<address>>: no mailbox"],
    ["to=asha@example.com from=x@y", "to=<address> from=<address>"],
    ["Key (first_name, email)=(Asha, asha@x.com) failed (a)=(b)", "Key (first_name, email)=(…) failed (a)=(…)"],
    ['value "Asha Patel" is too long', 'value "…" is too long'],
    ["x=@y a@ @b", "x=@y a@ @b"],
    ['value "Asha Patel', 'value "…"'],
    ["Key (message)=(Confidential study", "Key (message)=(…)"],
  ])("redacts %j", (input, output) => {
    expect(redactPersonalData(input)).toBe(output);
  });

  it("keeps 300 characters at most", () => {
    expect(redactPersonalData("x".repeat(1000))).toHaveLength(300);
  });

  // Each of these made one of the old expressions backtrack over the whole string from every
  // position: seconds of work for 50,000 characters.
  const hostile: [string, string][] = [
    ["no @ in a long word", "a".repeat(50_000)],
    ["opening parentheses without a closing one", "(".repeat(50_000)],
    ["nested openings", "(a".repeat(25_000)],
    ["a long address-like run", `${"a".repeat(49_992)}@example`],
    ["column lists that never close", "(a)=(".repeat(10_000)],
    ["an unclosed quote", `"${"b".repeat(49_999)}`],
  ];
  it.each(hostile)("handles 50,000 characters of %s quickly", (_name, text) => {
    expect(text.length).toBeGreaterThanOrEqual(50_000);
    const started = performance.now();
    const result = redactPersonalData(text);
    const elapsed = performance.now() - started;
    expect(result.length).toBeLessThanOrEqual(300);
    expect(result).not.toMatch(/[a-z]@example/);
    // A generous bound: linear work on this input takes well under a millisecond.
    expect(elapsed).toBeLessThan(200);
  });

  it("still redacts what it finds within the part it reads of a long message", () => {
    const result = redactPersonalData(`Key (email)=(asha@example.com) ${"x".repeat(60_000)}`);
    expect(result.startsWith("Key (email)=(…) xxx")).toBe(true);
    expect(result).not.toContain("asha");
  });

  it("redacts a value or quote that goes on past the part it reads", () => {
    const secret = `Confidential 400 kV substation ${"upgrade ".repeat(1000)}`;
    expect(redactPersonalData(`Key (message)=(${secret}) already exists.`)).toBe("Key (message)=(…)");
    expect(redactPersonalData(`invalid input "${secret}"`)).toBe('invalid input "…"');
  });
});

// The access line is written straight to pino's destination (request-logging.ts), not through
// pino's serialiser: it must be the very line pino would write, whatever the address holds.
describe("the access line", () => {
  /** The lines written for a request to `url`, as the app sees it (rewriteUrl puts characters a client's request line could not carry into it). */
  async function linesFor(url: string) {
    const written: string[] = [];
    const stream = { write: (line: string) => void written.push(line) };
    const app = Fastify({
      logger: { level: "info", stream },
      logController: new LogController({ disableRequestLogging: true }),
      rewriteUrl: () => url,
    });
    registerRequestLogging(app);
    app.get("/blog/:slug", async () => "ok");
    app.get("/readyz", async () => "ok");
    await app.ready();
    const response = await app.inject({ method: "GET", url: "/" });
    await app.close();
    const line = written.find((entry) => entry.includes('"msg":"request completed"'));
    return { response, written, line };
  }

  it.each([
    ["a plain address", "/blog/harmonics?utm_source=mail"],
    ["quotes, backslashes and control characters", "/blog/a%22b%5Cc%0A%09d"],
    ["raw characters JSON must escape", '/blog/a"b\\c\u0001\u001f\n'],
    // (Not a lone surrogate: Node reads a request line as latin1, so request.url never holds one.)
    ["non-ASCII text and the line separators JSON allows raw", "/blog/ऊर्जा\u2028\u2029"],
    ["an address no route matches", '/nothing/"here"'],
  ])("is the line pino writes, for %s", async (_name, url) => {
    const { response, line } = await linesFor(url);
    expect(line).toBeDefined();
    const entry = JSON.parse(line!) as Record<string, unknown>;
    // The same fields, through pino itself, with the same time: byte for byte the same line.
    let expected = "";
    const reference = pino(
      { level: "info", timestamp: () => `,"time":${String(entry.time)}` },
      { write: (text: string) => void (expected = text) },
    );
    reference.info(
      {
        requestId: entry.requestId,
        method: "GET",
        route: entry.route,
        path: entry.path,
        status: response.statusCode,
        durationMs: entry.durationMs,
      },
      "request completed",
    );
    expect(line).toBe(expected);
    expect(entry.path).toBe(url.split("?")[0]);
    expect(entry.requestId).toBe(response.headers["x-request-id"]);
    expect(entry.level).toBe(30);
  });

  it("is not written for a quiet route below its level", async () => {
    const { response, written } = await linesFor("/readyz");
    expect(response.statusCode).toBe(200);
    expect(written.filter((entry) => entry.includes("request completed"))).toEqual([]);
  });
});
