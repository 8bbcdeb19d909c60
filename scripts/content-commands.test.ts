import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDocument } from "../src/shared/content/documents.ts";
import { parseConfig } from "../src/server/config.ts";
import { appendRevision } from "../src/server/content/revisions.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { blogPosts, contentRevisions } from "../src/server/db/schema.ts";
import { startSite } from "../src/server/site.ts";
import { onPglite } from "../test/drivers.ts";

// npm run content:import, content:sync and content:export against an embedded database no site
// holds (scripts/export-commands.test.ts has content:sync ask a running site). What they print,
// their exit codes, and that nothing they print carries a control character.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");

type Result = { code: number; stdout: string; stderr: string };

async function command(script: string, args: string[], env: Record<string, string>): Promise<Result> {
  return run(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Result) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

const ARC_FLASH = "arc-flash-studies-ieee-1584-2018";
const HARMONICS = "ieee-519-harmonics-at-a-vfd-heavy-plant";

describe.runIf(onPglite)("the content commands", () => {
  let dataDir: string;
  let contentDir: string;
  let outDir: string;
  let env: Record<string, string>;
  const articleFile = (slug: string) => path.join(contentDir, "articles", `${slug}.md`);
  const retitle = async (slug: string, title: string) =>
    writeFile(
      articleFile(slug),
      (await readFile(articleFile(slug), "utf8")).replace(/^title: .*$/m, `title: "${title}"`),
    );

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "content-commands-data-"));
    contentDir = await mkdtemp(path.join(tmpdir(), "content-commands-content-"));
    outDir = await mkdtemp(path.join(tmpdir(), "content-commands-out-"));
    await cp(path.join(root, "content"), contentDir, { recursive: true });
    env = { DATA_DIR: dataDir, CONTENT_DIR: contentDir };
    // A site seeds its database from the files on its first start, then stops.
    const site = await startSite({ config: parseConfig({ NODE_ENV: "test", ...env }) });
    await site.close();
    // Meera changes one article in the studio (her name as stored by an older version, with an escape in it).
    const database = await openCommandDatabase(parseConfig(env), "test");
    try {
      const [row] = await database.db
        .select({ id: blogPosts.id, document: contentRevisions.document, head: blogPosts.headRevisionId })
        .from(blogPosts)
        .innerJoin(contentRevisions, eq(contentRevisions.id, blogPosts.headRevisionId))
        .where(eq(blogPosts.slug, HARMONICS));
      await appendRevision(database.db, {
        kind: "article",
        itemId: row!.id,
        baseRevisionId: row!.head,
        document: { ...(row!.document as unknown as ArticleDocument), title: "Harmonics, by Meera" },
        source: "studio",
        author: { id: null, label: "Meera\u001b[31m Shah" },
      });
    } finally {
      await database.close();
    }
  }, 120_000);
  afterAll(async () => {
    for (const dir of [dataDir, contentDir, outDir]) await rm(dir, { recursive: true, force: true });
  });

  it(
    "content:import says what it updated and skipped, and exits 2 for a skip; --dry-run writes nothing",
    { timeout: 120_000 },
    async () => {
      await retitle(ARC_FLASH, "Arc Flash, retitled in the file");
      await retitle(HARMONICS, "Harmonics, retitled in the file");

      const dry = await command("content-import", [contentDir, "--dry-run", "--force"], env);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toMatch(
        /^updated articles\/ieee-519-harmonics-at-a-vfd-heavy-plant\.md «Harmonics, retitled in the file»: published, forced over the studio \(changed in the studio by Meera\[31m Shah on .+\)$/m,
      );
      expect(dry.stdout).toMatch(/^Dry run: nothing was written\.$/m);

      const first = await command("content-import", [contentDir], env);
      expect(first.code).toBe(2);
      expect(first.stderr).toBe("");
      const lines = first.stdout.trim().split("\n");
      expect(lines[0]).toBe(`updated articles/${ARC_FLASH}.md «Arc Flash, retitled in the file»: published`);
      expect(lines[1]).toMatch(
        /^skipped articles\/ieee-519-harmonics-at-a-vfd-heavy-plant\.md «Harmonics, retitled in the file»: changed in the studio by Meera\[31m Shah on \d{1,2} \w{3} \d{4}, \d\d:\d\d$/,
      );
      expect(lines[2]).toMatch(/^\d+ unchanged\.$/);
      expect(lines[3]).toMatch(/^1 skipped: .+--force/);
      expect(lines).toHaveLength(4);
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      expect(first.stdout).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);

      const again = await command("content-import", [contentDir], env);
      expect(again.code).toBe(2);
      expect(again.stdout.split("\n")[0]).toMatch(/^skipped articles\/ieee-519/);
    },
  );

  it(
    "content:import exits 1 on a broken file, naming it, and content:sync prunes CONTENT_DIR's gone files",
    { timeout: 120_000 },
    async () => {
      const broken = path.join(contentDir, "articles", "broken.md");
      await writeFile(broken, "---\ntitle: Broken\npublishedAt: someday\n---\nBody.\n");
      const failed = await command("content-import", [contentDir, "--prune"], env);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(
        `${path.join(path.relative(root, contentDir), "articles", "broken.md")}: publishedAt must be a date`,
      );
      await rm(broken);

      await rm(path.join(contentDir, "projects", "hospital-power-resilience.yaml"));
      const synced = await command("content-sync", [], env);
      expect(synced.code).toBe(2);
      expect(synced.stdout).toMatch(
        /^trashed projects\/hospital-power-resilience\.yaml «.+»: its file is gone; moved to the trash$/m,
      );

      const usage = await command("content-import", [contentDir, "--purge"], env);
      expect(usage).toMatchObject({ code: 1, stdout: "" });
      expect(usage.stderr).toMatch(/^Unknown argument --purge\. Usage: npm run content:import -- <dir>/);
    },
  );

  it(
    "content:export writes the folder canonically, removes stray files and lists what it did not export",
    { timeout: 120_000 },
    async () => {
      await writeFile(path.join(outDir, "notes.txt"), "kept");
      await cp(path.join(root, "content", "articles"), path.join(outDir, "articles"), { recursive: true });
      await writeFile(path.join(outDir, "articles", "stray.md"), "---\ntitle: Stray\n---\n");
      const exported = await command("content-export", ["--out", outDir], env);
      expect(exported.code).toBe(0);
      const lines = exported.stdout.trim().split("\n");
      expect(lines[0]).toMatch(
        /^Wrote 9 articles, 7 projects, 8 team members, 3 testimonials, 0 client logos, 0 redirects and 18 pictures to .+\.$/,
      );
      expect(lines).toContain("removed articles/stray.md");
      expect(lines).toContain(
        "not exported projects/hospital-power-resilience.yaml «Power Resilience Design for a 600-Bed Hospital, Ahmedabad»: in the trash",
      );
      expect(lines.find((line) => line.includes(HARMONICS))).toMatch(
        /^not exported articles\/ieee-519-harmonics-at-a-vfd-heavy-plant\.md «.+»: its changes since publishing \(revision 2 by Meera\[31m Shah\) are not published, so not exported$/,
      );
      expect(await readFile(path.join(outDir, "notes.txt"), "utf8")).toBe("kept");
      expect((await readdir(path.join(outDir, "articles"))).sort()).not.toContain("stray.md");
      expect(await readFile(path.join(outDir, "articles", `${ARC_FLASH}.md`), "utf8")).toMatch(
        /^---\ntitle: Arc Flash, retitled in the file\n/,
      );
      // The export, imported, is what the database holds: nothing to do.
      const back = await command("content-import", [outDir], env);
      expect(back.code).toBe(0);
      expect(back.stdout).toMatch(/^\d+ unchanged\.\n$/);
    },
  );
});
