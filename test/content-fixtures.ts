import { eq } from "drizzle-orm";
import type { ArticleDocument } from "#shared/content/documents.ts";
import type { Database } from "#server/db/client.ts";
import { publishRevision, unpublishItem } from "#server/content/publishing.ts";
import { appendRevision } from "#server/content/revisions.ts";
import { blogPosts, contentRedirects } from "#server/db/schema.ts";

// Articles made as the studio makes them: a row, a revision appended through appendRevision, and,
// when asked, that revision published through publishRevision (which writes the published copy
// and moves the content version), then unpublished or moved to the trash. Tests that need an
// article in a given state build it here rather than writing blog_posts' columns by hand.

export type ArticleState =
  /** Never published: its words are in its revision alone. */
  | { state: "draft" }
  /** Published at `at` (a time to come: scheduled). */
  | { state: "published"; at: Date }
  | { state: "unpublished"; at: Date }
  | { state: "trashed"; at: Date };

export const articleDocument = (
  fields: Partial<ArticleDocument> & Pick<ArticleDocument, "slug" | "title">,
): ArticleDocument => ({
  excerpt: "",
  category: "Grid Integration",
  imageUrl: "/images/articles/fault-ride-through-model-validation.svg",
  imageAlt: "",
  publishedAt: "",
  author: "",
  body: "",
  ...fields,
});

/** Makes an article in the given state; returns its id and its head revision's id. */
export async function addArticle(
  db: Database,
  document: ArticleDocument,
  state: ArticleState,
): Promise<{ id: string; revisionId: number }> {
  const [row] = await db.insert(blogPosts).values({}).returning({ id: blogPosts.id });
  const id = row!.id;
  const saved = await appendRevision(db, {
    kind: "article",
    itemId: id,
    document,
    source: "studio",
    author: { id: null, label: "Test Writer" },
  });
  if (saved.outcome !== "saved") throw new Error(`the revision was not saved: ${saved.outcome}`);
  const revisionId = saved.revision.id;
  if (state.state !== "draft") {
    await db.transaction(async (tx) => {
      const published = await publishRevision(tx, { kind: "article", itemId: id, revisionId, publishedAt: state.at });
      if (!published) throw new Error("the revision was not published");
      if (state.state === "unpublished") await unpublishItem(tx, "article", id, "Test Writer");
      if (state.state === "trashed") {
        await tx
          .update(blogPosts)
          .set({ deletedAt: new Date(), deletedByLabel: "Test Writer" })
          .where(eq(blogPosts.id, id));
      }
    });
  }
  return { id, revisionId };
}

/** An old address of an article: /blog/<oldSlug> leads to the article with this id. */
export async function addArticleRedirect(db: Database, oldSlug: string, articleId: string): Promise<void> {
  await db.insert(contentRedirects).values({ kind: "article", oldSlug, articleId, createdByLabel: "Test Writer" });
}
