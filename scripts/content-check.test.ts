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
      const failure = await run(process.execPath, ["--import", "tsx", "scripts/content-check.ts", dir], {
        cwd: root,
      }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain(
        `${path.join("articles", "broken.md")}: publishedAt must be a date like 2025-01-05`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails on a picture that is not in public/ and on a day that does not exist, naming file and field", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "content-check-"));
    const article = (image: string, publishedAt: string) =>
      `---\ntitle: A title\nexcerpt: An excerpt.\ncategory: Power Quality\nimage: ${image}\npublishedAt: ${publishedAt}\n---\nBody.\n`;
    try {
      await mkdir(path.join(dir, "articles"), { recursive: true });
      await mkdir(path.join(dir, "projects"), { recursive: true });
      await writeFile(path.join(dir, "articles", "fine.md"), article("/images/hero-substation.svg", "2024-02-29"));
      await writeFile(
        path.join(dir, "articles", "no-picture.md"),
        article("/images/articles/no-such-picture.svg", "2025-01-05"),
      );
      await writeFile(
        path.join(dir, "articles", "no-such-day.md"),
        article("/images/hero-substation.svg", "2025-02-30"),
      );
      await writeFile(
        path.join(dir, "projects", "no-picture.yaml"),
        "title: A project\ndescription: A description.\ncategory: Utility\nimage: /images/projects/no-such-picture.svg\nyear: 2024\n",
      );
      const failure = await run(process.execPath, ["--import", "tsx", "scripts/content-check.ts", dir], {
        cwd: root,
      }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      const lines = failure?.stderr
        .trim()
        .split("\n")
        .map((line) => line.replace(`${path.relative(root, dir)}${path.sep}`, ""));
      expect(lines?.sort()).toEqual([
        `${path.join("articles", "no-picture.md")}: image names a file that does not exist (public/images/articles/no-such-picture.svg)`,
        `${path.join("articles", "no-such-day.md")}: publishedAt must be a date that exists (2025-02-30 does not)`,
        `${path.join("projects", "no-picture.yaml")}: image names a file that does not exist (public/images/projects/no-such-picture.svg)`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
