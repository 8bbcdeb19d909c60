import { buildIfStale } from "../scripts/build-if-stale.ts";

// Tests that start the real server process need the production bundles.
export default function setup() {
  buildIfStale();
}
