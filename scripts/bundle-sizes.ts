import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { readBuiltAssets } from "../src/server/render/assets.ts";
import type { ServerEntry } from "../src/shared/page-rendering.ts";
import { routeIds, routePath } from "../src/shared/routes.ts";

// First-load JavaScript and CSS of every page, as a browser downloads them on arrival: the
// boot script, the entry with React, and the chunks of the islands the page shows. Used by the budget test and the
// benchmark. `node --import tsx scripts/bundle-sizes.ts` prints the table.

export const BUDGET = { jsGzip: 80 * 1024, cssGzip: 15 * 1024 };

const root = fileURLToPath(new URL("../", import.meta.url));
const clientDir = path.join(root, "dist", "client");
const serverEntry = path.join(root, "dist", "server", "entry-server.js");

export type RouteWeight = {
  route: string;
  files: number;
  js: { raw: number; gzip: number; brotli: number };
  css: { raw: number; gzip: number; brotli: number };
};

function sizes(files: string[]) {
  const total = { raw: 0, gzip: 0, brotli: 0 };
  for (const file of files) {
    const bytes = readFileSync(path.join(clientDir, file));
    total.raw += bytes.length;
    total.gzip += gzipSync(bytes, { level: 9 }).length;
    total.brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return total;
}

/** A path of each route of the table, and one that matches none (the 404 page). */
export const measuredPaths = (): { route: string; path: string }[] => [
  ...routeIds.map((id) => ({ route: id, path: routePath(id, { slug: "any-slug" }) })),
  { route: "(404)", path: "/no-such-page" },
];

/**
 * What the page at each path loads on arrival: the built server entry renders it (with no data,
 * as when the database is down; a page shows the same islands either way) and the build's
 * manifest names the files of the islands it shows.
 */
async function filesOfPages(): Promise<{ route: string; js: string[]; css: string[] }[]> {
  const entry = (await import(pathToFileURL(serverEntry).href)) as ServerEntry;
  const assets = readBuiltAssets(clientDir);
  return measuredPaths().map(({ route, path: pagePath }) => {
    const page = assets.forIslands(entry.renderPage(pagePath, {}).islandModules);
    const js = [...(page.boot ? [page.boot] : []), ...page.scripts, ...page.preloads].map((file) => file.slice(1));
    return { route, js, css: page.styles.map((file) => file.slice(1)) };
  });
}

/** Every file a public page loads on arrival (JavaScript and CSS), across all pages. */
export async function publicPageFiles(): Promise<string[]> {
  return [...new Set((await filesOfPages()).flatMap((page) => [...page.js, ...page.css]))].sort();
}

/** A built file's text. */
export const builtFile = (file: string) => readFileSync(path.join(clientDir, file), "utf8");

/** First-load weight of each route's page, and of the 404 page. */
export async function measureRoutes(): Promise<RouteWeight[]> {
  return (await filesOfPages()).map(({ route, js, css }) => ({
    route,
    files: js.length,
    js: sizes(js),
    css: sizes(css),
  }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log("route                                           files   JS gzip   JS brotli   CSS gzip   CSS brotli");
  for (const row of await measureRoutes()) {
    console.log(
      `${row.route.padEnd(46)} ${String(row.files).padStart(5)} ${kb(row.js.gzip).padStart(9)} ${kb(row.js.brotli).padStart(11)} ${kb(row.css.gzip).padStart(10)} ${kb(row.css.brotli).padStart(12)}`,
    );
  }
}
