import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures.ts";

// The checks every page gets: axe's WCAG 2.2 AA and best-practice rules, nothing wider than the
// screen, and, with SCREENSHOTS=1, a full-page screenshot in test-results/screenshots for a person
// to look at (a failing test leaves one of its own in test-results/e2e either way).

/** The widths pages are checked at: a phone's, a tablet's and a desktop's. */
export const widths = [375, 768, 1280] as const;

/** No axe violations on the page as it is now; `where` names the page and width in a failure. */
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  expect(
    results.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    ),
    `axe violations: ${where}`,
  ).toEqual([]);
}

/** Nothing is wider than the screen. */
export async function expectNoOverflow(page: Page, where: string): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `horizontal overflow: ${where}`).toBeLessThanOrEqual(0);
}

/** Full-page screenshots cost seconds each on long pages: taken only when asked for. */
const screenshots = ["1", "true"].includes(process.env.SCREENSHOTS ?? "");

/** With SCREENSHOTS=1, a full-page screenshot named `name` in test-results/screenshots. */
export async function photograph(page: Page, name: string): Promise<void> {
  if (screenshots) await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}
