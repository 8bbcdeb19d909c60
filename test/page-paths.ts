import path from "node:path";
import { fileURLToPath } from "node:url";
import { readSiteContent } from "#server/content/load-content.ts";
import { articlePath, paths, projectPath } from "#shared/paths.ts";

/** Every route of SPEC section 2. */
export const pageRoutesForTests = Object.values(paths);

const contentDir = fileURLToPath(new URL("../content/", import.meta.url));

/**
 * Every page of the site once: the fixed routes, and one article and one project from the
 * content files (the first of each in file order that the site shows).
 */
export async function everyPagePathForTests(now: Date = new Date()): Promise<string[]> {
  const content = await readSiteContent(path.resolve(contentDir));
  const article = content.articles.find((candidate) => !candidate.draft && candidate.publishedAt <= now);
  const project = content.projects[0];
  if (!article || !project) throw new Error("content/ needs at least one published article and one project");
  return [...pageRoutesForTests, articlePath(article.slug), projectPath(project.slug)];
}
