import { defineConfig } from "vitest/config";

// The smoke set (test/smoke/): the compiled server started and asked over HTTP, on whatever Node
// runs it. `npm run test:smoke` after `npm run build`; CI runs it on Node 20 (docs/testing.md).
export default defineConfig({
  test: {
    include: ["test/smoke/*.smoke.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    setupFiles: ["test/setup.ts"],
    env: { TEST_LAYER: "smoke" },
  },
});
