import { DrizzleQueryError } from "drizzle-orm/errors";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import pino from "pino";

/** Routes whose requests are logged at debug level only: health checks poll every few seconds. */
const quietRoutes = new Set(["/healthz", "/readyz"]);

/**
 * One structured line per request: request id, method, route, status and duration. Never a
 * body, a query string or a header, so no name, address or message reaches the log; nor the token
 * of a one-time link's path (/admin/invite/[token]). The request
 * id goes back to the client as X-Request-Id.
 */
export function registerRequestLogging(app: FastifyInstance): void {
  // Callback hooks, not async ones: they run on every request, and a promise per request shows.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    logRequestCompleted(request, reply);
    done();
  });
}

/**
 * The paths of the back office's one-time links, to the end of the path: whoever holds the token
 * in one is let in (src/server/admin/staff/staff-repository.ts), and a mail scanner opening the link
 * would otherwise put a live token in the log. So are preview and share links (/preview/[token]):
 * whoever holds one reads a draft (src/server/content/links.ts); and the newsletter's confirmation
 * and unsubscribe links, which confirm or end someone's subscription (src/server/newsletter/).
 */
const oneTimeLinkPath =
  /((?:\/admin\/(?:invite|sign-in-link)|\/preview|\/newsletter\/(?:confirm|unsubscribe))\/)[^\s"'<>()?#]*/gi;
const oneTimeLinkStart = /(?:\/admin\/(?:invite|sign-in-link)|\/preview|\/newsletter\/(?:confirm|unsubscribe))\//i;
/** A %XX, decoded as one byte (Latin-1): never throws, unlike decodeURIComponent on a broken escape. */
const percentEscape = /%([0-9a-f]{2})/gi;

/**
 * Text with each one-time link's token replaced by "[token]": /admin/invite/[token]. A spelling
 * with percent escapes the router also accepts (/admin/%69nvite/…) is decoded first.
 */
export function withoutOneTimeTokens(text: string): string {
  if (oneTimeLinkStart.test(text)) return text.replace(oneTimeLinkPath, "$1[token]");
  if (!text.includes("%")) return text;
  const decoded = text.replace(percentEscape, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return oneTimeLinkStart.test(decoded) ? decoded.replace(oneTimeLinkPath, "$1[token]") : text;
}

/**
 * pino's logMethod hook: no line a logger writes carries a one-time link's token, whatever logs
 * it (Fastify's own warnings quote the request's URL). Strings are cleaned, and an object's
 * string fields (its `err` goes through serializeErrorForLog); an error logged on its own gets
 * a redacted message, not pino's default of its raw message.
 */
export function logWithoutOneTimeTokens(this: unknown, args: unknown[], method: (...args: unknown[]) => void): void {
  const [first, ...rest] = args;
  const cleaned = args.map((arg) => (typeof arg === "string" ? withoutOneTimeTokens(arg) : cleanFields(arg)));
  if (first instanceof Error && typeof rest[0] !== "string") {
    cleaned.splice(1, 0, redactPersonalData(first.message ?? ""));
  }
  method.apply(this, cleaned);
}

function cleanFields(value: unknown): unknown {
  if (!value || typeof value !== "object" || value instanceof Error || Array.isArray(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    if (typeof field !== "string") continue;
    const clean = withoutOneTimeTokens(field);
    if (clean !== field) (copy ??= { ...value })[key] = clean;
  }
  return copy ?? value;
}

/** What of pino's logger the access line uses: its documented symbols, and its level check. */
type PinoLogger = {
  isLevelEnabled?: (level: string) => boolean;
  levels?: { values: Record<string, number> };
  [pino.symbols.streamSym]?: { write: (line: string) => unknown };
  [pino.symbols.chindingsSym]?: string;
  [pino.symbols.timeSym]?: () => string;
};

export function logRequestCompleted(request: FastifyRequest, reply: FastifyReply): void {
  const route = request.routeOptions.url ?? "(no route)";
  const level = quietRoutes.has(route) ? "debug" : "info";
  // pino's loggers have isLevelEnabled (the no-op logger of an app without logs does not, and
  // Fastify's logger type does not declare it): nothing is built for a line nobody writes.
  const log = request.server.log as unknown as PinoLogger;
  if (!log.isLevelEnabled?.(level)) return;
  const url = request.url;
  const queryAt = url.indexOf("?");
  const path = withoutOneTimeTokens(queryAt === -1 ? url : url.slice(0, queryAt));
  const durationMs = Math.round(reply.elapsedTime * 10) / 10;
  // The line pino would write for `log[level](fields, "request completed")`, written straight to
  // its destination: the same level number, time, bindings (pid, hostname) and field order,
  // each string escaped by JSON.stringify. It saved a cached page about 1.4 µs of its 30 against
  // pino's generic serialisation of a fields object (docs/performance.md, "The access log").
  const stream = log[pino.symbols.streamSym];
  const bindings = log[pino.symbols.chindingsSym];
  const time = log[pino.symbols.timeSym];
  const levelNumber = log.levels?.values[level];
  if (stream && typeof bindings === "string" && typeof time === "function" && levelNumber !== undefined) {
    stream.write(
      `{"level":${levelNumber}${time()}${bindings},"requestId":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},` +
        `"route":${JSON.stringify(route)},"path":${JSON.stringify(path)},"status":${reply.statusCode},"durationMs":${durationMs},"msg":"request completed"}\n`,
    );
    return;
  }
  // A logger without those internals (should a pino release rename them): its own serialiser.
  const line = { requestId: request.id, method: request.method, route, path, status: reply.statusCode, durationMs };
  request.server.log[level](line, "request completed");
}

/**
 * The error's code, or its cause's: Drizzle wraps a database error in a DrizzleQueryError whose
 * own code is empty, with PostgreSQL's SQLSTATE (or the socket's ECONNREFUSED) on the cause.
 */
export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string" || typeof code === "number") return String(code);
    current = cause;
  }
  return undefined;
}

/** Characters of an error message looked at: the log keeps 300 of them, and the rest only costs time. */
const REDACT_INPUT_LIMIT = 2000;
/** Characters that end an address (and the runs the text is split into). */
const addressDelimiters = /[\s<>"'()]+/;

/**
 * An address in one run of non-delimiter characters: from the start of the `=`-separated part
 * holding an `@` with something before it, to the end of the run (as `[^\s<>"'()=]+@[^\s<>"'()]+`
 * would match, without its backtracking). Linear: each `@` looks back at most to the `=` before it.
 */
function redactAddressIn(run: string): string {
  for (let at = run.indexOf("@"); at !== -1; at = run.indexOf("@", at + 1)) {
    const start = run.lastIndexOf("=", at - 1) + 1;
    if (start < at && at + 1 < run.length) return `${run.slice(0, start)}<address>`;
  }
  return run;
}

/**
 * Each `(columns)=(values)` of a constraint message with its values replaced, scanning once. Values
 * that do not close (cut off by the length bound, say) are replaced to the end.
 */
function redactKeyValues(text: string): string {
  let result = "";
  let from = 0;
  for (let marker = text.indexOf(")=(", from); marker !== -1; marker = text.indexOf(")=(", from)) {
    // The columns: from the last "(" after the last ")" before the marker (not before `from`).
    let open = -1;
    for (let i = marker - 1; i >= from && text[i] !== ")"; i -= 1) if (text[i] === "(") open = i;
    const close = text.indexOf(")", marker + 3);
    if (open === -1) {
      if (close === -1) break;
      result += text.slice(from, marker + 3);
      from = marker + 3;
      continue;
    }
    result += `${text.slice(from, open)}(${text.slice(open + 1, marker)})=(…)`;
    if (close === -1) return result;
    from = close + 1;
  }
  return result + text.slice(from);
}

/**
 * Text from an error (a database's, an SMTP server's) with what could be personal data replaced:
 * one-time links' tokens, email addresses, the `(column)=(value)` of a constraint message and anything in double quotes
 * (a value or quote left open, to the end). Only the first REDACT_INPUT_LIMIT characters are looked at, and every step is linear in them:
 * an error quoting a long hostile message must not hold the event loop.
 */
export function redactPersonalData(text: string): string {
  const bounded = withoutOneTimeTokens(text.slice(0, REDACT_INPUT_LIMIT));
  const withoutAddresses = bounded
    .split(new RegExp(`(${addressDelimiters.source})`))
    .map((part, index) => (index % 2 === 0 ? redactAddressIn(part) : part))
    .join("");
  return (
    redactKeyValues(withoutAddresses)
      // A quote left open runs to the end: what it quotes may go on past the part read.
      .replace(/"[^"]*"?/g, '"…"')
      .slice(0, 300)
  );
}

/**
 * Error details for the log without personal data. A DrizzleQueryError's message lists the
 * query's parameters (the visitor's name, address, message): only the first line of its SQL is
 * kept, and the stack keeps its frames alone (its first lines repeat the message).
 */
export function serializeErrorForLog(error: Error & { statusCode?: number }) {
  const isQueryError = error instanceof DrizzleQueryError;
  const cause = error.cause instanceof Error ? error.cause : undefined;
  return {
    type: isQueryError ? "DrizzleQueryError" : error.name,
    code: errorCode(error),
    statusCode: error.statusCode,
    message: isQueryError
      ? `Failed query: ${(error.query.split("\n")[0] ?? "").slice(0, 200)}`
      : redactPersonalData(error.message ?? ""),
    cause: cause ? { type: cause.name, message: redactPersonalData(cause.message ?? "") } : undefined,
    stack: (error.stack ?? "")
      .split("\n")
      .filter((line) => /^\s+at /.test(line))
      .slice(0, 5)
      .join("\n"),
  };
}
