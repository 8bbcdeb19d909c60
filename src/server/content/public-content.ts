import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { ArticleDetail, BlogPostSummary, Project, ProjectDetail, TeamMember } from "#shared/api-types.ts";
import { type RenderedArticle, readingMinutes } from "./render-markdown.ts";
import { renderBody } from "./render-pool.ts";
import { articleIsPublic, projectIsPublic, teamMemberIsPublic } from "./public-conditions.ts";
import { type MediaIndex, mediaIndex } from "./responsive-images.ts";
import type { Database } from "../db/client.ts";
import { blogPosts, contentRedirects, projects, teamMembers } from "../db/schema.ts";

// What the public reads: the read queries of the public API (SPEC section 7), the feeds and the
// sitemap, shaped as the browser receives them. The one place that says what is public
// (docs/decisions/038-the-database-holds-the-content.md, section 3): an item is public when it is
// published, not in the trash and, for an article or a project, its publish time has passed on this
// instance's clock. Only the published copy's columns are read, named one by one, so no draft's words and no
// bookkeeping column can reach a visitor. A test fails when a module outside src/server/content/
// and src/server/admin/studio/ reads the three tables.

// The read conditions are in public-conditions.ts, which imports nothing of the content's: the
// content version's watcher (data-version.ts) reads them too, and this module reads the media
// index, which is kept by that version.
export {
  articleIsPublic,
  articleIsScheduled,
  projectIsPublic,
  projectIsScheduled,
  teamMemberIsPublic,
} from "./public-conditions.ts";

const teamMemberColumns = {
  id: teamMembers.id,
  name: teamMembers.name,
  title: teamMembers.title,
  expertise: teamMembers.expertise,
  imageUrl: teamMembers.imageUrl,
  linkedinUrl: teamMembers.linkedinUrl,
  email: teamMembers.email,
  order: teamMembers.order,
};

const projectColumns = {
  id: projects.id,
  title: projects.title,
  description: projects.description,
  category: projects.category,
  imageUrl: projects.imageUrl,
  year: projects.year,
  capacity: projects.capacity,
  timeline: projects.timeline,
  slug: projects.slug,
};

/**
 * A public article's published copy. The check constraint blog_posts_published_copy keeps these
 * set on every published row; the assertions say so to the compiler.
 */
const articleSummaryColumns = {
  id: blogPosts.id,
  title: blogPosts.title,
  excerpt: blogPosts.excerpt,
  category: blogPosts.category,
  imageUrl: blogPosts.imageUrl,
  publishedAt: blogPosts.publishedAt,
  slug: blogPosts.slug,
};

type Published<Row> = {
  [Key in keyof Row]: Key extends "authorName" | "imageAlt" | "linkedinUrl" | "email" | "capacity" | "timeline"
    ? Row[Key]
    : NonNullable<Row[Key]>;
};
const published = <Row>(row: Row) => row as Published<Row>;

/** Each item with its picture as the pages draw it (null when the library does not know its imageUrl). */
const withImages = <Row extends { imageUrl: string }>(rows: Row[], images: MediaIndex) =>
  rows.map((row) => ({ ...row, image: images.resolve(row.imageUrl) }));

/**
 * The public team in the team's order (the studio's Move up / Move down and dragging renumber it
 * 1, 2, 3… with no ties; decision 043): the home page shows the first three, the About page all.
 * Name and id only break ties that an import of new members may leave until the next move.
 */
export async function listTeamMembers(db: Database): Promise<TeamMember[]> {
  const rows = await db
    .select(teamMemberColumns)
    .from(teamMembers)
    .where(teamMemberIsPublic)
    .orderBy(asc(teamMembers.order), asc(teamMembers.name), asc(teamMembers.id));
  return withImages(rows.map(published), await mediaIndex(db));
}

/** Newest first by year, then by title. */
export async function listProjects(db: Database, now: Date = new Date()): Promise<Project[]> {
  const rows = await db
    .select(projectColumns)
    .from(projects)
    .where(projectIsPublic(now))
    .orderBy(desc(projects.year), asc(projects.title));
  return withImages(rows.map(published), await mediaIndex(db));
}

/** Public articles, newest first. */
export async function listBlogPosts(db: Database, now: Date = new Date()): Promise<BlogPostSummary[]> {
  const rows = await db
    .select(articleSummaryColumns)
    .from(blogPosts)
    .where(articleIsPublic(now))
    .orderBy(desc(blogPosts.publishedAt), asc(blogPosts.slug));
  const images = await mediaIndex(db);
  return withImages(rows.map(published), images).map((row) => ({ ...row, publishedAt: row.publishedAt.toISOString() }));
}

