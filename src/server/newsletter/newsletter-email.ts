import { articlePath, paths } from "#shared/paths.ts";
import { site } from "#shared/site.ts";
import type { NewsletterSnapshot } from "../db/schema.ts";

// A newsletter's mail, HTML and plain text, made from what the newsletter said when it was sent
// (its snapshot), never from later edits (docs/decisions/045-newsletter-sending.md).
//
// The HTML is written for the mail clients people read it in, not for browsers: a complete
// document, a table layout, inline styles only (Gmail and Outlook drop or ignore <style> and
// external CSS), no web fonts, at most 600 px wide and fluid below it so it reads at 375 px, and
// pictures as the library's JPEG variant (AVIF and WebP do not show in every client) by absolute
// address on SITE_URL. It stays well under 100 KB, past which Gmail clips a message, even at the
// composer's limits (12 articles, an introduction of 5,000 characters).
//
// Every link to the site carries utm_source=newsletter, utm_medium=email and utm_campaign=<the
// newsletter's campaign>, so the analytics dashboard counts the visits and enquiries it brought;
// nothing else tracks: no pixel, no redirect, each link goes straight to its page. Everything the
// snapshot holds is escaped; the introduction's Markdown is read as a small safe subset
// (paragraphs, lists, links, bold, italic) and anything else stays literal text.

export type NewsletterMailParts = { subject: string; html: string; text: string };

export type NewsletterMailOptions = {
  /** SITE_URL: every link and image is absolute on it. */
  siteUrl: string;
  /** utm_campaign of every link to the site. */
  campaign: string;
  /** The recipient's own unsubscribe address (absolute https link). */
  unsubscribeUrl: string;
};

/** Gmail clips a message whose HTML is larger than about 102 KB; the tests hold the mail under this. */
export const NEWSLETTER_HTML_LIMIT_BYTES = 100 * 1024;

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "Asia/Kolkata" });

/**
 * Escapes for text and for double-quoted attribute values: & < and " are all that can end either
 * (> and ' cannot), and every byte counts towards Gmail's 102 KB.
 */
function escapeHtml(text: string): string {
  return text.replace(/[&<"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", '"': "&quot;" })[c]!);
}

/** Line breaks and other control characters out of a one-line text (a subject, a title). */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : dateFormat.format(date);
}

/**
 * A link as the mail writes it: an address on the site (a path, or absolute on SITE_URL) becomes
 * absolute with the campaign's utm parameters; an http(s) address elsewhere stays as it is; any
 * other scheme (javascript:, data:…) is no link at all (undefined).
 */
export function mailLink(
  href: string,
  options: Pick<NewsletterMailOptions, "siteUrl" | "campaign">,
): string | undefined {
  const origin = new URL(options.siteUrl).origin;
  let url: URL;
  try {
    url = new URL(href, `${options.siteUrl}/`);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  if (!href.startsWith("/") && !/^https?:\/\//i.test(href)) return undefined;
  if (url.origin !== origin) return url.toString();
  url.searchParams.set("utm_source", "newsletter");
  url.searchParams.set("utm_medium", "email");
  url.searchParams.set("utm_campaign", options.campaign);
  return url.toString();
}

type Block = { kind: "paragraph"; lines: string[] } | { kind: "list"; ordered: boolean; items: string[] };

/** Paragraphs (separated by a blank line) and lists ("- ", "* ", "1. "): the subset the mail reads. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  for (const raw of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    const item = /^(?:([-*+])|(\d{1,3})[.)])\s+(.*)$/.exec(line);
    if (!line) {
      current = undefined;
    } else if (item) {
      const ordered = item[2] !== undefined;
      if (current?.kind !== "list" || current.ordered !== ordered) {
        current = { kind: "list", ordered, items: [] };
        blocks.push(current);
      }
      current.items.push(item[3]!);
    } else if (current?.kind === "list") {
      // A line under an item continues it.
      current.items[current.items.length - 1] += ` ${line}`;
    } else if (current?.kind === "paragraph") {
      current.lines.push(line);
    } else {
      current = { kind: "paragraph", lines: [line] };
      blocks.push(current);
    }
  }
  return blocks;
}

/**
 * The introduction's links beyond this many stay text: each costs about 150 bytes with its utm
 * parameters, and a text of nothing but links would otherwise take the mail past Gmail's clip.
 */
export const INTRODUCTION_LINK_LIMIT = 40;

const LINK = /\[([^\]\n]{1,500})\]\(([^()\s]{1,2000})\)/g;

type LinkCount = { links: number };

/** Inline Markdown to HTML: the text escaped first, then links, bold and italic. */
function inlineHtml(text: string, options: NewsletterMailOptions, count: LinkCount): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    parts.push(emphasisHtml(text.slice(last, match.index)));
    const href = count.links < INTRODUCTION_LINK_LIMIT ? mailLink(match[2]!, options) : undefined;
    if (href) count.links += 1;
    parts.push(
      href
        ? // The client's own link colour: a style on each of many links would cost kilobytes.
          `<a href="${escapeHtml(href)}">${emphasisHtml(match[1]!)}</a>`
        : emphasisHtml(match[1]!),
    );
    last = match.index + match[0].length;
  }
  parts.push(emphasisHtml(text.slice(last)));
  return parts.join("");
}

