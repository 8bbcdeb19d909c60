import { test as base, expect, type Page } from "@playwright/test";
import { baseURL } from "../playwright.config.ts";

export type PageGuard = {
  /** A console message this test provokes on purpose (a failed request it staged, say). */
  allow: (pattern: RegExp) => void;
  /** Guards another page too (a second browser's, a new tab's), as the test's own page is guarded. */
  watch: (page: Page) => void;
};

// Every test fails on a console error or warning, an uncaught exception, or a request that leaves
// the site's own origin, unless the test said it expects that message.
export const test = base.extend<{ pageGuard: PageGuard }>({
  pageGuard: [
    async ({ page }, use) => {
      const problems: string[] = [];
      const allowed: RegExp[] = [];
      const watch = (watched: Page) => {
        watched.on("console", (message) => {
          // With the address it concerns, if any: "Failed to load resource" does not name it.
          const where = message.location().url;
          if (message.type() === "error" || message.type() === "warning")
            problems.push(`console.${message.type()}: ${message.text()}${where ? ` (${where})` : ""}`);
        });
        watched.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
        watched.on("request", (request) => {
          const url = request.url();
          if (!url.startsWith(baseURL) && !url.startsWith("data:")) problems.push(`request to another origin: ${url}`);
        });
      };
      watch(page);
      await use({ allow: (pattern) => allowed.push(pattern), watch });
      const unexpected = problems.filter((problem) => !allowed.some((pattern) => pattern.test(problem)));
      expect(unexpected, "console errors, page errors or foreign requests").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