/** Same category first, then the rest, newest first within each; never the item itself. */
export function relatedFirst<T extends { category: string }>(
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

const renderedBodies = new Map<string, RenderedArticle>();

/**
 * An article's body rendered; rendering is pure, so the result is kept while the Markdown and the
 * media library's pictures (their fingerprint: a body draws them) are the same.
 */
async function renderedBody(row: { slug: string; content: string }, images: MediaIndex): Promise<RenderedArticle> {
  const cacheKey = `${images.fingerprint}\n${row.slug}\n${row.content}`;
  const kept = renderedBodies.get(cacheKey);
  if (kept) return kept;
  // Off the event loop (render-pool.ts); a stand-in rendered as text, when the worker could not
  // render in time, is not kept: the next request tries again.
  const { inTime, ...rendered } = await renderBody(row.content, images);
  if (inTime) {
    if (renderedBodies.size > 500) renderedBodies.clear();
    renderedBodies.set(cacheKey, rendered);
  }
  return rendered;
}

/** A public article with its body rendered, or null when there is none at that slug. */
export async function getArticle(db: Database, slug: string, now: Date = new Date()): Promise<ArticleDetail | null> {
  const [found] = await db
    .select({
      ...articleSummaryColumns,
      imageAlt: blogPosts.imageAlt,
      content: blogPosts.content,
      authorName: blogPosts.authorName,
      authorImageUrl: teamMembers.imageUrl,
    })
    .from(blogPosts)
    // The author's photo only while they are on the public team page.
    .leftJoin(teamMembers, and(eq(teamMembers.id, blogPosts.authorId), teamMemberIsPublic))
    .where(and(eq(blogPosts.slug, slug), articleIsPublic(now)));
  if (!found) return null;
  const row = published(found);
  const images = await mediaIndex(db);
  const rendered = await renderedBody(row, images);
  const posts = await listBlogPosts(db, now);
  return {
    id: row.id,
    title: row.title,
    excerpt: row.excerpt,
    category: row.category,
    imageUrl: row.imageUrl,
    image: images.resolve(row.imageUrl),
    imageAlt: row.imageAlt ?? "",
    publishedAt: row.publishedAt.toISOString(),
    slug: row.slug,
    contentHtml: rendered.html,
    headings: rendered.headings,
    readingMinutes: readingMinutes(rendered.words),
    authorName: row.authorName,
    authorImageUrl: found.authorImageUrl ?? null,
    related: relatedFirst(posts, row.category, (post) => post.id === row.id, 3),
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
    .where(articleIsPublic(now))
    .orderBy(desc(blogPosts.publishedAt), asc(blogPosts.slug));
  const images = await mediaIndex(db);
  const articles: FeedArticle[] = [];
  // One body at a time: the renderer's worker takes them in turn, and a feed of many articles
  // never fills its queue.
  for (const { content, ...row } of rows.map(published)) {
    const { html } = await renderedBody({ slug: row.slug, content }, images);
    articles.push({ ...row, publishedAt: row.publishedAt.toISOString(), contentHtml: html });
  }
  return articles;
}

export async function getProject(db: Database, slug: string, now: Date = new Date()): Promise<ProjectDetail | null> {
  const all = await listProjects(db, now);
  const project = all.find((item) => item.slug === slug);
  if (!project) return null;
  const posts = await listBlogPosts(db, now);
  return {
    project,
    relatedProjects: relatedFirst(all, project.category, (item) => item.slug === slug, 2),
    relatedArticles: relatedFirst(posts, project.category, () => false, 3),
  };
}

/** The kinds of item whose old addresses are kept (content_redirects.kind). */
export type RedirectKind = "article" | "project";

/**
 * The current slug of the item an old address names, when that item is public now; undefined
 * otherwise (no such row, or its item is a draft, unpublished, scheduled or in the trash), so an
 * old address never reveals a new one (decision 038, section 2). A row names the item, not a
 * slug, so a chain a→b→c answers c from a and from b alike.
 */
export async function currentSlugOf(
  db: Database,
  kind: RedirectKind,
  oldSlug: string,
  now: Date = new Date(),
): Promise<string | undefined> {
  const [row] =
    kind === "article"
      ? await db
          .select({ slug: blogPosts.slug })
          .from(contentRedirects)
          .innerJoin(blogPosts, eq(blogPosts.id, contentRedirects.articleId))
          .where(and(eq(contentRedirects.kind, kind), eq(contentRedirects.oldSlug, oldSlug), articleIsPublic(now)))
      : await db
          .select({ slug: projects.slug })
          .from(contentRedirects)
          .innerJoin(projects, eq(projects.id, contentRedirects.projectId))
          .where(and(eq(contentRedirects.kind, kind), eq(contentRedirects.oldSlug, oldSlug), projectIsPublic(now)));
  // Its own current address is no redirect: that page answers itself.
  return row?.slug && row.slug !== oldSlug ? row.slug : undefined;
}

/** A public article as a newsletter features it: its cover as the library's JPEG for mail. */
export type NewsletterArticle = {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  publishedAt: string;
  /** The cover's JPEG variant about 640 px wide (a /media/… path), or "" when the library does not know it. */
  image: string;
  imageAlt: string;
};

/**
 * The articles of `ids` that are public at `now`, in the order of `ids` (a newsletter's featured
 * articles; src/server/newsletter/queue.ts). The cover is the JPEG of the widest variant up to
 * 640 px: AVIF and WebP do not show in every mail client, and 640 covers the mail's 600 px column.
 */
export async function listNewsletterArticles(db: Database, ids: string[], now: Date): Promise<NewsletterArticle[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ ...articleSummaryColumns, imageAlt: blogPosts.imageAlt })
    .from(blogPosts)
    .where(and(inArray(blogPosts.id, ids), articleIsPublic(now)));
  const images = await mediaIndex(db);
  const byId = new Map(rows.map((row) => [row.id, published(row)]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const image = images.resolve(row.imageUrl);
    return [
      {
        id: row.id,
        slug: row.slug,
        title: row.title,
        excerpt: row.excerpt,
        category: row.category,
        publishedAt: row.publishedAt.toISOString(),
        image: image?.src ?? "",
        imageAlt: row.imageAlt ?? image?.alt ?? "",
      },
    ];
  });
}
