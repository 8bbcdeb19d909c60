import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { readBuiltAssets } from "../src/server/render/assets.ts";

// First-load JavaScript and CSS of every route, as a browser downloads them on arrival: the
// entry, the page's own chunk and every chunk either imports. Used by the budget test and the
// benchmark. `node --import tsx scripts/bundle-sizes.ts` prints the table.

export const BUDGET = { jsGzip: 100 * 1024, cssGzip: 15 * 1024 };

const root = fileURLToPath(new URL("../", import.meta.url));
const clientDir = path.join(root, "dist", "client");

/** Each route's page module, as routes.tsx names it; `null` for the 404 page (no page chunk). */
export const routeModules: Record<string, string | null> = {
  "/": "src/web/pages/home/home-page.tsx",
  "/about": "src/web/pages/about/about-page.tsx",
  "/services": "src/web/pages/services/services-page.tsx",
  "/industries": "src/web/pages/industries/industries-page.tsx",
  "/projects": "src/web/pages/projects/projects-page.tsx",
  "/projects/:slug": "src/web/pages/project/project-page.tsx",
  "/blog": "src/web/pages/blog/blog-page.tsx",
  "/blog/:slug": "src/web/pages/article/article-page.tsx",
  "/contact": "src/web/pages/contact/contact-page.tsx",
  "/thank-you": "src/web/pages/thank-you/thank-you-page.tsx",
  "/privacy": "src/web/pages/legal/legal-pages.tsx",
  "(404)": null,
};

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

export function measureRoutes(): RouteWeight[] {
  const assets = readBuiltAssets(clientDir);
  return Object.entries(routeModules).map(([route, module]) => {
    const page = assets.forPage(module ?? undefined);
    const js = [...(page.boot ? [page.boot] : []), ...page.scripts, ...page.preloads].map((file) => file.slice(1));
    return { route, files: js.length, js: sizes(js), css: sizes(page.styles.map((file) => file.slice(1))) };
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log("route              files   JS gzip   JS brotli   CSS gzip   CSS brotli");
  for (const row of measureRoutes()) {
    console.log(
      `${row.route.padEnd(18)} ${String(row.files).padStart(5)} ${kb(row.js.gzip).padStart(9)} ${kb(row.js.brotli).padStart(11)} ${kb(row.css.gzip).padStart(10)} ${kb(row.css.brotli).padStart(12)}`,
    );
  }
}
