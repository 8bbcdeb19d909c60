import type { RenderedPage } from "#shared/page-rendering.ts";
import { site } from "#shared/site.ts";
import { CARD_HEIGHT, CARD_WIDTH } from "#shared/link-card.ts";
import { cardOfRenderedPage, cardPath } from "../cards/card-address.ts";
import { articleJsonLd, breadcrumbJsonLd, organizationJsonLd } from "./structured-data.ts";

export type DocumentAssets = {
  /** Module scripts of the browser entry. */
  scripts: string[];
  styles: string[];
  /** Modules the entry imports, preloaded so they download in parallel. */
  preloads: string[];
  /**
   * The built boot script. When set, the page links only it, and it loads `scripts` and
   * `preloads` after the first paint; without it (development) they are linked directly.
   */
  boot?: string;
};

const htmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEscapes[char] ?? char);
}

/**
 * JSON that is safe inside a <script type="application/json">: no "</script>", no "<!--", and no
 * line separators that older parsers treat as line ends.
 */
export function serializeJsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A refresh pragma's content: seconds, a semicolon, a space, then `url=` and the address. */
function refreshContent(redirect: { afterSeconds: number; to: string }): string {
  return `${redirect.afterSeconds}; url=${escapeHtml(redirect.to)}`;
}

const meta = (attribute: "name" | "property", key: string, content: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;

export function renderDocument(options: {
  page: RenderedPage;
  assets: DocumentAssets;
  siteUrl: string;
  pathname: string;
}): string {
  const { page, assets, siteUrl } = options;
  const canonicalUrl = `${siteUrl}${options.pathname === "/" ? "/" : options.pathname.replace(/\/+$/, "")}`;
  const { title, description } = page.meta;
  // Link previews show the page's card, a JPEG drawn by the server at an address that changes with
  // what it shows (docs/decisions/053-link-preview-cards.md); LinkedIn takes no WebP.
  const { key: cardKey, card } = cardOfRenderedPage(page, options.pathname);
  const image = `${siteUrl}${cardPath(cardKey, card)}`;
  const imageAlt = `${card.title}: ${card.label}, ${site.name}`;
  const structured = [
    organizationJsonLd(siteUrl),
    breadcrumbJsonLd(page.meta, siteUrl),
    articleJsonLd(page.meta, canonicalUrl, siteUrl),
  ]
    .filter(Boolean)
    .map((data) => `<script type="application/ld+json">${serializeJsonForHtml(data)}</script>`);
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    meta("name", "description", description),
    page.meta.noindex ? '<meta name="robots" content="noindex">' : "",
    // Inside noscript: with JavaScript on, the page counts down and redirects itself. The content
    // is in the form HTML defines, "10; url=/" (a space after the semicolon).
    page.meta.redirectWithoutJavaScript
      ? `<noscript><meta http-equiv="refresh" content="${refreshContent(page.meta.redirectWithoutJavaScript)}"></noscript>`
      : "",
    page.status === 200 ? `<link rel="canonical" href="${escapeHtml(canonicalUrl)}">` : "",
    '<meta name="theme-color" content="#0b2545">',
    meta("property", "og:type", page.meta.article ? "article" : "website"),
    meta("property", "og:site_name", site.name),
    meta("property", "og:locale", "en_IN"),
    meta("property", "og:title", title),
    meta("property", "og:description", description),
    page.status === 200 ? meta("property", "og:url", canonicalUrl) : "",
    meta("property", "og:image", image),
    meta("property", "og:image:type", "image/jpeg"),
    meta("property", "og:image:width", String(CARD_WIDTH)),
    meta("property", "og:image:height", String(CARD_HEIGHT)),
    meta("property", "og:image:alt", imageAlt),
    page.meta.article ? meta("property", "article:published_time", page.meta.article.publishedAt) : "",
    meta("name", "twitter:card", "summary_large_image"),
    meta("name", "twitter:title", title),
    meta("name", "twitter:description", description),
    meta("name", "twitter:image", image),
    meta("name", "twitter:image:alt", imageAlt),
    // Without JavaScript the menu button can do nothing: on narrow screens the menu's links are
    // then shown as a row under the header instead, and the header scrolls with the page.
    "<noscript><style>@media (width < 64rem){#menu-button{display:none}#site-menu{display:block}" +
      "#site-menu ul{flex-direction:row;flex-wrap:wrap;padding-block:.25rem}#site-menu a{padding:.5rem .75rem;font-size:.875rem}" +
      "#site-header{position:static}#main{padding-top:0}}</style></noscript>",
    '<link rel="icon" href="/favicon.ico" sizes="32x32">',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png">',
    '<link rel="manifest" href="/site.webmanifest">',
    `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(`${site.name}: Insights`)}" href="/rss.xml">`,
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...(assets.boot
      ? [`<script type="module" src="${escapeHtml(assets.boot)}"></script>`]
      : [
          ...assets.preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
          ...assets.scripts.map((src) => `<script type="module" src="${escapeHtml(src)}"></script>`),
        ]),
    ...structured,
  ]
    .filter(Boolean)
    .join("");
  return (
    `<!doctype html><html lang="en-IN"><head>${head}</head><body>` +
    `<div id="root">${page.appHtml}</div>` +
    // The islands the browser hydrates, with their props (src/web/entry-client.tsx).
    `<script type="application/json" id="islands">${serializeJsonForHtml(page.islands)}</script>` +
    (assets.boot
      ? `<script type="application/json" id="page-scripts">${serializeJsonForHtml({ entry: assets.scripts[0], modules: assets.preloads })}</script>`
      : "") +
    `</body></html>`
  );
}
