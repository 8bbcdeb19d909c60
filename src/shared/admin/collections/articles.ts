import { CONTENT_LIMITS } from "../../content/documents.ts";
import type { StudioKindDefinition } from "./kind.ts";

// Articles: the blog, written and published in the studio (docs/decisions/038-the-database-holds-the-content.md).

export const ARTICLES = {
  name: "article",
  plural: "articles",
  key: "article",
  noun: "article",
  nav: { label: "Articles", order: 2 },
  lifecycle: "studio",
  access: { edit: "staff", publish: "publisher" },
  trash: {
    purged: true,
    notice: "Moved to the trash. It can be restored for 30 days.",
    keeps: "for 30 days",
    restorable: "can be restored for 30 days",
  },
  // The editor's order; the document's own (its hashes, its exports) is ARTICLE_FIELDS.
  fields: {
    title: { label: "Title", control: "text", limit: CONTENT_LIMITS.title },
    slug: { label: "Slug", control: "text", limit: CONTENT_LIMITS.slug },
    excerpt: {
      label: "Excerpt",
      control: "textarea",
      limit: CONTENT_LIMITS.excerpt,
      hint: "The summary on /blog, in search results and when shared.",
    },
    category: {
      label: "Category",
      control: "text",
      limit: CONTENT_LIMITS.category,
      hint: "Choose one in use, or write a new one.",
    },
    author: { label: "Author", control: "select" },
    imageUrl: { label: "Cover image", control: "picture" },
    imageAlt: {
      label: "Alt text",
      control: "text",
      limit: CONTENT_LIMITS.imageAlt,
      hint: "What the cover shows, for those who cannot see it. Choosing a picture fills it in from the library.",
    },
    publishedAt: {
      label: "Publish date",
      control: "datetime",
      hint: "India time (IST). Schedule makes the article public at this time; Publish puts it on the site now.",
    },
    body: { label: "Body", control: "markdown", limit: CONTENT_LIMITS.body },
  },
} as const satisfies StudioKindDefinition<"article", "articles">;
