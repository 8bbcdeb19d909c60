import { sql } from "drizzle-orm";
import type { ArticleFilter, ArticleRowView, ProjectRowView } from "#shared/admin/pages.ts";
import type { Database } from "../../db/client.ts";
import { blogPosts, projects } from "../../db/schema.ts";
import { bylineNames } from "../../content/byline.ts";
import { headText, listItems } from "./item-queries.ts";
import { ARTICLE_KIND, PROJECT_KIND } from "./kinds.ts";

// The studio's two lists: the rows every item has (item-queries.ts, listItems) and each kind's own
// column: an article's author, a project's year.

/** One page of the articles list, each row with its author's name (the head's, else the published byline). */
export async function listArticles(
  db: Database,
  filter: ArticleFilter,
  page: number,
  now: Date,
): Promise<{ rows: ArticleRowView[]; more: boolean }> {
  const { rows, more } = await listItems(db, ARTICLE_KIND, {
    filter,
    page,
    now,
    extra: { author: headText("author"), publishedAuthorName: sql<string | null>`${blogPosts.authorName}` },
  });
  const names = await bylineNames(
    db,
    rows.map((row) => row.extra.author ?? ""),
  );
  return {
    more,
    rows: rows.map(({ extra, ...row }) => ({
      ...row,
      authorName: extra.author ? (names.get(extra.author) ?? null) : extra.publishedAuthorName,
    })),
  };
}

/** One page of the projects list, each row with its year. */
export async function listProjectRows(
  db: Database,
  filter: ArticleFilter,
  page: number,
  now: Date,
): Promise<{ rows: ProjectRowView[]; more: boolean }> {
  const { rows, more } = await listItems(db, PROJECT_KIND, {
    filter,
    page,
    now,
    extra: { year: headText("year", projects.year) },
  });
  return { more, rows: rows.map(({ extra, ...row }) => ({ ...row, year: extra.year ?? "" })) };
}
