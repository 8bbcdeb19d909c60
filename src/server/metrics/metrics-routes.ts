import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Database } from "../db/client.ts";
import { SiteMetrics } from "./metrics.ts";

// GET /metrics (and HEAD): the instance's metrics in Prometheus's text format, to whoever sends
// `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN none of this is registered:
// /metrics is then an unknown address, and no request is measured. Other methods get what they
// get at any page's address (the 404 handler's answer). The route is the site's own, not a page:
// the analytics never count it (they count the pages' route alone).

/** Why a request was refused: the plain-text body, and the WWW-Authenticate challenge (RFC 6750). */
export type BearerRefusal = { message: string; challenge: string };

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();
/** `Bearer <token>`, the scheme in any case; the token is one run of visible characters. */
const bearerHeader = /^bearer +(\S+) *$/i;

/**
 * Checks an Authorization header against the token: undefined when it carries the token, else
 * why not. The token is compared as SHA-256 digests with timingSafeEqual: the time taken says
 * nothing about how much of it was right, nor how long it is.
 */
export function bearerTokenCheck(token: string): (header: string | undefined) => BearerRefusal | undefined {
  const expected = sha256(token);
  return (header) => {
    if (header === undefined || header === "") {
      return {
        message: "Missing token: send the header Authorization: Bearer <METRICS_TOKEN>.",
        challenge: 'Bearer realm="metrics"',
      };
    }
    if (!/^bearer(?: |$)/i.test(header)) {
      return {
        message: "Wrong authorization scheme: send Authorization: Bearer <METRICS_TOKEN>.",
        challenge: 'Bearer realm="metrics", error="invalid_request"',
      };
    }
    const match = bearerHeader.exec(header);
    if (!match) {
      return {
        message: "Malformed bearer token: send Authorization: Bearer <METRICS_TOKEN>, the token alone.",
        challenge: 'Bearer realm="metrics", error="invalid_request"',
      };
    }
    if (!timingSafeEqual(sha256(match[1]!), expected)) {
      return { message: "Wrong token.", challenge: 'Bearer realm="metrics", error="invalid_token"' };
    }
    return undefined;
  };
}

export type MetricsRouteOptions = {
  /** METRICS_TOKEN. */
  token: string;
  db: Database;
  /** The instance's clock. */
  now?: () => Date;
  log?: FastifyBaseLogger;
  /** How long a scrape waits for the database (metrics.ts's DATABASE_TIMEOUT_MS by default). */
  databaseTimeoutMs?: number;
};

/**
 * Measures every request from here on and serves /metrics. Register it before the other routes:
 * its onResponse hook then sees every route, and the 404 handler's answers.
 */
export function registerMetrics(app: FastifyInstance, options: MetricsRouteOptions): SiteMetrics {
  const metrics = new SiteMetrics({
    db: options.db,
    now: options.now,
    log: options.log,
    databaseTimeoutMs: options.databaseTimeoutMs,
  });
  const check = bearerTokenCheck(options.token);
  // A callback hook, not an async one: it runs on every request (as the access log's does).
  app.addHook("onResponse", (request, reply, done) => {
    metrics.observe(request, reply);
    done();
  });
  app.addHook("onClose", (_instance, done) => {
    metrics.close();
    done();
  });
  app.get("/metrics", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const refusal = check(request.headers.authorization);
    if (refusal) {
      return reply
        .code(401)
        .header("www-authenticate", refusal.challenge)
        .type("text/plain; charset=utf-8")
        .send(refusal.message);
    }
    const text = await metrics.scrape();
    return reply.type(metrics.contentType).send(text);
  });
  return metrics;
}
