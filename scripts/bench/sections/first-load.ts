import { measureRoutes, type RouteWeight } from "../../bundle-sizes.ts";
import { kilobytes, table } from "../report.ts";
import { defineSection } from "../section.ts";

// First-load JavaScript and CSS of each route, gzip and brotli, from the built client bundle.

export const firstLoadSection = defineSection<RouteWeight[]>({
  name: "first-load",
  description: "first-load JavaScript and CSS per route, gzip and brotli (the build only, no server)",
  usesWrk: false,
  run: async () => measureRoutes(),
  format: (rows) =>
    [
      "First-load JavaScript and CSS per route",
      table(
        ["route", "JS gzip", "JS brotli", "CSS gzip", "CSS brotli"],
        rows.map((row) => [
          row.route,
          kilobytes(row.js.gzip),
          kilobytes(row.js.brotli),
          kilobytes(row.css.gzip),
          kilobytes(row.css.brotli),
        ]),
      ),
    ].join("\n"),
});
