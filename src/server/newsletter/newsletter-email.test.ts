import { describe, expect, it } from "vitest";
import { CONTENT_LIMITS } from "#shared/content/documents.ts";
import { site } from "#shared/site.ts";
import type { NewsletterSnapshot } from "../db/schema.ts";
import { mailLink, NEWSLETTER_HTML_LIMIT_BYTES, renderNewsletter } from "./newsletter-email.ts";

const SITE = "https://sabarmatigrid.example";
const options = {
  siteUrl: SITE,
  campaign: "2026-11-insights",
  unsubscribeUrl: `${SITE}/newsletter/unsubscribe/abc.def`,
};

const article = (n: number, overrides: Partial<NewsletterSnapshot["articles"][number]> = {}) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  slug: `article-${n}`,
  title: `Article ${n}`,
  excerpt: `What article ${n} is about.`,
  category: "Grid Integration",
  publishedAt: "2026-11-20T06:30:00.000Z",
  image: `/media/0123456789abcdef/640.jpg`,
  imageAlt: `Cover of article ${n}`,
  ...overrides,
});

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
const srcs = (html: string) => [...html.matchAll(/<img[^>]*\ssrc="([^"]*)"/g)].map((m) => m[1]!);

describe("the newsletter's mail", () => {
  it("is a complete table-layout document with inline styles only, each article with cover, title, date, excerpt and link", () => {
    const mail = renderNewsletter(
      { subject: "November insights", introduction: "Hello **all**.", articles: [article(1), article(2)] },
      options,
    );
    expect(mail.subject).toBe("November insights");
    expect(mail.html).toMatch(/^<!DOCTYPE html>/);
    expect(mail.html).toContain('<table role="presentation"');
    expect(mail.html).toContain("max-width:600px");
    expect(mail.html).not.toMatch(/<style|<link|<script|@import|font-face/i);
    expect(mail.html).toContain("<strong>all</strong>");
    for (const n of [1, 2]) {
      expect(mail.html).toContain(`Article ${n}</a></h2>`);
      expect(mail.html).toContain(`What article ${n} is about.`);
      expect(mail.html).toContain(`alt="Cover of article ${n}"`);
      expect(mail.text).toContain(
        `Read the article: ${SITE}/blog/article-${n}?utm_source=newsletter&utm_medium=email&utm_campaign=2026-11-insights`,
      );
    }
    expect(mail.html.match(/>Read the article</g)).toHaveLength(2);
    expect(mail.html).toContain("20 November 2026");
    // Every picture a JPEG, absolute on SITE_URL.
    expect(srcs(mail.html)).toEqual([
      `${SITE}/media/0123456789abcdef/640.jpg`,
      `${SITE}/media/0123456789abcdef/640.jpg`,
    ]);
    // The footer: why, who and where, how to stop.
    expect(mail.html).toContain("because you subscribed");
    expect(mail.html).toContain(site.name);
    expect(mail.html).toContain(site.address.postalCode);
    expect(mail.text).toContain(site.address.street);
    expect(mail.text).toContain(`Unsubscribe: ${SITE}/newsletter/unsubscribe/abc.def?utm_source=newsletter`);
  });

  it("gives every link to the site the campaign's utm parameters and nothing else: no pixel, no redirect", () => {
    const mail = renderNewsletter(
      {
        subject: "Links",
        introduction:
          "See [our services](/services) and [the IEEE](https://www.ieee.org/standards) and [home](https://sabarmatigrid.example/about?x=1).",
        articles: [article(1)],
      },
      options,
    );
    const links = hrefs(mail.html);
    expect(links.length).toBeGreaterThan(4);
    for (const link of links) {
      const url = new URL(link);
      if (url.origin !== SITE) {
        expect(link).toBe("https://www.ieee.org/standards");
        continue;
      }
      expect(url.searchParams.get("utm_source")).toBe("newsletter");
      expect(url.searchParams.get("utm_medium")).toBe("email");
      expect(url.searchParams.get("utm_campaign")).toBe("2026-11-insights");
    }
    expect(links).toContain(`${SITE}/about?x=1&utm_source=newsletter&utm_medium=email&utm_campaign=2026-11-insights`);
    expect(mail.text).toContain(
      `our services (${SITE}/services?utm_source=newsletter&utm_medium=email&utm_campaign=2026-11-insights)`,
    );
    // The only pictures are the covers.
    expect(srcs(mail.html)).toHaveLength(1);
  });

  it("reads the introduction's Markdown as a small safe subset and escapes everything", () => {
    const mail = renderNewsletter(
      {
        subject: 'A <b>"bold"</b> subject\r\nBcc: someone@example.com',
        introduction: [
          "First *paragraph* with <script>alert(1)</script> and <img src=x onerror=alert(1)>.",
          "",
          "- one",
          "- [two](javascript:evil)",
          "",
          "1. first",
          "2. [data](data:text/html,hi)",
          "",
          '[quote" onclick="x](/blog)',
        ].join("\n"),
        articles: [article(1, { title: "<i>Title</i>", excerpt: "a & b < c", imageAlt: '"><script>' })],
      },
      options,
    );
    expect(mail.subject).toBe('A <b>"bold"</b> subject Bcc: someone@example.com');
    // Only the mail's own tags and attributes; the hostile ones are text.
    const tags = new Set([...mail.html.matchAll(/<\/?([a-zA-Z0-9!]+)/g)].map((m) => m[1]!.toLowerCase()));
    expect([...tags].sort()).toEqual(
      [
        "!doctype",
        "a",
        "body",
        "em",
        "h1",
        "h2",
        "head",
        "html",
        "img",
        "li",
        "meta",
        "ol",
        "p",
        "table",
        "td",
        "title",
        "tr",
        "ul",
      ].sort(),
    );
    expect(mail.html).not.toMatch(/<[^>]*\son\w+=/i);
    expect(hrefs(mail.html).filter((href) => !href.startsWith("https://"))).toEqual([]);
    expect(mail.html).toContain("&lt;script>alert(1)&lt;/script>");
    expect(mail.html).toContain("<em>paragraph</em>");
    expect(mail.html).toMatch(/<ul[^>]*><li[^>]*>one<\/li><li[^>]*>two<\/li><\/ul>/);
    expect(mail.html).toMatch(/<ol[^>]*><li[^>]*>first<\/li><li[^>]*>data<\/li><\/ol>/);
    expect(mail.html).toContain("&lt;i>Title&lt;/i>");
    expect(mail.html).toContain("a &amp; b &lt; c");
    expect(mail.text).toContain("- two");
    expect(mail.text).not.toContain("javascript:");
  });

  it("leaves out a cover that is not a picture on the site", () => {
    const mail = renderNewsletter(
      {
        subject: "S",
        introduction: "",
        articles: [article(1, { image: "" }), article(2, { image: "//evil.example/x.jpg" })],
      },
      options,
    );
    expect(srcs(mail.html)).toEqual([]);
  });

  it("stays under 100 KB at the composer's limits: 12 articles at their longest and an introduction of 5,000 characters", () => {
    const words = (length: number) => long(length, "Reactive power & voltage <control> at the grid's edge. ");
    const long = (length: number, unit: string) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    const articles = Array.from({ length: 12 }, (_, n) =>
      article(n, {
        slug: long(CONTENT_LIMITS.slug, `article-${n}-`).replace(/-+$/, "x"),
        title: words(CONTENT_LIMITS.title),
        excerpt: words(CONTENT_LIMITS.excerpt),
        category: words(CONTENT_LIMITS.category),
        imageAlt: words(200),
      }),
    );
    // Links cost the most (each gets the utm parameters): a link in every sentence.
    const introduction = long(5000, "Read **our study** of [reactive power](/blog/reactive-power-study) & more.\n\n");
    const mail = renderNewsletter({ subject: words(200), introduction, articles }, options);
    expect(Buffer.byteLength(mail.html)).toBeLessThan(NEWSLETTER_HTML_LIMIT_BYTES * 0.8);
    // Even text made only of characters to escape and links with nothing between them stays under.
    const hostile = renderNewsletter(
      {
        subject: long(200, "<&>"),
        introduction: long(5000, "[<&](/blog)"),
        articles: articles.map((item) => ({
          ...item,
          title: long(CONTENT_LIMITS.title, "<&"),
          excerpt: long(CONTENT_LIMITS.excerpt, "<&"),
          category: long(CONTENT_LIMITS.category, "<&"),
          imageAlt: long(200, "<&"),
        })),
      },
      options,
    );
    expect(Buffer.byteLength(hostile.html)).toBeLessThan(NEWSLETTER_HTML_LIMIT_BYTES);
  });

  it("makes a link absolute with utm only on the site; other schemes are no link", () => {
    expect(mailLink("/blog#x", options)).toBe(
      `${SITE}/blog?utm_source=newsletter&utm_medium=email&utm_campaign=2026-11-insights#x`,
    );
    expect(mailLink("mailto:a@b.example", options)).toBeUndefined();
    expect(mailLink("javascript:alert(1)", options)).toBeUndefined();
    expect(mailLink("relative/path", options)).toBeUndefined();
    expect(mailLink("https://other.example/a", options)).toBe("https://other.example/a");
  });
});
