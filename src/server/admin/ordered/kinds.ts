import { CLIENT_LOGOS, TEAM, TESTIMONIALS } from "#shared/admin/collections/index.ts";
import { orderedRouteNames } from "#shared/admin/collections/kind.ts";
import type { AdminContext } from "../context.ts";
import { wireHandlers } from "../content-kit.ts";
import { TEAM_ROUTES } from "../team/team-routes.ts";
import { CLIENT_LOGO_ROUTES, TESTIMONIAL_ROUTES } from "../testimonials/testimonial-routes.ts";
import { orderedRoutes } from "./ordered-routes.ts";

// The server part of every ordered kind (src/shared/admin/collections/index.ts lists their
// definitions), wired under the route names their definitions give: the team, testimonials,
// client logos. A new ordered kind adds its line here.

export function orderedKindsRoutes(context: AdminContext) {
  return {
    ...wireHandlers(orderedRouteNames(TEAM), orderedRoutes(context, TEAM_ROUTES)),
    ...wireHandlers(orderedRouteNames(TESTIMONIALS), orderedRoutes(context, TESTIMONIAL_ROUTES)),
    ...wireHandlers(orderedRouteNames(CLIENT_LOGOS), orderedRoutes(context, CLIENT_LOGO_ROUTES)),
  };
}
