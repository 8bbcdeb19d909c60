import type { FastifyInstance } from "fastify";

/** Routes whose requests are logged at debug level only: health checks poll every few seconds. */
const quietRoutes = new Set(["/healthz", "/readyz"]);

/**
 * One structured line per request: request id, method, route, status and duration. Never a
 * body, a query string or a header, so no name, address or message reaches the log. The request
 * id goes back to the client as X-Request-Id.
 */
export function registerRequestLogging(app: FastifyInstance): void {
  // Callback hooks, not async ones: they run on every request, and a promise per request shows.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? "(no route)";
    const level = quietRoutes.has(route) ? "debug" : "info";
    // pino's loggers have isLevelEnabled (the no-op logger of an app without logs does not, and
    // Fastify's logger type does not declare it): nothing is built for a line nobody writes.
    const log = request.log as unknown as { isLevelEnabled?: (level: string) => boolean };
    if (log.isLevelEnabled?.(level)) {
      const line = {
        method: request.method,
        route,
        path: request.url.split("?")[0],
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
      };
      request.log[level](line, "request completed");
    }
    done();
  });
}

/** Error details for the log without personal data: database errors carry row values in `detail`. */
export function serializeErrorForLog(error: Error & { code?: string; statusCode?: number }) {
  return {
    type: error.name,
    code: error.code,
    statusCode: error.statusCode,
    message: (error.message ?? "").replace(/[^\s<>"'()=]+@[^\s<>"'()]+/g, "<address>").replace(/\(([^)]*)\)=\(([^)]*)\)/g, "($1)=(…)"),
    stack: error.stack?.split("\n").slice(1, 6).join("\n") ?? "",
  };
}