function emphasisHtml(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, "<strong>$1</strong>")
    .replace(/__(?=\S)(.+?)(?<=\S)__/g, "<strong>$1</strong>")
    .replace(/(^|[^*\w])\*(?=\S)(.+?)(?<=\S)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|[^_\w])_(?=\S)(.+?)(?<=\S)_(?!\w)/g, "$1<em>$2</em>");
}

/** Inline Markdown to plain text: emphasis marks dropped, each link written out after its words. */
function inlineText(text: string, options: NewsletterMailOptions, count: LinkCount): string {
  return text
    .replace(LINK, (_, words: string, target: string) => {
      const href = count.links < INTRODUCTION_LINK_LIMIT ? mailLink(target, options) : undefined;
      if (href) count.links += 1;
      return href ? `${words} (${href})` : words;
    })
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, "$1")
    .replace(/__(?=\S)(.+?)(?<=\S)__/g, "$1");
}

const FONT = "font-family:Arial,Helvetica,sans-serif;";
const TEXT_STYLE = `${FONT}font-size:16px;line-height:24px;color:#1f2937;`;

function introductionHtml(markdown: string, options: NewsletterMailOptions): string {
  const count = { links: 0 };
  return blocksOf(markdown)
    .map((block) => {
      if (block.kind === "paragraph")
        return `<p style="margin:0 0 16px 0;${TEXT_STYLE}">${block.lines.map((line) => inlineHtml(line, options, count)).join("<br>")}</p>`;
      const tag = block.ordered ? "ol" : "ul";
      const items = block.items
        .map((item) => `<li style="margin:0 0 8px 0;${TEXT_STYLE}">${inlineHtml(item, options, count)}</li>`)
        .join("");
      return `<${tag} style="margin:0 0 16px 0;padding:0 0 0 24px;">${items}</${tag}>`;
    })
    .join("\n");
}

function introductionText(markdown: string, options: NewsletterMailOptions): string {
  const count = { links: 0 };
  return blocksOf(markdown)
    .map((block) =>
      block.kind === "paragraph"
        ? block.lines.map((line) => inlineText(line, options, count)).join("\n")
        : block.items
            .map((item, index) => `${block.ordered ? `${index + 1}.` : "-"} ${inlineText(item, options, count)}`)
            .join("\n"),
    )
    .join("\n\n");
}

type Article = NewsletterSnapshot["articles"][number];

/** The cover's absolute address, or undefined when it is not a picture on the site. */
function coverUrl(article: Article, siteUrl: string): string | undefined {
  return article.image.startsWith("/") && !article.image.startsWith("//") ? `${siteUrl}${article.image}` : undefined;
}

