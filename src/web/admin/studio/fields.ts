// The editor's fields as its form names them (the names of articleFields in
// src/shared/admin/schemas.ts), with the labels the issue gives them: shared by the editor's page
// and its script.

export type ArticleFieldName =
  "title" | "slug" | "excerpt" | "category" | "author" | "imageUrl" | "imageAlt" | "publishedAt" | "body";

export const ARTICLE_FIELD_LABELS: Record<ArticleFieldName, string> = {
  title: "Title",
  slug: "Slug",
  excerpt: "Excerpt",
  category: "Category",
  author: "Author",
  imageUrl: "Cover image",
  imageAlt: "Alt text",
  publishedAt: "Publish date",
  body: "Body",
};

export const ARTICLE_FIELD_NAMES = Object.keys(ARTICLE_FIELD_LABELS) as ArticleFieldName[];

/** Each field's control id: the label, hint and problem ids derive from it. */
export const fieldId = (name: ArticleFieldName) => `article-${name}`;
