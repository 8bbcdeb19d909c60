import type { FastifyInstance } from "fastify";
import type { ApiErrorBody } from "#shared/api-types.ts";
import { apiPaths } from "#shared/paths.ts";
import { matchRoute } from "#shared/routes.ts";
import { type SameOriginOptions, sameOriginOnly } from "../http/same-origin.ts";
import type { ViewCounter } from "./counting.ts";

// The beacon: the browser's word that it showed another page by client-side navigation (the
// first page of a visit is counted by the server as it serves the HTML). Sent by
// navigator.sendBeacon as a form body `p=/path?query`, from the site's own pages only; a path
// that is not a page of the route table is refused. Answered 204 whether or not it was counted,
// so the answer tells nobody whether they are counted.

/** The longest `p` taken: a path and its query string. */
export const BEACON_URL_LIMIT = 2000;

export function registerBeaconRoute(
  app: FastifyInstance,
  deps: { counter: ViewCounter; sameOrigin: SameOriginOptions },
): void {
  const bad = (message: string): ApiErrorBody => ({ error: "Bad Request", message });
  app.post(apiPaths.view, { onRequest: sameOriginOnly(deps.sameOrigin), bodyLimit: 4096 }, async (request, reply) => {
    const body = request.body;
    const url = typeof body === "object" && body !== null ? (body as Record<string, unknown>).p : undefined;
    if (typeof url !== "string" || url === "")
      return reply.code(400).send(bad("The body must be a form with `p`, the page's path."));
    if (url.length > BEACON_URL_LIMIT)
      return reply.code(400).send(bad(`\`p\` must be at most ${BEACON_URL_LIMIT} characters.`));
    const queryAt = url.indexOf("?");
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (!path.startsWith("/") || matchRoute(path) === undefined)
      return reply.code(400).send(bad("`p` is not a page of this site."));
    // A navigation within the site: the referrer is the site itself, so none is recorded.
    deps.counter.count(request, { url, referrer: null });
    return reply.code(204).send();
  });
}
