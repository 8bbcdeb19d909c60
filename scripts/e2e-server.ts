import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildIfStale, compiledServerPath } from "./build-if-stale.ts";

// The server the browser tests run against: the production build (built when stale) and the
// compiled server, over a new embedded database in test-results/, so every run starts from the
// content files alone.

const root = fileURLToPath(new URL("../", import.meta.url));
const dataDir = path.join(root, "test-results", "e2e-data");
await rm(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.LOG_LEVEL ??= "warn";
// Every browser test posts from 127.0.0.1, so the visitor's limit of 5 a minute would make them
// depend on each other's timing; the limit itself is tested through inject() and two instances.
process.env.RATE_LIMIT_PER_MINUTE ??= "1000";
process.env.ADMIN_ATTEMPTS_PER_MINUTE ??= "1000";
process.env.HOST = "127.0.0.1";
process.env.NODE_ENV ??= "production";
// The browser tests' site makes no daily backup.
process.env.BACKUP_SCHEDULE ??= "false";
// The compiled server, as production runs it.
buildIfStale();
await import(pathToFileURL(compiledServerPath).href);
