import { buildIfStale } from "../scripts/build-if-stale.ts";

// The system project's set-up (vitest.config.ts): its tests start the compiled server or read the
// production build, so it builds first when the build is missing or older than its sources.
export default function setup() {
  buildIfStale();
}
