import { execFile } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");

describe("npm run content:check", () => {
  it("passes on the site's content", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/content-check.ts"], { cwd: root });
    expect(stdout).toMatch(/all valid/);
  });

  it("fails on a broken file, naming the file and the field", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "content-check-"));
    try {
      await mkdir(path.join(dir, "articles"), { recursive: true });
      await writeFile(
        path.join(dir, "articles", "broken.md"),
        "---\ntitle: A title\nexcerpt: An excerpt.\ncategory: Power Quality\nimage: /images/x.svg\npublishedAt: not-a-date\n---\nBody.\n",
      );
      const failure = await run(process.execPath, ["--import", "tsx", "scripts/content-check.ts", dir], { cwd: root }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain(`${path.join("articles", "broken.md")}: publishedAt must be a date like 2025-01-05`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
