import { and, eq } from "drizzle-orm";
import {
  type ArticleDocument,
  type ChecklistItem,
  type ProjectDocument,
  projectPublishBlockers,
  publishBlockers,
} from "#shared/content/documents.ts";
import { matchRoute } from "#shared/routes.ts";
import type { Database } from "../../db/client.ts";
import { blogPosts, contentRedirects } from "../../db/schema.ts";
import { articleIsPublic, listProjects } from "../../content/public-content.ts";
import { sitePathsLinked } from "../../content/render-pool.ts";
import { publicArticleSlugs } from "./article-queries.ts";
import { pictureChoiceFor } from "#shared/media.ts";

// The editor's publish checklist: what blocks publishing (publishBlockers, the same rules the
// pages can apply) and warnings the server alone can give, because it knows the site: links in
// the body to pages of the site that do not exist (no route of src/shared/routes.ts, or an
// article or project that is not public), and a cover image that is not among the site's pictures
// (a library picture named by another form of its address, /media/<key>/original.png for one
// offered by its old /images/… address, is among them: pictureChoiceFor).
// A project's checklist is its blockers (projectPublishBlockers) and the same warning for its image.

/** Files the site serves besides its pages, which a link may name. */
const SITE_FILES = new Set(["/rss.xml", "/sitemap.xml", "/robots.txt", "/favicon.svg"]);

/** Warnings for the links of a body that lead to no page of the site now. */
export async function linkWarnings(
  db: Database,
  body: string,
  now: Date,
  images: { url: string; key?: string }[],
): Promise<string[]> {
  const linked = await sitePathsLinked(body);
  if (!linked.length) return [];
  let articles: Set<string> | undefined;
  let projects: Set<string> | undefined;
  const warnings: string[] = [];
  for (const linkedPath of linked) {
    const pathname = linkedPath.length > 1 ? linkedPath.replace(/\/$/, "") : linkedPath;
    if (SITE_FILES.has(pathname) || pictureChoiceFor(images, pathname)) continue;
    const match = matchRoute(pathname);
    let exists = match !== undefined;
    if (match?.id === "article") {
      articles ??= await publicArticleSlugs(db, now);
      exists = articles.has(match.params.slug!) || (await redirectsToPublicArticle(db, match.params.slug!, now));
    } else if (match?.id === "project") {
      projects ??= new Set((await listProjects(db, now)).map((project) => project.slug));
      exists = projects.has(match.params.slug!);
    }
    if (!exists) warnings.push(`The link to ${linkedPath} leads to no page of the site.`);
  }
  return warnings;
}

/** The most pictures of a body the checklist names as not shown: the rest are the same fix. */
const PICTURE_WARNINGS = 5;

/**
 * Warnings for the pictures of a body the page will not show: an image whose address is not one
 * of the library's (the pages draw only those, named by a path of the site, and drop any other
 * without a word), such as the absolute address a browser copies of one of the site's own. The
 * Markdown's images are found by their syntax, outside code (a code sample shows, not draws).
 */
export function bodyPictureWarnings(body: string, images: { url: string; key?: string }[]): string[] {
  const prose = body.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
  const warnings: string[] = [];
  const named = new Set<string>();
  for (const match of prose.matchAll(/!\[[^\]\n]*\]\(\s*<?([^\s)>]+)/g)) {
    const src = match[1]!;
    if (named.has(src) || pictureChoiceFor(images, src)) continue;
    named.add(src);
    const own = /^https?:\/\/[^/]+(\/media\/[0-9a-f]{16}\/)/.exec(src);
    warnings.push(
      own
        ? `The picture ${src} in the body is named by a full address, which the page does not show: write it as ${own[1]}original.${src.split(".").pop()}, or put it in again with the Picture button.`
        : `The picture ${src} in the body is not in the media library, so the page will not show it: put it in with the Picture button.`,
    );
    if (warnings.length === PICTURE_WARNINGS) break;
  }
  return warnings;
}

/** Whether an old address of an article leads to one that is public now. */
async function redirectsToPublicArticle(db: Database, slug: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: blogPosts.id })
    .from(contentRedirects)
    .innerJoin(blogPosts, eq(blogPosts.id, contentRedirects.articleId))
    .where(and(eq(contentRedirects.kind, "article"), eq(contentRedirects.oldSlug, slug), articleIsPublic(now)));
  return row !== undefined;
}

/** The checklist of a document: what blocks publishing it, and what is worth a second look. */
export async function articleChecklist(
  db: Database,
  document: ArticleDocument,
  now: Date,
  images: { url: string; key?: string }[],
): Promise<{ blockers: ChecklistItem[]; warnings: string[] }> {
  const warnings = await linkWarnings(db, document.body, now, images);
  if (images.length) warnings.push(...bodyPictureWarnings(document.body, images));
  if (document.imageUrl && images.length && !pictureChoiceFor(images, document.imageUrl)) {
    warnings.unshift(`The cover image ${document.imageUrl} is not among the site's pictures.`);
  }
  return { blockers: publishBlockers(document), warnings };
}

/** The checklist of a project's document: what blocks publishing it, and an image the library does not have. */
export function projectChecklist(
  document: ProjectDocument,
  images: { url: string; key?: string }[],
): { blockers: ChecklistItem<keyof ProjectDocument>[]; warnings: string[] } {
  const warnings =
    document.imageUrl && images.length && !pictureChoiceFor(images, document.imageUrl)
      ? [`The image ${document.imageUrl} is not among the site's pictures.`]
      : [];
  return { blockers: projectPublishBlockers(document), warnings };
}
