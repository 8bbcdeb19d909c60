import { Marked, type Renderer, type Token, type Tokens } from "marked";
import sanitizeHtml from "sanitize-html";
import { MARKDOWN_HEADINGS_MAX } from "#shared/content/markdown-rules.ts";
import { ARTICLE_SIZES } from "#shared/image-sizes.ts";
import type { ResponsiveImage } from "#shared/media.ts";

// Article bodies: Markdown rendered on the server, then sanitised, so that even a content file
// with a script, an event handler or a javascript: link yields only harmless HTML. A Markdown image
// is drawn only when it names a picture of the media library (its reference, or the old
// /images/… path the library knows it by): as the same responsive <picture> the pages draw,
// lazily, with its width and height. Any other image (a remote address, a data: URL, a picture
// the library does not hold) is dropped: the site loads nothing from another origin.

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

/** A picture's file as a body may name it: one width of the ladder, /media/<key>/<width>.<ext>. */
const VARIANT_PATH = /^\/media\/[0-9a-f]{16}\/[1-9][0-9]{0,4}\.(?:avif|webp|jpg)$/;
/** A srcset of such files in one format: "/media/<key>/320.avif 320w, /media/<key>/480.avif 480w". */
const VARIANT_SRCSET = (extension: string) =>
  new RegExp(
    `^/media/[0-9a-f]{16}/[1-9][0-9]{0,4}\\.${extension} [1-9][0-9]{0,4}w(?:, /media/[0-9a-f]{16}/[1-9][0-9]{0,4}\\.${extension} [1-9][0-9]{0,4}w)*$`,
  );
const SOURCE_TYPES: Record<string, RegExp> = {
  "image/avif": VARIANT_SRCSET("avif"),
  "image/webp": VARIANT_SRCSET("webp"),
};
const JPEG_SRCSET = VARIANT_SRCSET("jpg");
const DIMENSION = /^[1-9][0-9]{0,4}$/;
/** The article's column (src/shared/image-sizes.ts) as its parts: a media condition (or none) and a width. */
const COLUMN_SLOTS = ARTICLE_SIZES.split(/,\s*(?![^()]*\))/).map((part) => {
  const conditional = /^(\([^)]*\))\s+(.+)$/.exec(part.trim());
  return conditional ? { when: `${conditional[1]} `, width: conditional[2]! } : { when: "", width: part.trim() };
});
/** The widest the column draws a picture, in CSS pixels (its first, widest slot: "832px"). */
const COLUMN_MAX = Number.parseInt(COLUMN_SLOTS[0]!.width, 10);

/**
 * The sizes of a picture in an article body: the column's; a picture narrower than the column is
 * drawn at its own width (article-body.css), so each slot is at most that width. The smaller
 * value comes last in each min(), so no comma of it is followed by a parenthesis closing later.
 */
export function bodyImageSizes(width: number): string {
  if (width >= COLUMN_MAX) return ARTICLE_SIZES;
  return COLUMN_SLOTS.map((slot) => `${slot.when}min(${slot.width}, ${width}px)`).join(", ");
}
const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Any sizes bodyImageSizes gives (a <source> does not carry the width to check it against). */
const BODY_IMAGE_SIZES_PATTERN = new RegExp(
  `^(?:${escapeForPattern(ARTICLE_SIZES)}|${COLUMN_SLOTS.map((slot) => `${escapeForPattern(`${slot.when}min(${slot.width}, `)}[1-9][0-9]{0,3}px\\)`).join(", ")})$`,
);

/**
 * Whether a <source> or <img> is exactly what this module draws for a library picture: anything
 * else (another address, another loading, a srcset smuggling a second URL) is dropped whole.
 */
function isLibraryPictureTag(tagName: string, attribs: sanitizeHtml.Attributes): boolean {
  if (tagName === "source") {
    const pattern = SOURCE_TYPES[attribs.type ?? ""];
    return Boolean(pattern?.test(attribs.srcset ?? "")) && BODY_IMAGE_SIZES_PATTERN.test(attribs.sizes ?? "");
  }
  return (
    VARIANT_PATH.test(attribs.src ?? "") &&
    (attribs.src ?? "").endsWith(".jpg") &&
    JPEG_SRCSET.test(attribs.srcset ?? "") &&
    DIMENSION.test(attribs.width ?? "") &&
    attribs.sizes === bodyImageSizes(Number(attribs.width)) &&
    DIMENSION.test(attribs.height ?? "") &&
    typeof attribs.alt === "string" &&
    attribs.loading === "lazy" &&
    attribs.decoding === "async"
  );
}

