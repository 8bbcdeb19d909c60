import { buildIfStale } from "./build-if-stale.ts";

// `npm start`: builds the production bundles when missing or stale, then serves them.
buildIfStale();
process.env.NODE_ENV ??= "production";
await import("../src/server/main.ts");
