import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Builds the production bundles when they are missing or older than any source they are built
// from. Used by `npm start`, the browser-test server and the tests that start real processes.

const root = fileURLToPath(new URL("../", import.meta.url));
const outputs = ["dist/client/.vite/manifest.json", "dist/server/entry-server.js", "dist/server/admin-entry-server.js"].map((file) => path.join(root, file));
const inputs = ["src/web", "src/shared", "public", "vite.config.ts", "package-lock.json"].map((file) => path.join(root, file));

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const name of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, name)));
  return newest;
}

export function buildIfStale(): void {
  const builtAt = Math.min(...outputs.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  const sourcesAt = Math.max(...inputs.map(newestMtime));
  if (builtAt !== 0 && sourcesAt <= builtAt) return;
  console.log(builtAt === 0 ? "No production build yet: building…" : "Sources changed since the last build: rebuilding…");
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
}