/** Keeps a library picture's <source> or <img>; any other is renamed to a tag the sanitiser drops. */
const pictureTag: sanitizeHtml.Transformer = (tagName, attribs) =>
  isLibraryPictureTag(tagName, attribs) ? { tagName, attribs } : { tagName: "dropped-image", attribs: {} };

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
    "figure",
    "figcaption",
    "picture",
    "source",
    "img",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel"],
    h2: ["id"],
    h3: ["id"],
    h4: ["id"],
    th: ["align"],
    td: ["align"],
    source: ["type", "srcset", "sizes"],
    img: ["src", "srcset", "sizes", "width", "height", "alt", "loading", "decoding"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  // An img's src is a path of this site (pictureTag holds it to /media/); no scheme passes.
  allowedSchemesByTag: { img: [], source: [] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  // <source> is a void element, written without a closing tag as <img> is.
  selfClosing: [...sanitizeHtml.defaults.selfClosing, "source"],
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
    source: pictureTag,
    img: pictureTag,
  },
};

/** What an article body's HTML may hold: the Markdown's structure, and library pictures exactly as drawn here. */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, sanitizeOptions);
}

const entities: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity] ?? entity);
}
const attributeEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeAttribute = (text: string) => text.replace(/[&<>"]/g, (char) => attributeEscapes[char] ?? char);
/** Plain text of some inline HTML: tags removed, entities read. */
const plainText = (html: string) => decodeEntities(sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }));

/**
 * A library picture in an article body: AVIF and WebP sources and the JPEG <img>, each with every
 * width and the article column's sizes; lazy, with its width and height so nothing shifts.
 */
export function bodyPictureHtml(image: ResponsiveImage, alt: string): string {
  const sizes = escapeAttribute(bodyImageSizes(image.width));
  return (
    "<picture>" +
    `<source type="image/avif" srcset="${escapeAttribute(image.srcset.avif)}" sizes="${sizes}">` +
    `<source type="image/webp" srcset="${escapeAttribute(image.srcset.webp)}" sizes="${sizes}">` +
    `<img src="${escapeAttribute(image.src)}" srcset="${escapeAttribute(image.srcset.jpeg)}" sizes="${sizes}"` +
    ` width="${image.width}" height="${image.height}" alt="${escapeAttribute(alt)}" loading="lazy" decoding="async">` +
    "</picture>"
  );
}

/**
 * Turns a Markdown image's address into a library picture, or null. The article pages pass the
 * media library's index (responsive-images.ts); without one, no image is drawn.
 */
export type RenderOptions = { resolveImage?: (reference: string) => ResponsiveImage | null };

/**
 * Starts the id of every heading in an article body. The page around the body (article-page.tsx,
 * the layout) gives no element an id with this start, so a heading such as "Related heading"
 * cannot take an id the page already uses.
 */
const HEADING_ID_PREFIX = "section-";

/**
 * An article's body as HTML, its headings and its word count. Should the Markdown parser fail on a
 * body (a nesting deeper than its stack: `>` × 3,000 overflowed it, and the page and the whole feed
 * answered 500), the body is shown as its text, paragraph by paragraph, instead: one article's
 * words never take down its page, the feed or the editor. The studio refuses such nesting before
 * it is saved (#shared/content/markdown-rules.ts); files and older revisions may still hold it.
 */
export function renderArticleMarkdown(markdown: string, options: RenderOptions = {}): RenderedArticle {
  parsedHere += 1;
  try {
    return renderParsed(markdown, options);
  } catch {
    return renderAsText(markdown);
  }
}

let parsedHere = 0;
/** How many bodies this thread has parsed: the server's event loop leaves them to the worker (render-pool.ts). */
export const bodiesParsedOnThisThread = () => parsedHere;

/**
 * The body as its text: each run of lines between blank lines a paragraph, every character
 * escaped. Linear in the body's length; also what a page shows when the renderer's worker could
 * not render a body in time (render-pool.ts).
 */
export function renderAsText(markdown: string): RenderedArticle {
  const paragraphs = markdown
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p>${escapeAttribute(block).replace(/\n/g, "<br>")}</p>\n`);
  return { html: paragraphs.join(""), headings: [], words: countWords(markdown) };
}

function countWords(markdown: string): number {
  return markdown
    .replace(/[#>*_`|-]/g, " ")
    .split(/\s+/)
    .filter(Boolean).length;
}

