import path from "node:path";
import { readSiteContent } from "../src/server/content/load-content.ts";
import { printable } from "../src/server/export/export-format.ts";

// `npm run content:check`: validates every content file and names the file and field at fault.
// Exits 1 when any file is broken, so it can guard a commit or a deploy.

const contentDir = path.resolve(process.argv[2] ?? process.env.CONTENT_DIR ?? "content");
// Pictures are the media library's (media/) or, by an old address, files of public/; a file naming
// one that is in neither would show a broken image.
const content = await readSiteContent(contentDir, { publicDir: path.resolve(import.meta.dirname, "..", "public") });
for (const problem of content.problems) {
  console.error(
    printable(
      `${path.join(path.relative(process.cwd(), contentDir), problem.file)}: ${problem.field} ${problem.message}`,
    ),
  );
}
const drafts = content.articles.filter((article) => article.draft).length;
console.log(
  `${content.teamMembers.length} team members, ${content.projects.length} projects, ` +
    `${content.articles.length - drafts} articles (${drafts} drafts), ${content.testimonials.length} testimonials, ` +
    `${content.clientLogos.length} client logos, ${content.media.length} pictures: ` +
    (content.problems.length ? `${content.problems.length} problem(s)` : "all valid"),
);
process.exitCode = content.problems.length ? 1 : 0;
