import type { FastifyInstance } from "fastify";
import { INDIA_UTC_OFFSET, inIndia } from "#shared/india-time.ts";
import { articlePath, paths, projectPath } from "#shared/paths.ts";
import { routes } from "#shared/routes.ts";
import { site } from "#shared/site.ts";
import { contentSyncedAt } from "../content/data-version.ts";
import type { Database } from "../db/client.ts";
import { listBlogPosts, listFeedArticles, listProjects } from "../content/public-content.ts";
import { PageCache, sendCachedPage } from "../pages/page-cache.ts";

// For crawlers and feed readers: /sitemap.xml, /robots.txt and an RSS 2.0 feed of the articles
// with their full content. The sitemap and the feed are rendered once per content version and
// kept, like the pages, with an ETag.

const xmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
export const escapeXml = (value: string) => value.replace(/[&<>"']/g, (char) => xmlEscapes[char] ?? char);
/** CDATA that cannot be closed early by the text inside it. */
const cdata = (value: string) => `<![CDATA[${value.replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;

/** A moment as an ISO 8601 timestamp in India Standard Time: 2025-01-05T00:00:00+05:30. */
export function indiaTimestamp(moment: Date): string {
  return `${inIndia(moment).toISOString().slice(0, 19)}${INDIA_UTC_OFFSET}`;
}

/** Pages that list articles: they change when an article is published as well as on a content sync. */
const articleListingPages = new Set<string>([paths.home, paths.blog]);

/** The pages the route table marks as indexed; articles and projects are listed from the content. */
const indexedPages = Object.values(routes)
  .filter((route) => route.indexed)
  .map((route) => route.pattern);

export type FeedDependencies = {
  db: Database;
  siteUrl: string;
  /** The content version (content/data-version.ts): a rendered feed is kept until it changes. */
  contentVersion: () => string;
  /** The instance's clock: an article is listed once its time has come on it. */
  now?: () => Date;
};

/**
 * An article's HTML with every address on the site made absolute: a feed reader shows it away from
 * the site, where `/services` and `/media/…` lead nowhere. (A protocol-relative `//…` and a full
 * address are left as they are.)
 */
export function absoluteAddresses(html: string, siteUrl: string): string {
  const absolute = (address: string) =>
    address.startsWith("/") && !address.startsWith("//") ? `${siteUrl}${address}` : address;
  return html
    .replace(
      /(\s(?:href|src)=")([^"]*)"/g,
      (_match, attribute: string, address: string) => `${attribute}${absolute(address)}"`,
    )
    .replace(
      /(\ssrcset=")([^"]*)"/g,
      (_match, attribute: string, list: string) =>
        `${attribute}${list
          .split(",")
          .map((entry) => entry.trim().replace(/^\S+/, absolute))
          .join(", ")}"`,
    );
}

export function registerFeeds(app: FastifyInstance, deps: FeedDependencies): void {
  const { db, siteUrl } = deps;
  const now = deps.now ?? (() => new Date());
  const cache = new PageCache(2);

  /** The feed at `path`, rendered by `render` when the content version has changed since it last was. */
  const serveKept = (path: string, type: string, cacheControl: string, render: () => Promise<string>) => {
    // Kept with their compressed forms: no compression step on these routes.
    app.get(path, { compress: false }, async (request, reply) => {
      cache.useVersion(deps.contentVersion());
      const kept = cache.get(path) ?? cache.set(path, 200, await render());
      return sendCachedPage(request, reply.type(type).header("vary", "Accept-Encoding"), kept, cacheControl);
    });
  };

  app.get("/robots.txt", async (_request, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(
        `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /admin\nDisallow: /preview\nDisallow: /thank-you\nDisallow: /newsletter/\n\nSitemap: ${siteUrl}/sitemap.xml\n`,
      ),
  );

  serveKept("/sitemap.xml", "application/xml; charset=utf-8", "public, max-age=3600", async () => {
    const [posts, projects, syncedAt] = await Promise.all([
      listBlogPosts(db, now()),
      listProjects(db, now()),
      contentSyncedAt(db),
    ]);
    // Pages and projects change with the content files, so the last content sync dates them
    // (the schema keeps no time per row); an article is dated by its own publication.
    const newestArticle = posts[0] ? new Date(posts[0].publishedAt) : undefined;
    const listingChanged =
      syncedAt && newestArticle && newestArticle > syncedAt ? newestArticle : (syncedAt ?? newestArticle);
    const entry = (path: string, lastmod: Date | undefined) =>
      `<url><loc>${escapeXml(`${siteUrl}${path}`)}</loc>${lastmod ? `<lastmod>${indiaTimestamp(lastmod)}</lastmod>` : ""}</url>`;
    const urls = [
      ...indexedPages.map((path) => entry(path, articleListingPages.has(path) ? listingChanged : syncedAt)),
      ...projects.map((project) => entry(projectPath(project.slug), syncedAt)),
      ...posts.map((post) => entry(articlePath(post.slug), new Date(post.publishedAt))),
    ];
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`;
  });

  serveKept("/rss.xml", "application/rss+xml; charset=utf-8", "public, max-age=900", async () => {
    const articles = await listFeedArticles(db, now());
    const items = articles.map((article) => {
      const link = `${siteUrl}${articlePath(article.slug)}`;
      return [
        "<item>",
        `<title>${escapeXml(article.title)}</title>`,
        `<link>${escapeXml(link)}</link>`,
        `<guid isPermaLink="true">${escapeXml(link)}</guid>`,
        `<pubDate>${new Date(article.publishedAt).toUTCString()}</pubDate>`,
        `<category>${escapeXml(article.category)}</category>`,
        article.authorName ? `<dc:creator>${escapeXml(article.authorName)}</dc:creator>` : "",
        `<description>${escapeXml(article.excerpt)}</description>`,
        `<content:encoded>${cdata(absoluteAddresses(article.contentHtml, siteUrl))}</content:encoded>`,
        "</item>",
      ].join("");
    });
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
      "<channel>",
      `<title>${escapeXml(`${site.name}: Industry Insights`)}</title>`,
      `<link>${escapeXml(`${siteUrl}${paths.blog}`)}</link>`,
      `<atom:link href="${escapeXml(`${siteUrl}/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
      `<description>${escapeXml("Technical articles on grid integration, renewable energy, power quality, protection and regulation.")}</description>`,
      "<language>en-IN</language>",
      articles[0] ? `<lastBuildDate>${new Date(articles[0].publishedAt).toUTCString()}</lastBuildDate>` : "",
      ...items,
      "</channel>",
      "</rss>",
    ].join("\n");
    return `${body}\n`;
  });
}