function renderParsed(markdown: string, options: RenderOptions): RenderedArticle {
  const headings: ArticleHeading[] = [];
  const usedIds = new Set<string>();
  /** The next suffix to try for each base id: a repeated heading costs one step, not one per repeat before it. */
  const nextSuffix = new Map<string, number>();
  const resolveImage = options.resolveImage ?? (() => null);
  /** The picture and its words, or null when the image is to be dropped. */
  const pictureOf = (self: Renderer, token: Tokens.Image) => {
    const image = resolveImage(token.href);
    if (!image) return null;
    // The Markdown's alt text is this use's; without one, the library's (empty when decorative).
    const alt = plainText(self.parser.parseInline(token.tokens, self.parser.textRenderer)).trim() || image.alt;
    return bodyPictureHtml(image, alt);
  };
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      image(this: Renderer, token: Tokens.Image) {
        return pictureOf(this, token) ?? "";
      },
      // A paragraph that is one picture alone is a figure, its title (if any) the caption; a
      // paragraph left empty by a dropped image is no paragraph.
      paragraph(this: Renderer, token: Tokens.Paragraph) {
        const parts = token.tokens.filter((part) => !(part.type === "text" && !part.raw.trim()));
        const [only] = parts;
        if (parts.length === 1 && only?.type === "image") {
          const picture = pictureOf(this, only as Tokens.Image);
          if (!picture) return "";
          const title = (only as Tokens.Image).title;
          const caption = title?.trim() ? `<figcaption>${escapeAttribute(title.trim())}</figcaption>` : "";
          return `<figure>${picture}${caption}</figure>\n`;
        }
        const inner = this.parser.parseInline(token.tokens);
        return inner.trim() ? `<p>${inner}</p>\n` : "";
      },
      heading(this: { parser: { parseInline: (tokens: Tokens.Generic[]) => string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const level = Math.min(Math.max(token.depth, 2), 4);
        // The heading's words: marked's own inline tags removed (every "<" of the text itself is
        // escaped by then, raw HTML included, by the html renderer below), entities read. A
        // sanitiser per heading made 50,000 headings cost seconds.
        const text = decodeEntities(inner.replace(/<[^>]*>/g, ""));
        const base = `${HEADING_ID_PREFIX}${slugifyHeading(text)}`;
        // A repeated heading gets -2, -3…, skipping any id an earlier heading such as "Load Flow 2"
        // took. The search goes on from where the last one of this base stopped: searching from 2
        // every time made a body of repeated headings n² work (12,000 "#" lines held the event
        // loop 20 s). Each step either takes an id or passes one taken, so a body costs at most as
        // many steps as it has headings, twice.
        let id = base;
        if (usedIds.has(id)) {
          let next = nextSuffix.get(base) ?? 2;
          while (usedIds.has(`${base}-${next}`)) next++;
          id = `${base}-${next}`;
          nextSuffix.set(base, next + 1);
        }
        usedIds.add(id);
        // The page's list of sections names the first MARKDOWN_HEADINGS_MAX: as many as the studio
        // lets a body have. A stored body with more (a file, an older revision: 50,000 "#" lines)
        // would make the page's list tens of thousands of entries long, drawn on the event loop.
        if ((level === 2 || level === 3) && headings.length < MARKDOWN_HEADINGS_MAX) headings.push({ id, text, level });
        return `<h${level} id="${id}">${inner}</h${level}>\n`;
      },
      // Raw HTML in a content file is shown as text, never interpreted.
      html(token: Tokens.HTML | Tokens.Tag) {
        return sanitizeHtml(token.text, { allowedTags: [], allowedAttributes: {} });
      },
    },
  });
  const raw = marked.parse(markdown) as string;
  const html = sanitizeArticleHtml(raw);
  return { html, headings, words: countWords(markdown) };
}

/** Each link's href in a body's rendered HTML, as the sanitiser wrote it (its entities escaped). */
const RENDERED_HREF = /<a\s[^>]*?href="([^"]*)"/g;

/**
 * What a body points at once rendered, exactly as this module renders it: the reference of each
 * image it looks up in the media library, and the href of each link as the page hands it to the
 * reader's browser (the parser's backslash escapes removed, the entities read). A body the parser
 * fails on is shown as its text and points at nothing. Which pictures a body uses is read from
 * these (media-usage.ts): `/media/<key>\/original.jpg` or `&#47;media&#47;…` names a picture as
 * surely as its plain address does.
 */
export function renderedAddresses(markdown: string): string[] {
  const addresses: string[] = [];
  const { html } = renderArticleMarkdown(markdown, {
    resolveImage: (reference) => {
      addresses.push(reference);
      return null;
    },
  });
  for (const match of html.matchAll(RENDERED_HREF)) addresses.push(decodeEntities(match[1]!));
  return addresses;
}

/** The site paths (beginning with one "/") a body's Markdown links to, in order, once each. */
export function sitePathsLinked(body: string): string[] {
  const marked = new Marked({ gfm: true, async: false });
  const found: string[] = [];
  try {
    const tokens = marked.lexer(body);
    marked.walkTokens(tokens, (token: Token) => {
      if (token.type !== "link") return;
      const href = String((token as { href?: unknown }).href ?? "").trim();
      if (!href.startsWith("/") || href.startsWith("//") || href.startsWith("/\\")) return;
      const pathname = href.split(/[?#]/)[0]!;
      if (!found.includes(pathname)) found.push(pathname);
    });
  } catch {
    // A body nested deeper than the parser's stack (refused by the studio since, but a file or an
    // older revision may hold one) has no links it can read: the editor opens all the same.
    return [];
  }
  return found;
}

/** Minutes to read at 200 words a minute, at least one. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.ceil(words / 200));
}
