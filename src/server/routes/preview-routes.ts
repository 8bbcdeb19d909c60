import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { notFoundReasonKey } from "#shared/page-rendering.ts";
import { articleApiPath, articlePath, projectApiPath, projectPath } from "#shared/paths.ts";
import { draftArticle } from "../content/draft-article.ts";
import { draftProject } from "../content/draft-project.ts";
import { type LinkedItem, resolveContentLink } from "../content/links.ts";
import type { Database } from "../db/client.ts";
import { clientRateLimitKey, hitRateLimit } from "../enquiries/rate-limit.ts";
import type { PageRenderer } from "../render/page-renderer.ts";

// GET /preview/<token>: an article's or a project's draft (its head revision) as the public article
// or project page shows a published one, for whoever holds a preview or share link
// (docs/decisions/038-the-database-holds-the-content.md, section 2; 042 for projects). Outside
// /admin, since a reviewer may have no session. Never kept in a cache (the page cache, a proxy's,
// the browser's), never counted by the analytics, never indexed, and the token never leaves in a
// Referer. An expired, revoked, malformed or trashed link, and a link to an item with no draft,
// get a 404 page saying so. Each client opens at most PREVIEW_PAGES_PER_MINUTE of them a minute
// (429 with Retry-After past it), counted as the forms' limit is (decision 017); the draft's body
// is rendered once per revision (src/server/content/draft-rendering.ts).

export const PREVIEW_GONE_MESSAGE = "This preview link has expired or was withdrawn.";
export const DRAFT_BANNER_TEXT = "Draft, not public";

/**
 * Preview pages one client (an address, an IPv6 /64) may open a minute: a reviewer reading, a
 * writer pressing "Preview" after each change, an office behind one address, with room to spare.
 */
export const PREVIEW_PAGES_PER_MINUTE = 60;

/** What a client past the limit reads. */
export const previewsLimitedMessage = (seconds: number) =>
  `You have opened many preview pages in the last minute. Please wait ${seconds} seconds and try again.`;

/** What every preview answer carries, found or not: nothing of it is kept, indexed or referred. */
export const PREVIEW_HEADERS = {
  "cache-control": "no-store",
  "x-robots-tag": "noindex, nofollow",
  "referrer-policy": "no-referrer",
} as const;

const ROBOTS_META = '<meta name="robots" content="noindex, nofollow">';

/**
 * The banner every preview shows, first in the page's reading order and fixed to the bottom of
 * the window (the site's header is fixed to the top), and room under the page's end so that it
 * never covers the footer's last line. Styled by a style element of its own: the site's stylesheet
 * is built from the pages' classes, and the policy allows inline style elements (style-src
 * 'unsafe-inline'), as the document's noscript style uses.
 */
const BANNER_STYLE =
  "<style>#draft-banner{position:fixed;inset:auto 0 0 0;z-index:60;background:#9a3412;color:#fff;" +
  "padding:.5rem 1rem;text-align:center;font:400 .9375rem/1.4 system-ui,sans-serif}" +
  "#draft-banner strong{font-weight:700}body{padding-bottom:3rem}</style>";
const DRAFT_BANNER =
  `<div id="draft-banner" role="note" aria-label="Preview"><strong>${DRAFT_BANNER_TEXT}.</strong> ` +
  "This preview shows a version that visitors to the site do not see.</div>";

/**
 * A rendered public page made a preview: a robots meta tag, no canonical address (the item may
 * have none yet), and the draft banner. Each insertion point is one the document writes exactly
 * once, before any text of the article (src/server/render/document.ts).
 */
export function markAsPreview(html: string, options: { banner: boolean }): string {
  const marked = html
    .replace("<head>", `<head>${ROBOTS_META}`)
    .replace(/<link rel="canonical" href="[^"]*">/, "")
    .replace(/<meta property="og:url" content="[^"]*">/, "");
  if (!options.banner) return marked;
  return marked.replace("</head>", `${BANNER_STYLE}</head>`).replace("<body>", `<body>${DRAFT_BANNER}`);
}

export type PreviewDependencies = {
  db: Database;
  /** Renders the pages; without one, previews answer 503 as the pages do. */
  renderer?: PageRenderer;
  /** The instance's clock: links expire by it, and it dates an undated draft. */
  now: () => Date;
  /** Keys the rate limit (the forms' secret). */
  secret: string;
};

