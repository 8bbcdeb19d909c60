import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ApiErrorBody } from "#shared/api-types.ts";
import { logRequestCompleted } from "./request-logging.ts";

const statusTitles: Record<number, string> = {
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Payload Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function statusTitle(status: number): string {
  return statusTitles[status] ?? (status >= 500 ? "Server Error" : "Bad Request");
}

function clientMessage(error: FastifyError, bodyLimit: number): string {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return "This content type is not accepted here; send JSON (application/json) or a form (application/x-www-form-urlencoded).";
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return "The body is empty; send a JSON object.";
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return "The body is not valid JSON.";
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return `The body is larger than the limit of ${bodyLimit} bytes.`;
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return "The Content-Length header does not match the body.";
    default:
      return error instanceof SyntaxError ? "The body is not valid JSON." : error.message;
  }
}

/**
 * Every error answers JSON with a status and a message a person can act on. Client errors say
 * what was wrong; server errors are logged and answered with a generic message, never a stack.
 */
export function registerErrorHandling(app: FastifyInstance, options: { bodyLimit: number }): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      const body: ApiErrorBody = {
        error: statusTitles[status] ?? "Server Error",
        message: "Something went wrong on our side. Please try again in a moment.",
      };
      return reply.code(status).send(body);
    }
    const body: ApiErrorBody = {
      error: statusTitles[status] ?? "Bad Request",
      // A route with a limit of its own (the studio's, decision 038) names that one.
      message: clientMessage(error, request.routeOptions.bodyLimit ?? options.bodyLimit),
    };
    return reply.code(status).send(body);
  });
}

const frameworkErrorMessages: Record<string, string> = {
  FST_ERR_BAD_URL: "The address is not a valid URL: each % in it must be followed by two hexadecimal digits.",
  FST_ERR_MAX_PARAM_LENGTH: "The address is too long.",
};

/**
 * Fastify answers a URL it cannot decode (/%zz) before routing, so no hook runs: this gives that
 * answer the site's headers, request id and log line, and a JSON body like every other error.
 */
export function frameworkErrorHandler(
  headers: Record<string, string>,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    reply.raw.once("finish", () => logRequestCompleted(request, reply));
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    const body: ApiErrorBody = {
      error: statusTitles[status] ?? "Bad Request",
      message: frameworkErrorMessages[error.code] ?? "Something went wrong on our side. Please try again in a moment.",
    };
    void reply.headers(headers).header("x-request-id", request.id).code(status).send(body);
  };
}

export function apiNotFound(method: string, url: string): ApiErrorBody {
  const path = url.split("?")[0] ?? url;
  return { error: "Not Found", message: `There is no API endpoint ${method} ${path}.` };
}
