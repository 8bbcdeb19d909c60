import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { BrowserContext, CDPSession, Page } from "@playwright/test";
import { expect } from "./fixtures.ts";
import { e2eDataDir } from "./site-data.ts";
import { adminOrigin } from "./staff-sessions.ts";

// The back office in a real browser: Chromium's virtual WebAuthn authenticator (through the
// DevTools protocol) stands in for a phone or a laptop's passkey. Browsers refuse passkeys on a
// bare IP address, so back-office pages are opened at http://localhost:<port>; tests that browse
// there allow it in their page guard (`pageGuard.allow(/request to another origin: http:\/\/localhost:/)`).

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
export { adminOrigin };

/** `npm run staff -- …` against the browser tests' running site; its output's last line. */
export async function staffCommand(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/staff.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: e2eDataDir, SITE_URL: adminOrigin },
  });
  return stdout.trim().split("\n").at(-1)!;
}

export type VirtualAuthenticator = { cdp: CDPSession; authenticatorId: string };

/** A platform authenticator with user verification, like a laptop's fingerprint reader. */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Opens a new browser context whose authenticator holds copies of these passkeys. */
export async function contextWithPasskeys(context: BrowserContext, credentials: unknown[]): Promise<{ page: Page }> {
  const page = await context.newPage();
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  for (const credential of credentials)
    await cdp.send("WebAuthn.addCredential", { authenticatorId, credential: credential as never });
  return { page };
}

export async function acceptInvitation(page: Page, link: string, name: string) {
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Welcome, ${name}`);
  await page.locator("html[data-ready=true]").waitFor();
  await page.getByRole("button", { name: /passkey/ }).click();
  await page.waitForURL(`${adminOrigin}/admin`);
}
