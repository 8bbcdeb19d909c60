import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Routes whose requests are logged at debug level only: health checks poll every few seconds. */
const quietRoutes = new Set(["/healthz", "/readyz"]);

/**
 * One structured line per request: request id, method, route, status and duration. Never a
 * body, a query string or a header, so no name, address or message reaches the log. The request
 * id goes back to the client as X-Request-Id.
 */
export function registerRequestLogging(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onResponse", async (request, reply) => logRequestCompleted(request, reply));
}

export function logRequestCompleted(request: FastifyRequest, reply: FastifyReply): void {
  const route = request.routeOptions.url ?? "(no route)";
  const level = quietRoutes.has(route) ? "debug" : "info";
  const line = {
    method: request.method,
    route,
    path: request.url.split("?")[0],
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
  };
  request.log[level](line, "request completed");
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
