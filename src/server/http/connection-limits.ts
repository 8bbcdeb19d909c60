import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { FastifyServerOptions } from "fastify";
import type { Config } from "../config.ts";
import { clientSubject, trustedProxyMatcher } from "./client-address.ts";

// A client that opens connections and then sends nothing, or a body one byte at a time, must not
// hold them for ever: 3,000 such connections from one address once all stayed open. Three limits
// work together (see README, Settings):
// - the whole request, headers and body, must arrive within REQUEST_TIMEOUT_MS, or Node answers
//   408 and closes the connection. Node looks for such requests every CONNECTION_CHECK_INTERVAL_MS,
//   so a slow request is cut between the timeout and the timeout plus one interval;
// - a connection on which nothing moves for CONNECTION_TIMEOUT_MS is closed (a client that stops
//   reading its answer, say);
// - one client may hold at most MAX_CONNECTIONS_PER_CLIENT connections at once; more are closed as
//   soon as they open. A trusted proxy's address is not a client, and is not capped.

export type ConnectionLimits = Pick<
  Config,
  "requestTimeoutMs" | "connectionTimeoutMs" | "connectionCheckIntervalMs" | "maxConnectionsPerClient" | "trustProxy"
>;

/** Fastify's and Node's server options for the time limits. */
export function serverTimeoutOptions(limits: ConnectionLimits): Pick<
  FastifyServerOptions,
  "requestTimeout" | "connectionTimeout"
> & {
  http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    // Node's own: the headers must come within the same time as the whole request (Node refuses a
    // headers timeout longer than the request timeout), checked at this interval.
    http: {
      headersTimeout: limits.requestTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.connectionCheckIntervalMs,
    },
  };
}

/**
 * Closes each new connection that would give its client more than `maxConnectionsPerClient`
 * (0: no cap). Clients are counted as the rate limit counts them (IPv6 by /64); the trusted
 * proxies of TRUST_PROXY are not counted, since every visitor comes through them.
 */
export function capConnectionsPerClient(server: Server, limits: ConnectionLimits): void {
  const max = limits.maxConnectionsPerClient;
  if (max <= 0) return;
  const isTrustedProxy = trustedProxyMatcher(limits.trustProxy);
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || isTrustedProxy(address)) return;
    const client = clientSubject(address);
    const count = (open.get(client) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(client, count);
    socket.once("close", () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
  });
}
