import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PRODUCTION_ENV } from "../scripts/bench/production-env.ts";
import { repoRoot } from "./paths.ts";

// The server's process settings that are not the site's own (docs/decisions/047): the Dockerfile,
// `npm start` and the bench's production server set the same, so that the bench's memory figures
// are production's.

describe("the production server's process settings", () => {
  it("are the same in the Dockerfile, npm start and the bench", async () => {
    const dockerfile = await readFile(path.join(repoRoot, "Dockerfile"), "utf8");
    const runtime = dockerfile.slice(dockerfile.indexOf("AS runtime"));
    const start = (
      JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { scripts: { start: string } }
    ).scripts.start;
    for (const [name, value] of Object.entries(PRODUCTION_ENV)) {
      expect(runtime, "the Dockerfile's runtime stage").toMatch(new RegExp(`^ENV ${name}=${value}$`, "m"));
      expect(start, "npm start").toContain(`${name}=\${${name}:-${value}}`);
    }
  });
});
