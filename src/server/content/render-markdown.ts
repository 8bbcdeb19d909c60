import { Marked, type Tokens } from "marked";
import sanitizeHtml from "sanitize-html";

// Article bodies: Markdown rendered on the server, then sanitised, so that even a content file
// with a script, an event handler or a javascript: link yields only harmless HTML.

export type ArticleHeading = { id: string; text: string; level: 2 | 3 };
export type RenderedArticle = { html: string; headings: ArticleHeading[]; words: number };

export function slugifyHeading(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/&[a-z]+;/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "section"
  );
}

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2",
    "h3",
    "h4",
    "p",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "code",
    "pre",
    "blockquote",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "a",
    "hr",
    "br",
    "del",
    "sup",
    "sub",
  ],
  allowedAttributes: { a: ["href", "title", "rel"], h2: ["id"], h3: ["id"], h4: ["id"], th: ["align"], td: ["align"] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // The page's h1 is the article title: headings in the body start at h2.
    h1: "h2",
    h5: "h4",
    h6: "h4",
    a: (tagName, attribs) => {
      const external = /^https?:\/\//i.test(attribs.href ?? "");
      return { tagName, attribs: external ? { ...attribs, rel: "noopener noreferrer nofollow" } : attribs };
    },
  },
};

const entities: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity] ?? entity);
}

/**
 * Starts the id of every heading in an article body. The page around the body (article-page.tsx,
 * the layout) gives no element an id with this start, so a heading such as "Related heading"
 * cannot take an id the page already uses.
 */
const HEADING_ID_PREFIX = "section-";

export function renderArticleMarkdown(markdown: string): RenderedArticle {
  const headings: ArticleHeading[] = [];
  const usedIds = new Set<string>();
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline: (tokens: Tokens.Generic[]) => string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const level = Math.min(Math.max(token.depth, 2), 4);
        const text = decodeEntities(sanitizeHtml(inner, { allowedTags: [], allowedAttributes: {} }));
        const base = `${HEADING_ID_PREFIX}${slugifyHeading(text)}`;
        // A repeated heading gets -2, -3…, skipping any id an earlier heading such as "Load Flow 2" took.
        let id = base;
        for (let next = 2; usedIds.has(id); next++) id = `${base}-${next}`;
        usedIds.add(id);
        if (level === 2 || level === 3) headings.push({ id, text, level });
        return `<h${level} id="${id}">${inner}</h${level}>\n`;
      },
      // Raw HTML in a content file is shown as text, never interpreted.
      html(token: Tokens.HTML | Tokens.Tag) {
        return sanitizeHtml(token.text, { allowedTags: [], allowedAttributes: {} });
      },
    },
  });
  const raw = marked.parse(markdown) as string;
  const html = sanitizeHtml(raw, sanitizeOptions);
  const words = markdown
    .replace(/[#>*_`|-]/g, " ")
    .split(/\s+/)
    .filter(Boolean).length;
  return { html, headings, words };
}

/** Minutes to read at 200 words a minute, at least one. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.ceil(words / 200));
}
