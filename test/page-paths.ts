import { type RouteId, routeIds, routePath, type RouteParams } from "#shared/routes.ts";

/** Parameters of a real page for each route with a pattern: slugs of files in content/. */
const sampleParams: Partial<Record<RouteId, RouteParams>> = {
  project: { slug: "kutch-solar-park-grid-connection" },
  article: { slug: "ieee-519-harmonics-at-a-vfd-heavy-plant" },
};

/** A real address of a route: its path, or one page of its pattern. */
export const sampleAddress = (id: RouteId): string => routePath(id, sampleParams[id]);

/** One address of every route of the route table (#shared/routes.ts). */
export const pageRoutesForTests = routeIds.map(sampleAddress);

/** Every page of the site once: one address of each route of the table. */
export async function everyPagePathForTests(): Promise<string[]> {
  return pageRoutesForTests;
}
