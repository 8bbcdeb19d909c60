import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// Which Vitest project a test file runs in (vitest.config.ts), read from what it imports, so that
// a new test file lands in the right one by itself. docs/testing.md says what each layer is for.
//
//   system       starts the compiled server or reads the production build (test/server-process.ts,
//                scripts/bundle-sizes.ts, the build's empty database): only this layer waits for
//                `npm run build`.
//   integration  opens a database (test/databases.ts, the database client, PGlite, the site):
//                run once per driver, each driver a project of its own.
//   unit         neither: no database, no build.
//
// A test's helpers in test/ (and files named *-test-kit.ts or *-fixtures.ts) are followed, since
// they are where a test usually reaches its database. A file placed in the wrong layer fails at
// once with a message (test/databases.ts, test/server-process.ts check TEST_LAYER).

export type Layer = "unit" | "integration" | "system";

const SYSTEM_MARKERS = ["test/server-process.ts", "scripts/bundle-sizes.ts", "src/server/db/database-template.ts"];
const INTEGRATION_MARKERS = [
  "test/databases.ts",
  "src/server/db/client.ts",
  "src/server/db/command-database.ts",
  "src/server/site.ts",
];
const INTEGRATION_PACKAGES = ["@electric-sql/pglite", "pg"];

/** Where the tests are: beside the code they test, in test/ and in scripts/. */
export const TEST_ROOTS = ["src", "test", "scripts"];
const isTestFile = (name: string) => /\.test\.tsx?$/.test(name);
/** Helpers whose imports count as the test's own. */
const isHelper = (file: string) => file.startsWith("test/") || /-(test-kit|fixtures)\.tsx?$/.test(file);

function walk(root: string, dir: string, found: string[]): void {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) walk(root, relative, found);
    else if (isTestFile(entry.name)) found.push(relative);
  }
}

/** Every test file under the test roots, relative to `root`, sorted. */
export function testFiles(root: string): string[] {
  const found: string[] = [];
  for (const dir of TEST_ROOTS) walk(root, dir, found);
  return found.sort();
}

// Imports and re-exports of values (not `import type`), and dynamic imports.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The project-relative file an import specifier names, or the package's name. */
function resolveImport(from: string, specifier: string): string {
  if (specifier.startsWith("#shared/")) return `src/shared/${specifier.slice(8)}`;
  if (specifier.startsWith("#server/")) return `src/server/${specifier.slice(8)}`;
  if (specifier.startsWith("#web/")) return `src/web/${specifier.slice(5)}`;
  if (specifier.startsWith(".")) return path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return specifier;
}

function importsOf(root: string, file: string): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(root, file), "utf8");
  } catch {
    return [];
  }
  return [...text.matchAll(IMPORT)].map((match) => resolveImport(file, (match[1] ?? match[2])!));
}

/** The layer of one test file (relative to `root`). */
export function layerOf(root: string, file: string): Layer {
  const seen = new Set<string>();
  const reached: string[] = [];
  const visit = (current: string) => {
    for (const target of importsOf(root, current)) {
      if (seen.has(target)) continue;
      seen.add(target);
      reached.push(target);
      if (isHelper(target)) visit(target);
    }
  };
  visit(file);
  const names = (target: string, marker: string) => target === marker || target.startsWith(`${marker}/`);
  if (reached.some((target) => SYSTEM_MARKERS.includes(target))) return "system";
  if (
    reached.some(
      (target) => INTEGRATION_MARKERS.includes(target) || INTEGRATION_PACKAGES.some((marker) => names(target, marker)),
    )
  )
    return "integration";
  return "unit";
}

/** The test files of each layer. */
export function testFilesByLayer(root: string): Record<Layer, string[]> {
  const layers: Record<Layer, string[]> = { unit: [], integration: [], system: [] };
  for (const file of testFiles(root)) layers[layerOf(root, file)].push(file);
  return layers;
}

/** The layer this test process runs (Vitest sets TEST_LAYER per project; "smoke" for the smoke set), if any. */
export const currentLayer = (): Layer | "smoke" | undefined => process.env.TEST_LAYER as Layer | "smoke" | undefined;
