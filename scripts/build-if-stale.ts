import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { databaseTemplatePath } from "../src/server/db/database-template.ts";

// Builds for production when the build is missing or older than any source it is built from:
// the browser bundle, the server-rendering entry and the compiled server. Used by `npm start`
// (`node --import tsx scripts/build-if-stale.ts`), the browser-test server, the bench and the
// tests that start real processes.

const root = fileURLToPath(new URL("../", import.meta.url));

/** The compiled server, which production runs with plain `node` (see vite.server.config.ts). */
export const compiledServerPath = path.join(root, "dist", "server-node", "main.js");

const outputs = [
  path.join(root, "dist/client/.vite/manifest.json"),
  databaseTemplatePath(),
  path.join(root, "dist/server/entry-server.js"),
  path.join(root, "dist/server/admin-entry-server.js"),
  compiledServerPath,
  // The Markdown renderer's worker thread, which the compiled server starts from beside itself.
  path.join(root, "dist", "server-node", "render-worker.js"),
  // The embedded database's thread, copied beside it (decision 050).
  path.join(root, "dist", "server-node", "pglite-worker.mjs"),
  path.join(root, "dist", "server-node", "socket-sessions.mjs"),
];
// The server reads drizzle/ at run time; it is an input so that a new migration comes with a
// build of the code that expects it.
const inputs = [
  "src",
  "public",
  "drizzle",
  "vite.config.ts",
  "vite.server.config.ts",
  "package.json",
  "package-lock.json",
].map((file) => path.join(root, file));

/** Tests and their kits are not part of any build: editing one does not make the build stale. */
const isTest = (name: string) => /\.test\.tsx?$|-test-kit\.tsx?$/.test(name);

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const name of readdirSync(target)) {
    if (!isTest(name)) newest = Math.max(newest, newestMtime(path.join(target, name)));
  }
  return newest;
}

export function buildIfStale(): void {
  const builtAt = Math.min(...outputs.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  const sourcesAt = Math.max(...inputs.map(newestMtime));
  if (builtAt !== 0 && sourcesAt <= builtAt) return;
  console.log(
    builtAt === 0 ? "No production build yet: building…" : "Sources changed since the last build: rebuilding…",
  );
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) buildIfStale();