function articleHtml(article: Article, options: NewsletterMailOptions): string {
  const href = escapeHtml(mailLink(articlePath(article.slug), options)!);
  const cover = coverUrl(article, options.siteUrl);
  const title = escapeHtml(oneLine(article.title));
  const meta = [oneLine(article.category), formatDate(article.publishedAt)].filter(Boolean).map(escapeHtml).join(" · ");
  return `<tr><td style="padding:0 24px 32px 24px;">
${
  cover
    ? `<img src="${escapeHtml(cover)}" width="552" alt="${escapeHtml(oneLine(article.imageAlt))}" style="display:block;width:100%;max-width:552px;height:auto;border:0;border-radius:6px;">\n`
    : ""
}<p style="margin:16px 0 4px 0;${FONT}font-size:13px;line-height:18px;color:#6b7280;">${meta}</p>
<h2 style="margin:0 0 8px 0;${FONT}font-size:20px;line-height:28px;color:#111827;"><a href="${href}" style="color:#111827;text-decoration:none;">${title}</a></h2>
<p style="margin:0 0 12px 0;${TEXT_STYLE}">${escapeHtml(article.excerpt)}</p>
<a href="${href}" style="${FONT}font-size:16px;line-height:24px;color:#1d4ed8;font-weight:bold;text-decoration:underline;">Read the article</a>
</td></tr>`;
}

function postalAddress(): string {
  const a = site.address;
  return `${a.street}, ${a.locality}, ${a.region} ${a.postalCode}, ${a.country}`;
}

const WHY = `You receive this because you subscribed to the ${site.shortName} newsletter on our website and confirmed your address.`;

export function renderNewsletter(snapshot: NewsletterSnapshot, options: NewsletterMailOptions): NewsletterMailParts {
  const subject = oneLine(snapshot.subject);
  const home = mailLink(paths.home, options)!;
  const insights = mailLink(paths.blog, options)!;
  const unsubscribe = mailLink(options.unsubscribeUrl, options) ?? options.unsubscribeUrl;
  const intro = introductionHtml(snapshot.introduction, options);

  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6;">
<tr><td align="center" style="padding:24px 8px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px;">
<tr><td style="padding:24px 24px 8px 24px;">
<a href="${escapeHtml(home)}" style="${FONT}font-size:20px;line-height:28px;font-weight:bold;color:#1e3a8a;text-decoration:none;">${escapeHtml(site.name)}</a>
<p style="margin:4px 0 0 0;${FONT}font-size:13px;line-height:18px;color:#6b7280;">${escapeHtml(site.tagline)}</p>
</td></tr>
<tr><td style="padding:16px 24px 8px 24px;">
<h1 style="margin:0 0 16px 0;${FONT}font-size:24px;line-height:32px;color:#111827;">${escapeHtml(subject)}</h1>
${intro}
</td></tr>
${snapshot.articles.map((article) => articleHtml(article, options)).join("\n")}
<tr><td style="padding:0 24px 24px 24px;">
<a href="${escapeHtml(insights)}" style="${FONT}font-size:16px;line-height:24px;color:#1d4ed8;text-decoration:underline;">More articles on our Insights page</a>
</td></tr>
<tr><td style="padding:16px 24px 24px 24px;border-top:1px solid #e5e7eb;">
<p style="margin:0 0 8px 0;${FONT}font-size:13px;line-height:20px;color:#6b7280;">${escapeHtml(WHY)}</p>
<p style="margin:0 0 8px 0;${FONT}font-size:13px;line-height:20px;color:#6b7280;">${escapeHtml(site.name)}, ${escapeHtml(postalAddress())}</p>
<p style="margin:0;${FONT}font-size:13px;line-height:20px;color:#6b7280;"><a href="${escapeHtml(unsubscribe)}" style="color:#6b7280;text-decoration:underline;">Unsubscribe</a> from this newsletter at any time.</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;

  const introText = introductionText(snapshot.introduction, options);
  const text = [
    site.name,
    "",
    subject,
    "=".repeat(Math.min(subject.length, 72)),
    "",
    ...(introText ? [introText, ""] : []),
    ...snapshot.articles.flatMap((article) => [
      oneLine(article.title),
      [oneLine(article.category), formatDate(article.publishedAt)].filter(Boolean).join(" · "),
      article.excerpt.replace(/\s+/g, " ").trim(),
      `Read the article: ${mailLink(articlePath(article.slug), options)}`,
      "",
    ]),
    `More articles: ${insights}`,
    "",
    "--",
    WHY,
    `${site.name}, ${postalAddress()}`,
    `Unsubscribe: ${unsubscribe}`,
    "",
  ].join("\n");

  return { subject, html, text };
}
