import type { RouteId } from "#shared/routes.ts";
import { routeIds } from "#shared/routes.ts";
import { sampleAddress } from "../test/page-paths.ts";

/** The heading each route's first HTML must already hold: a route added to the table needs one here. */
const headings: Record<RouteId, string> = {
  home: "Power-system engineering you can build on",
  about: "Engineers of reliable power systems",
  services: "Power System Studies",
  industries: "Industries We Serve",
  projects: "Projects",
  project: "300 MW Solar Park Grid Connection, Kutch",
  blog: "Industry Insights",
  article: "IEEE 519 at a Drive-Heavy Plant: Measuring, Modelling and Fixing Harmonics",
  contact: "Get In Touch",
  thankYou: "Thank You!",
  privacy: "Privacy Policy",
  privacyHindi: "गोपनीयता सूचना",
  privacyGujarati: "ગોપનીયતા સૂચના",
  terms: "Terms of Service",
  cookies: "Cookie Policy",
  search: "Search the Site",
};

/** Every route a visitor can reach (one page of each pattern), and the 404 page. */
export const siteRoutes: { path: string; heading: string; status?: number }[] = [
  ...routeIds.map((id) => ({ path: sampleAddress(id), heading: headings[id] })),
  { path: "/no-such-page", heading: "Page Not Found", status: 404 },
];
