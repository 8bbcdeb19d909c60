import { defineConfig } from "vitest/config";
import { isCI } from "./test/ci.ts";
import { testFilesByLayer } from "./test/layers.ts";

// The suite in layers (docs/testing.md): each a Vitest project, so that each runs only what it
// needs and `npm test` can say what each costs.
//   unit                  no database, no build
//   integration:pglite    the database tests on the embedded database
//   integration:postgres  the same files on a PostgreSQL server (TEST_DATABASE_URL; always in CI)
//   system                the files that start the compiled server or read the build: built first
// test/layers.ts puts each file in its layer from what it imports. `npm run test:unit` runs the
// first three; `npm test` runs them all (scripts/test.ts).

const root = import.meta.dirname;
const layers = testFilesByLayer(root);
const withPostgres = Boolean(process.env.TEST_DATABASE_URL) || isCI();

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/setup.ts"],
    // Two CPUs: Vitest's default of one worker per CPU but one leaves the second idle while a
    // database test waits on its server; measured in docs/testing.md.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    // Each file's time by project, for npm test's table (test/timing-reporter.ts); in CI, or when
    // TEST_REPORT names a file, every test's result and duration as JSON too.
    reporters: [
      "default",
      "./test/timing-reporter.ts",
      ...(process.env.CI || process.env.TEST_REPORT
        ? [["json", { outputFile: process.env.TEST_REPORT ?? "test-results/vitest.json" }] satisfies ["json", object]]
        : []),
    ],
    projects: [
      { extends: true, test: { name: "unit", include: layers.unit, env: { TEST_LAYER: "unit" } } },
      {
        extends: true,
        test: {
          name: "integration:pglite",
          include: layers.integration,
          env: { TEST_LAYER: "integration", TEST_DRIVERS: "pglite" },
          globalSetup: ["test/global-setup.ts"],
          // One module graph per worker rather than per file: importing the server afresh for each
          // file cost more than its tests (docs/testing.md). A file must therefore not lean on
          // module state another file left behind; each opens its own database.
          isolate: false,
        },
      },
      ...(withPostgres
        ? [
            {
              extends: true as const,
              test: {
                name: "integration:postgres",
                include: layers.integration,
                env: { TEST_LAYER: "integration", TEST_DRIVERS: "postgres" },
                globalSetup: ["test/global-setup.ts"],
                isolate: false,
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: "system",
          include: layers.system,
          env: { TEST_LAYER: "system" },
          globalSetup: ["test/build-setup.ts", "test/global-setup.ts"],
        },
      },
    ],
  },
});
