import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
    // In CI each file's and test's duration is kept too, to see where the suite's time goes.
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-results/vitest.json" }]] : ["default"],
  },
});