export type RenderedPreview = { status: 200 | 404; html: string };

type PreviewContext = { db: Database; renderer: PageRenderer; now: () => Date; log: FastifyBaseLogger };

/**
 * A public page rendered with one API path answered by a draft's data (the page asks for its item
 * alone; any other path has nothing here), made a preview; or the page saying the link is gone.
 */
async function renderDraftPage(
  deps: PreviewContext,
  draft: { pagePath: string; apiPath: string; data: unknown } | undefined,
): Promise<RenderedPreview> {
  if (!draft) return renderPreviewGone(deps);
  const rendered = await deps.renderer.render(draft.pagePath, {
    readApi: (path) => Promise.resolve(path === draft.apiPath ? draft.data : null),
    log: deps.log,
  });
  if (rendered.status !== 200) return renderPreviewGone(deps);
  return { status: 200, html: markAsPreview(rendered.html, { banner: true }) };
}

/**
 * The preview page of an article's draft, as GET /preview/:token answers it once the token is
 * resolved; or the 404 page saying the link is gone, when the article has no draft to show. Also
 * what the bench times (no token, no HTTP).
 */
export async function renderArticlePreview(deps: PreviewContext, articleId: string): Promise<RenderedPreview> {
  const draft = await draftArticle(deps.db, articleId, deps.now());
  return renderDraftPage(
    deps,
    draft && { pagePath: articlePath(draft.slug), apiPath: articleApiPath(draft.slug), data: draft.detail },
  );
}

/** The preview page of a project's draft: the public project page with the draft's words. */
export async function renderProjectPreview(deps: PreviewContext, projectId: string): Promise<RenderedPreview> {
  const draft = await draftProject(deps.db, projectId, deps.now());
  return renderDraftPage(
    deps,
    draft && { pagePath: projectPath(draft.slug), apiPath: projectApiPath(draft.slug), data: draft.detail },
  );
}

/** The preview of the item a link shows. */
export const renderItemPreview = (deps: PreviewContext, item: LinkedItem) =>
  item.kind === "article" ? renderArticlePreview(deps, item.id) : renderProjectPreview(deps, item.id);

/** The 404 page, saying that the preview link has expired or was withdrawn. */
export async function renderPreviewGone(deps: {
  renderer: PageRenderer;
  log: FastifyBaseLogger;
}): Promise<RenderedPreview> {
  const rendered = await deps.renderer.render("/preview/_", {
    readApi: () => Promise.resolve(null),
    log: deps.log,
    extraData: { [notFoundReasonKey]: PREVIEW_GONE_MESSAGE },
  });
  return { status: 404, html: markAsPreview(rendered.html, { banner: false }) };
}

export function registerPreviewRoutes(app: FastifyInstance, deps: PreviewDependencies): void {
  // Every path under /preview/ is answered here, however long or oddly shaped: anything that is
  // not a live link's token gets the page saying the link is gone, never the site's usual 404.
  app.get<{ Params: { "*": string } }>("/preview/*", async (request, reply) => {
    reply.headers(PREVIEW_HEADERS);
    const { renderer } = deps;
    if (!renderer) {
      return reply.code(503).send({ error: "Service Unavailable", message: "Pages are not being served." });
    }
    // Counted before anything is looked up: a client trying tokens is limited too.
    const limit = await hitRateLimit(
      deps.db,
      clientRateLimitKey(deps.secret, "preview", request.ip),
      PREVIEW_PAGES_PER_MINUTE,
    );
    if (!limit.allowed) {
      return reply
        .code(429)
        .header("retry-after", String(limit.retryAfterSeconds))
        .type("text/plain; charset=utf-8")
        .send(previewsLimitedMessage(limit.retryAfterSeconds));
    }
    reply.type("text/html; charset=utf-8");
    const context = { db: deps.db, renderer, now: deps.now, log: request.log };
    // A malformed token is refused by resolveContentLink before any query.
    const link = await resolveContentLink(deps.db, request.params["*"], deps.now());
    const page = link ? await renderItemPreview(context, link.item) : await renderPreviewGone(context);
    return reply.code(page.status).send(page.html);
  });
}
