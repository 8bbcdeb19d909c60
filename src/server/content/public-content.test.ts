import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../test/paths.ts";

// Decision 038, section 3: what the public reads is decided in one place,
// src/server/content/public-content.ts. No module outside src/server/content/ (the read condition,
// publishing, revisions, links, the importer), src/server/admin/studio/ (the studio) and
// src/server/admin/team/ (the team's screens) with src/server/admin/ordered/ (the path the team
// and the other ordered kinds share, decision 059) reads the content tables; tests and scripts aside. Today nothing else needs to: the analytics count paths,
// not articles, and the erasure and retention work touch enquiries alone.

const CONTENT_TABLES = ["blogPosts", "projects", "teamMembers", "testimonials", "clientLogos"];
// The back office's testimonials and client logos (decision 061) write their tables as the team's screens do.
const ALLOWED_DIRECTORIES = [
  "src/server/content/",
  "src/server/admin/studio/",
  "src/server/admin/team/",
  "src/server/admin/ordered/",
  "src/server/admin/testimonials/",
  "src/server/admin/client-logos/",
];

async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(path.join(repoRoot, directory), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(repoRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

const SCHEMA_FILE = "src/server/db/schema.ts";

/** Whether an import specifier, in the module at `file`, names the schema (a relative path or the #server alias). */
function isSchema(file: string, specifier: string): boolean {
  const resolved = specifier.startsWith(".")
    ? path.posix.join(path.posix.dirname(file), specifier)
    : specifier.replace(/^#server\//, "src/server/");
  return resolved === SCHEMA_FILE || `${resolved}.ts` === SCHEMA_FILE;
}

/** The names the module at `file` imports from the schema (src/server/db/schema.ts). */
export function namesImportedFromSchema(file: string, source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    if (!isSchema(file, match[2]!)) continue;
    for (const part of match[1]!.split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)[0]!
        .trim();
      if (name) names.push(name);
    }
  }
  return names;
}

/** What of the content tables a module reads besides named imports: through the schema as a namespace, or raw SQL. */
export function otherContentTableReads(file: string, source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/import\s+\*\s+as\s+(\w+)\s+from\s*["']([^"']+)["']/g)) {
    if (!isSchema(file, match[2]!)) continue;
    const namespace = match[1]!;
    for (const table of CONTENT_TABLES) {
      if (new RegExp(`\\b${namespace}\\.${table}\\b`).test(source)) found.push(`${namespace}.${table}`);
    }
  }
  for (const table of CONTENT_TABLES)
    if (new RegExp(`\\.query\\.${table}\\b`).test(source)) found.push(`db.query.${table}`);
  for (const match of source.matchAll(
    /\b(?:from|join|into|update)\s+"?(?:blog_posts|projects|team_members|testimonials|client_logos)\b"?/gi,
  )) {
    found.push(`SQL ${match[0]}`);
  }
  return found;
}

describe("the public read's one place", () => {
  it("sees an import of a content table in each spelling, and passes other schema imports", () => {
    const file = "src/server/routes/example.ts";
    expect(namesImportedFromSchema(file, `import { blogPosts, staff } from "../db/schema.ts";`)).toEqual([
      "blogPosts",
      "staff",
    ]);
    expect(
      namesImportedFromSchema(file, `import {\n  type BlogPostRow,\n  projects as p,\n} from "#server/db/schema.ts";`),
    ).toEqual(["BlogPostRow", "projects"]);
    expect(namesImportedFromSchema("src/server/db/x.ts", `import { teamMembers } from "./schema.ts";`)).toEqual([
      "teamMembers",
    ]);
    expect(namesImportedFromSchema(file, `import { projects } from "./projects.ts";`)).toEqual([]);
    expect(otherContentTableReads(file, `import * as s from "../db/schema.ts";\ns.teamMembers`)).toEqual([
      "s.teamMembers",
    ]);
    expect(otherContentTableReads(file, "sql`select title from blog_posts`")).toEqual(["SQL from blog_posts"]);
    expect(otherContentTableReads(file, `db.query.projects.findMany()`)).toEqual(["db.query.projects"]);
    expect(otherContentTableReads(file, `// Projects from the table\nconst projects = 1;`)).toEqual([]);
  });

  it("no module outside src/server/content/ and the back office's content folders (studio, team, ordered) reads blog_posts, projects or team_members", async () => {
    const files = (await sourceFiles("src")).filter(
      (file) =>
        !ALLOWED_DIRECTORIES.some((directory) => file.startsWith(directory)) && file !== "src/server/db/schema.ts",
    );
    expect(files.length).toBeGreaterThan(100);
    const readers: Record<string, string[]> = {};
    for (const file of files) {
      const source = await readFile(path.join(repoRoot, file), "utf8");
      const reads = [
        ...namesImportedFromSchema(file, source).filter((name) => CONTENT_TABLES.includes(name)),
        ...otherContentTableReads(file, source),
      ];
      if (reads.length) readers[file] = reads;
    }
    expect(readers).toEqual({});
  });
});
