import { defineConfig, devices } from "@playwright/test";

// Browser tests drive Debian's Chromium (/usr/bin/chromium); no browser is downloaded. The site
// runs from its production build on the embedded database, started fresh for the run.
const port = Number(process.env.E2E_PORT ?? 4173);
export const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // In CI, and under npm test (E2E_REPORT), each test's duration is kept too, to see where the
  // suite's time goes (scripts/test.ts prints the slowest files).
  reporter:
    process.env.CI || process.env.E2E_REPORT
      ? [["list"], ["json", { outputFile: "test-results/playwright.json" }]]
      : [["list"]],
  timeout: 30_000,
  use: {
    ...devices["Desktop Chrome"],
    baseURL,
    // A trace is recorded for every test and kept for a failing one, for a person to open; CI keeps
    // only what the run prints, so there no test pays for recording one (about 8% of every-route's
    // time here). A failure's screenshot and error are printed either way.
    trace: process.env.CI ? "off" : "retain-on-failure",
    // What the page showed when a test failed; the named screenshots of page-checks.ts with SCREENSHOTS=1.
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "node --import tsx scripts/e2e-server.ts",
    url: `${baseURL}/api/blog-posts`,
    env: { PORT: String(port) },
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    // The site logs warnings and errors only (scripts/e2e-server.ts): shown in the run's output,
    // so that work that failed after its answer is seen where the test failed.
    stdout: "pipe",
    stderr: "pipe",
  },
});
