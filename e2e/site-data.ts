import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

// What the browser tests' server has stored, read with the site's own export command over the
// running site's database socket (see scripts/e2e-server.ts for where that database lives).

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
export const e2eDataDir = path.join(root, "test-results", "e2e-data");

export type StoredEnquiry = {
  firstName: string;
  lastName: string;
  email: string;
  message: string;
  spam: boolean;
  spamReason: string | null;
};

export async function storedEnquiries(): Promise<StoredEnquiry[]> {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "scripts/enquiries.ts", "--format", "json", "--spam"],
    {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: e2eDataDir },
    },
  );
  return JSON.parse(stdout) as StoredEnquiry[];
}

export async function storedSubscribers(): Promise<{ email: string }[]> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/subscribers.ts", "--format", "json"], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: e2eDataDir },
  });
  return JSON.parse(stdout) as { email: string }[];
}

/** An address no other test uses, to find this test's rows. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}
