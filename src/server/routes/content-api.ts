import type { FastifyInstance } from "fastify";
import type { ApiErrorBody, FormFields } from "#shared/api-types.ts";
import { apiPaths } from "#shared/paths.ts";
import { SLUG_PATTERN } from "#shared/routes.ts";
import type { Database } from "../db/client.ts";
import { getArticle, getProject, listBlogPosts, listProjects, listTeamMembers } from "../db/content-repository.ts";

/**
 * What a read endpoint answers for an API path: its data, null when the path names something
 * that does not exist (an unknown slug), or undefined when there is no such endpoint. The page
 * renderer prefetches through the same function, so a page and its API never disagree.
 */
export type ReadApi = (apiPath: string) => Promise<unknown> | undefined;

/** A slug as the route table (#shared/routes.ts) defines it, captured. */
const slugPart = `(${SLUG_PATTERN.source.slice(1, -1)})`;
const articlePath = new RegExp(`^${apiPaths.blogPosts}/${slugPart}$`);
const projectPath = new RegExp(`^${apiPaths.projects}/${slugPart}$`);

export function createReadApi(deps: { db: Database; issueFormFields: () => FormFields }): ReadApi {
  const fixed: Record<string, () => Promise<unknown>> = {
    [apiPaths.teamMembers]: () => listTeamMembers(deps.db),
    [apiPaths.projects]: () => listProjects(deps.db),
    [apiPaths.blogPosts]: () => listBlogPosts(deps.db),
    [apiPaths.formToken]: async () => deps.issueFormFields(),
  };
  return (apiPath) => {
    const read = fixed[apiPath];
    if (read) return read();
    const article = articlePath.exec(apiPath);
    if (article?.[1]) return getArticle(deps.db, article[1]);
    const project = projectPath.exec(apiPath);
    if (project?.[1]) return getProject(deps.db, project[1]);
    return undefined;
  };
}

/**
 * Registers the read endpoints. With `contentVersion`, each answer is serialised once per content
 * version and kept (the same rule as the page cache); the form fields are always new.
 */
export function registerContentApi(app: FastifyInstance, readApi: ReadApi, contentVersion?: () => string): void {
  const kept = new Map<string, Buffer | null>();
  let keptVersion = "";
  const read = async (path: string): Promise<Buffer | null> => {
    if (!contentVersion) {
      const data = await readApi(path);
      return data === null || data === undefined ? null : Buffer.from(JSON.stringify(data));
    }
    const version = contentVersion();
    if (version !== keptVersion) {
      keptVersion = version;
      kept.clear();
    }
    const hit = kept.get(path);
    if (hit !== undefined) return hit;
    const data = await readApi(path);
    const body = data === null || data === undefined ? null : Buffer.from(JSON.stringify(data));
    // Slugs are visitor input: keep at most a bounded number of answers.
    if (kept.size < 500) kept.set(path, body);
    return body;
  };
  const answer = (path: string) => async (_request: unknown, reply: import("fastify").FastifyReply) => {
    if (path === apiPaths.formToken) {
      reply.header("cache-control", "no-store");
      return readApi(path);
    }
    reply.header("cache-control", "no-cache").type("application/json; charset=utf-8");
    return read(path);
  };
  for (const path of [apiPaths.teamMembers, apiPaths.projects, apiPaths.blogPosts, apiPaths.formToken]) {
    app.get(path, answer(path));
  }
  for (const [collection, what] of [
    [apiPaths.blogPosts, "article"],
    [apiPaths.projects, "project"],
  ] as const) {
    app.get<{ Params: { slug: string } }>(`${collection}/:slug`, async (request, reply) => {
      const body = await read(`${collection}/${request.params.slug}`);
      if (body === null) {
        const problem: ApiErrorBody = { error: "Not Found", message: `There is no ${what} at ${collection}/${request.params.slug}.` };
        return reply.code(404).send(problem);
      }
      return reply.header("cache-control", "no-cache").type("application/json; charset=utf-8").send(body);
    });
  }
}
