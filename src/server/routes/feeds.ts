import type { FastifyInstance } from "fastify";
import { articlePath, paths, projectPath } from "#shared/paths.ts";
import { site } from "#shared/site.ts";
import type { Database } from "../db/client.ts";
import { getArticle, listBlogPosts, listProjects } from "../db/content-repository.ts";

// For crawlers and feed readers: /sitemap.xml, /robots.txt and an RSS 2.0 feed of the articles
// with their full content.

const xmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
export const escapeXml = (value: string) => value.replace(/[&<>"']/g, (char) => xmlEscapes[char] ?? char);
/** CDATA that cannot be closed early by the text inside it. */
const cdata = (value: string) => `<![CDATA[${value.replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;

const indexedPages = [
  paths.home,
  paths.about,
  paths.services,
  paths.industries,
  paths.projects,
  paths.blog,
  paths.contact,
  paths.privacy,
  paths.terms,
  paths.cookies,
];

export function registerFeeds(app: FastifyInstance, deps: { db: Database; siteUrl: string }): void {
  const { db, siteUrl } = deps;

  app.get("/robots.txt", async (_request, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(`User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /thank-you\n\nSitemap: ${siteUrl}/sitemap.xml\n`),
  );

  app.get("/sitemap.xml", async (_request, reply) => {
    const [posts, projects] = await Promise.all([listBlogPosts(db), listProjects(db)]);
    // Pages other than articles change when the content does; the newest article dates that.
    const newest = posts[0]?.publishedAt.slice(0, 10);
    const entry = (path: string, lastmod?: string) =>
      `<url><loc>${escapeXml(`${siteUrl}${path}`)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`;
    const urls = [
      ...indexedPages.map((path) => entry(path, newest)),
      ...projects.map((project) => entry(projectPath(project.slug), newest)),
      ...posts.map((post) => entry(articlePath(post.slug), post.publishedAt.slice(0, 10))),
    ];
    return reply
      .type("application/xml; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>\n`);
  });

  app.get("/rss.xml", async (_request, reply) => {
    const posts = await listBlogPosts(db);
    const articles = await Promise.all(posts.map((post) => getArticle(db, post.slug)));
    const items = articles
      .filter((article) => article !== null)
      .map((article) => {
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
          `<content:encoded>${cdata(article.contentHtml)}</content:encoded>`,
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
      posts[0] ? `<lastBuildDate>${new Date(posts[0].publishedAt).toUTCString()}</lastBuildDate>` : "",
      ...items,
      "</channel>",
      "</rss>",
    ].join("\n");
    return reply.type("application/rss+xml; charset=utf-8").header("cache-control", "public, max-age=900").send(`${body}\n`);
  });
}
