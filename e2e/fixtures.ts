import { test as base, type BrowserContext, expect, type Page } from "@playwright/test";
import { baseURL } from "../playwright.config.ts";
import { mintStaff, type StaffMember, type StaffRole, useSession } from "./staff-sessions.ts";

export type PageGuard = {
  /** A console message this test provokes on purpose (a failed request it staged, say). */
  allow: (pattern: RegExp) => void;
  /** Guards another page too (a second browser's, a new tab's), as the test's own page is guarded. */
  watch: (page: Page) => void;
};

export type StaffFixtures = {
  /**
   * Signs the page's browser (or a context) in as this worker's admin, member of staff, or member of
   * staff allowed to publish: one person and one session of each per worker, made on first use.
   * For tests that do not change the person; a test that signs out, ends sessions, or changes a
   * role or a name makes its own with `newStaff`.
   */
  signIn: (target: Page | BrowserContext, role: StaffRole) => Promise<StaffMember>;
  /** A new member of staff of this test's own, signed in on the page's browser (or a context). */
  newStaff: (target: Page | BrowserContext, person: { name: string; role: StaffRole }) => Promise<StaffMember>;
};

/** The names the workers' people go by (the Nth worker takes the Nth), as a person reads them in the back office. */
const workerNames: Record<StaffRole, string[]> = {
  admin: ["Meera Shah", "Kavya Iyer", "Nandini Rao", "Leela Menon"],
  staff: ["Ravi Desai", "Arjun Mehta", "Kiran Joshi", "Sunil Nair"],
  publisher: ["Asha Patel", "Farah Khan", "Divya Kulkarni", "Pooja Sethi"],
};

// Every test fails on a console error or warning, an uncaught exception, or a request that leaves
// the site's own origin, unless the test said it expects that message.
export const test = base.extend<
  { pageGuard: PageGuard } & StaffFixtures,
  { workerStaff: Record<StaffRole, StaffMember> }
>({
  workerStaff: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const name = (role: StaffRole) => workerNames[role][workerInfo.parallelIndex % workerNames[role].length]!;
      await use({
        admin: await mintStaff({ name: name("admin"), role: "admin" }),
        staff: await mintStaff({ name: name("staff"), role: "staff" }),
        publisher: await mintStaff({ name: name("publisher"), role: "publisher" }),
      });
    },
    { scope: "worker" },
  ],
  signIn: async ({ workerStaff }, use) => {
    await use(async (target, role) => {
      await useSession(target, workerStaff[role]);
      return workerStaff[role];
    });
  },
  // eslint-disable-next-line no-empty-pattern
  newStaff: async ({}, use) => {
    await use(async (target, person) => {
      const member = await mintStaff(person);
      await useSession(target, member);
      return member;
    });
  },
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
