import { and, asc, desc, eq, lte } from "drizzle-orm";
import type { ArticleDetail, BlogPostSummary, Project, ProjectDetail, TeamMember } from "#shared/api-types.ts";
import { readingMinutes, renderArticleMarkdown } from "../content/render-markdown.ts";
import type { Database } from "./client.ts";
import { blogPosts, projects, teamMembers } from "./schema.ts";

// Read queries of the public API (SPEC section 7), shaped as the browser receives them.

export async function listTeamMembers(db: Database): Promise<TeamMember[]> {
  return db.select().from(teamMembers).orderBy(asc(teamMembers.order), asc(teamMembers.name));
}

/** Newest first by year, then by title. */
export async function listProjects(db: Database): Promise<Project[]> {
  return db.select().from(projects).orderBy(desc(projects.year), asc(projects.title));
}

/** Published posts (publishedAt not in the future), newest first. */
export async function listBlogPosts(db: Database, now: Date = new Date()): Promise<BlogPostSummary[]> {
  const rows = await db
    .select({
      id: blogPosts.id,
      title: blogPosts.title,
      excerpt: blogPosts.excerpt,
      category: blogPosts.category,
      imageUrl: blogPosts.imageUrl,
      publishedAt: blogPosts.publishedAt,
      slug: blogPosts.slug,
    })
    .from(blogPosts)
    .where(lte(blogPosts.publishedAt, now))
    .orderBy(desc(blogPosts.publishedAt), asc(blogPosts.slug));
  return rows.map((row) => ({ ...row, publishedAt: row.publishedAt.toISOString() }));
}

/** Same category first, then the rest, newest first within each; never the item itself. */
function relatedFirst<T extends { category: string }>(
  items: T[],
  category: string,
  isSelf: (item: T) => boolean,
  count: number,
): T[] {
  const others = items.filter((item) => !isSelf(item));
  return [
    ...others.filter((item) => item.category === category),
    ...others.filter((item) => item.category !== category),
  ].slice(0, count);
}

const renderedBodies = new Map<string, ReturnType<typeof renderArticleMarkdown>>();

/** An article's body rendered; rendering is pure, so the result is kept while the Markdown is the same. */
function renderedBody(row: { slug: string; content: string }): ReturnType<typeof renderArticleMarkdown> {
  const cacheKey = `${row.slug}\n${row.content}`;
  let rendered = renderedBodies.get(cacheKey);
  if (!rendered) {
    rendered = renderArticleMarkdown(row.content);
    if (renderedBodies.size > 500) renderedBodies.clear();
    renderedBodies.set(cacheKey, rendered);
  }
  return rendered;
}

/** A published article with its body rendered, or null when there is none at that slug. */
export async function getArticle(db: Database, slug: string, now: Date = new Date()): Promise<ArticleDetail | null> {
  const [row] = await db
    .select()
    .from(blogPosts)
    .where(and(eq(blogPosts.slug, slug), lte(blogPosts.publishedAt, now)));
  if (!row) return null;
  const rendered = renderedBody(row);
  const posts = await listBlogPosts(db, now);
  return {
    id: row.id,
    title: row.title,
    excerpt: row.excerpt,
    category: row.category,
    imageUrl: row.imageUrl,
    publishedAt: row.publishedAt.toISOString(),
    slug: row.slug,
    contentHtml: rendered.html,
    headings: rendered.headings,
    readingMinutes: readingMinutes(rendered.words),
    authorName: row.authorName,
    related: relatedFirst(posts, row.category, (post) => post.slug === row.slug, 3),
  };
}

export type FeedArticle = Pick<
  ArticleDetail,
  "slug" | "title" | "excerpt" | "category" | "publishedAt" | "authorName" | "contentHtml"
>;

/** Every published article with its body rendered, newest first, in one query: what the RSS feed shows. */
export async function listFeedArticles(db: Database, now: Date = new Date()): Promise<FeedArticle[]> {
  const rows = await db
    .select({
      slug: blogPosts.slug,
      title: blogPosts.title,
      excerpt: blogPosts.excerpt,
      category: blogPosts.category,
      publishedAt: blogPosts.publishedAt,
      authorName: blogPosts.authorName,
      content: blogPosts.content,
    })
    .from(blogPosts)
    .where(lte(blogPosts.publishedAt, now))
    .orderBy(desc(blogPosts.publishedAt), asc(blogPosts.slug));
  return rows.map(({ content, ...row }) => ({
    ...row,
    publishedAt: row.publishedAt.toISOString(),
    contentHtml: renderedBody({ slug: row.slug, content }).html,
  }));
}

export async function getProject(db: Database, slug: string): Promise<ProjectDetail | null> {
  const all = await listProjects(db);
  const project = all.find((item) => item.slug === slug);
  if (!project) return null;
  const posts = await listBlogPosts(db);
  return {
    project,
    relatedProjects: relatedFirst(all, project.category, (item) => item.slug === slug, 2),
    relatedArticles: relatedFirst(posts, project.category, () => false, 3),
  };
}
