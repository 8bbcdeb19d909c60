import path from "node:path";
import { parseConfig } from "../src/server/config.ts";
import { exportContent } from "../src/server/content/export-content.ts";
import { openCommandDatabase } from "../src/server/db/command-database.ts";
import { printable } from "../src/server/export/export-format.ts";
import { finish, UsageError } from "./content-commands.ts";

// `npm run content:export -- --out <dir>`: writes the database's articles, projects, team members,
// redirects and media library pictures as a content folder (docs/content.md), removing the other .md
// and .yaml files of its three folders and the library files of media/ no picture wrote, and lists
// what it did not export (items in the trash, changes not published).
// Reads only: it works while the site runs, through its socket.

const USAGE = "Usage: npm run content:export -- --out <dir>";

function parseArgs(argv: string[]): string {
  let out: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === "--out" && argv[i + 1] !== undefined && out === undefined) out = argv[++i];
    else throw new UsageError(`Unknown argument ${argv[i]}. ${USAGE}`);
  }
  if (!out) throw new UsageError(`Name the folder to write. ${USAGE}`);
  return path.resolve(out);
}

async function main(): Promise<number> {
  const out = parseArgs(process.argv.slice(2));
  const database = await openCommandDatabase(parseConfig(process.env), "npm run content:export");
  try {
    const summary = await exportContent(database.db, out);
    const count = (kind: string) => summary.written.filter((line) => line.kind === kind).length;
    console.log(
      printable(
        `Wrote ${count("article")} articles, ${count("project")} projects, ${count("team-member")} team members, ${count("testimonial")} testimonials, ${count("client-logo")} client logos, ${count("redirect")} redirects and ${count("media")} pictures to ${path.relative(process.cwd(), out) || "."}.`,
      ),
    );
    for (const file of summary.removed) console.log(printable(`removed ${file}`));
    for (const item of summary.notExported)
      console.log(printable(`not exported ${item.file} «${item.title}»: ${item.detail}`));
    return 0;
  } finally {
    await database.close();
  }
}

finish(Promise.resolve().then(main));
