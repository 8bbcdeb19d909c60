import { and, eq, isNull } from "drizzle-orm";
import type { ArticleDetail } from "#shared/api-types.ts";
import { SLUG_PATTERN } from "#shared/routes.ts";
import type { Database } from "../db/client.ts";
import { blogPosts } from "../db/schema.ts";
import { bylineOf } from "./byline.ts";
import { listBlogPosts, relatedFirst } from "./public-content.ts";
import { renderRevisionBody } from "./draft-rendering.ts";
import { readingMinutes } from "./render-markdown.ts";
import { mediaIndex } from "./responsive-images.ts";
import { revisionOf } from "./revisions.ts";

// An article's draft (its head revision) shaped as the public article page reads a published one,
// for the preview and share links (docs/decisions/038-the-database-holds-the-content.md, section
// 2): the same ArticleDetail, the same Markdown pipeline, the same related list, so the preview is
// the public page's layout to the byte. A draft may be incomplete; each empty field that the page
// cannot show empty gets a stand-in here, never an error.

/** The address a draft is shown at when its slug is not (yet) a valid one. */
export const DRAFT_STAND_IN_SLUG = "untitled-draft";
export const DRAFT_STAND_IN_TITLE = "Untitled draft";

export type DraftArticle = {
  /** The slug the page is rendered at: the draft's own, or the stand-in. */
  slug: string;
  detail: ArticleDetail;
};

/** A date the draft names, as an ISO string; `fallback` when it names none or an invalid one. */
function isoOr(value: string, fallback: Date): string {
  const time = value ? Date.parse(value) : Number.NaN;
  return new Date(Number.isNaN(time) ? fallback.getTime() : time).toISOString();
}

/**
 * The article's head revision as an ArticleDetail, or undefined when there is no such article,
 * it is in the trash, or it has no revision yet. `now` dates an undated draft and decides which
 * published articles are its related ones, as it does on the public page.
 */
export async function draftArticle(
  db: Database,
  articleId: string,
  now: Date = new Date(),
): Promise<DraftArticle | undefined> {
  const [item] = await db
    .select({ headRevisionId: blogPosts.headRevisionId })
    .from(blogPosts)
    .where(and(eq(blogPosts.id, articleId), isNull(blogPosts.deletedAt)));
  if (!item?.headRevisionId) return undefined;
  const revision = await revisionOf(db, "article", articleId, item.headRevisionId);
  if (!revision) return undefined;
  const document = revision.document;
  // The byline the article would be published with (publishing.ts names the author the same way).
  const author = await bylineOf(db, document.author ?? "", { trashed: false });
  const images = await mediaIndex(db);
  // Kept by the revision's id: opening a link again renders nothing again.
  const rendered = await renderRevisionBody(db, revision.id, document.body ?? "", images);
  const posts = await listBlogPosts(db, now);
  const slug = SLUG_PATTERN.test(document.slug ?? "") ? document.slug : DRAFT_STAND_IN_SLUG;
  const category = document.category ?? "";
  return {
    slug,
    detail: {
      id: articleId,
      title: document.title?.trim() ? document.title : DRAFT_STAND_IN_TITLE,
      excerpt: document.excerpt ?? "",
      category,
      imageUrl: document.imageUrl ?? "",
      image: document.imageUrl ? images.resolve(document.imageUrl) : null,
      imageAlt: document.imageAlt ?? "",
      publishedAt: isoOr(document.publishedAt ?? "", now),
      slug,
      contentHtml: rendered.html,
      headings: rendered.headings,
      readingMinutes: readingMinutes(rendered.words),
      authorName: author?.name ?? null,
      // Only a photo the team page shows: the card never draws one the public has not seen.
      authorImageUrl: author?.onTeamPage ? author.imageUrl : null,
      // Never the article itself, whichever address its published copy has.
      related: relatedFirst(posts, category, (post) => post.id === articleId, 3),
    },
  };
}
