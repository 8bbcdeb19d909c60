import { describe, expect, it } from "vitest";
import { routeIds } from "../src/shared/routes.ts";
import { BUDGET, builtFile, measureRoutes, publicPageFiles } from "./bundle-sizes.ts";

// Bundle sizes are deterministic, so the budget is a test: first-load JavaScript at most 80 KB
// and CSS at most 15 KB, gzip, on every route (docs/performance.md, "Targets"). The global setup
// builds dist/ when it is stale.

describe("first-load weight of every route", async () => {
  const weights = await measureRoutes();

  it("covers every route of the table and the 404 page", () => {
    expect(weights.map((row) => row.route)).toEqual([...routeIds, "(404)"]);
    const contact = weights.find((row) => row.route === "contact")!;
    const notFound = weights.find((row) => row.route === "(404)")!;
    // The contact page loads its form's island on top of what every page loads.
    expect(contact.files).toBeGreaterThan(notFound.files);
  });

  it.each(weights.map((row) => [row.route, row] as const))(
    "%s stays within the JavaScript and CSS budgets",
    (_route, row) => {
      expect(row.js.gzip).toBeLessThanOrEqual(BUDGET.jsGzip);
      expect(row.css.gzip).toBeLessThanOrEqual(BUDGET.cssGzip);
    },
  );
});

describe("the back office's code", () => {
  it("is in no file a public page loads", async () => {
    const files = await publicPageFiles();
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
