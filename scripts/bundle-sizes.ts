import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { readBuiltAssets } from "../src/server/render/assets.ts";

// First-load JavaScript and CSS of every page, as a browser downloads them on arrival: the
// entry, the page's own chunk and every chunk either imports. Used by the budget test and the
// benchmark. `node --import tsx scripts/bundle-sizes.ts` prints the table.

export const BUDGET = { jsGzip: 100 * 1024, cssGzip: 15 * 1024 };

const root = fileURLToPath(new URL("../", import.meta.url));
const clientDir = path.join(root, "dist", "client");

/** Where the browser's page modules live: each is a chunk of its own in the build's manifest. */
const PAGE_MODULES = "src/web/pages/";

type ManifestChunk = { isDynamicEntry?: boolean };

/** Every page module the build produced, read from its own manifest: none can escape the budget. */
export function builtPageModules(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
  return Object.entries(manifest)
    .filter(([source, chunk]) => chunk.isDynamicEntry && source.startsWith(PAGE_MODULES))
    .map(([source]) => source)
    .sort();
}

export type RouteWeight = { route: string; files: number; js: { raw: number; gzip: number; brotli: number }; css: { raw: number; gzip: number; brotli: number } };

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

/** Every file a public page loads on arrival (JavaScript and CSS), across all pages. */
export function publicPageFiles(): string[] {
  const assets = readBuiltAssets(clientDir);
  const files = new Set<string>();
  for (const module of [...builtPageModules(), undefined]) {
    const page = assets.forPage(module);
    for (const file of [...(page.boot ? [page.boot] : []), ...page.scripts, ...page.preloads, ...page.styles]) files.add(file.slice(1));
  }
  return [...files].sort();
}

/** A built file's text. */
export const builtFile = (file: string) => readFileSync(path.join(clientDir, file), "utf8");

/** First-load weight of each page module, and of the 404 page ("(404)": the entry alone). */
export function measureRoutes(): RouteWeight[] {
  const assets = readBuiltAssets(clientDir);
  return [...builtPageModules(), "(404)"].map((route) => {
    const page = assets.forPage(route === "(404)" ? undefined : route);
    const js = [...(page.boot ? [page.boot] : []), ...page.scripts, ...page.preloads].map((file) => file.slice(1));
    return { route, files: js.length, js: sizes(js), css: sizes(page.styles.map((file) => file.slice(1))) };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log("page module                                     files   JS gzip   JS brotli   CSS gzip   CSS brotli");
  for (const row of measureRoutes()) {
    console.log(
      `${row.route.replace(PAGE_MODULES, "").padEnd(46)} ${String(row.files).padStart(5)} ${kb(row.js.gzip).padStart(9)} ${kb(row.js.brotli).padStart(11)} ${kb(row.css.gzip).padStart(10)} ${kb(row.css.brotli).padStart(12)}`,
    );
  }
}
