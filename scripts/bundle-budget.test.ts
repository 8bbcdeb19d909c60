import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pageRoutes } from "../src/web/routes.tsx";
import { BUDGET, builtFile, builtPageModules, measureRoutes, publicPageFiles } from "./bundle-sizes.ts";

// Bundle sizes are deterministic, so the budget is a test: first-load JavaScript at most 100 KB
// and CSS at most 15 KB, gzip, on every route (PRODUCT.md, "The bar"). The global setup builds
// dist/ when it is stale.

describe("first-load weight of every route", () => {
  const weights = measureRoutes();

  it("covers every page module the router knows, as the build's manifest lists them", () => {
    const routed = new Set(Object.values(pageRoutes).map((route) => route.component.module));
    expect(builtPageModules()).toEqual(expect.arrayContaining([...routed]));
    expect(weights.map((row) => row.route)).toEqual([...builtPageModules(), "(404)"]);
    for (const row of weights.filter((entry) => entry.route !== "(404)")) {
      // More files than the shell alone: the page's own chunk was found in the manifest.
      expect(row.files, row.route).toBeGreaterThan(weights.find((entry) => entry.route === "(404)")!.files);
    }
  });

  it.each(weights.map((row) => [row.route, row] as const))("%s stays within the JavaScript and CSS budgets", (_route, row) => {
    expect(row.js.gzip).toBeLessThanOrEqual(BUDGET.jsGzip);
    expect(row.css.gzip).toBeLessThanOrEqual(BUDGET.cssGzip);
  });
});

describe("the back office's code", () => {
  it("is in no file a public page loads", () => {
    const files = publicPageFiles();
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = builtFile(file);
      // The back office's API paths, its passkey library and its styles' own class names.
      expect(text, file).not.toContain("/admin/api/");
      expect(text.toLowerCase(), file).not.toContain("webauthn");
      expect(text, file).not.toContain("admin-card");
    }
  });
});

describe("the analytics beacon", () => {
  it("adds at most a few hundred bytes to the public bundle", async () => {
    const { minify, transformWithOxc } = await import("vite");
    // The beacon's own code, minified as the build does (its imports, React and the shared paths, are in the bundle already).
    const file = fileURLToPath(new URL("../src/web/lib/count-navigation.ts", import.meta.url));
    const { code: javascript } = await transformWithOxc(readFileSync(file, "utf8"), file);
    const { code } = await minify(file.replace(/\.ts$/, ".js"), javascript);
    expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(300);
    // It is in the public entry, and sends to the beacon endpoint.
    expect(publicPageFiles().some((file) => builtFile(file).includes("sendBeacon"))).toBe(true);
  });
});
