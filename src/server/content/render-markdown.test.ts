import { describe, expect, it } from "vitest";
import { MARKDOWN_HEADINGS_MAX } from "#shared/content/markdown-rules.ts";
import { IMAGE_SIZES } from "#shared/image-sizes.ts";
import { HOSTILE_BODY, HOSTILE_PICTURE_KEY } from "../../../test/hostile-markdown.ts";
import {
  bodyImageSizes,
  bodyPictureHtml,
  readingMinutes,
  renderArticleMarkdown,
  renderedAddresses,
  sanitizeArticleHtml,
  slugifyHeading,
} from "./render-markdown.ts";
import { type MediaRow, mediaIndexOf } from "./responsive-images.ts";

const hostile = `${HOSTILE_BODY}
## Load & Flow

### Load & Flow

## Load Flow 2

## Load & Flow

| A | B |
|---|---|
| 1 | 2 |
`;

describe("renderArticleMarkdown", () => {
  const { html, headings } = renderArticleMarkdown(hostile);

  it("removes every script vector of a hostile file", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).not.toMatch(/<svg/i);
    expect(html).not.toMatch(/\son\w+=/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/href="data:/i);
    expect(html).not.toMatch(/style=/i);
  });

  it("keeps the Markdown's structure: headings with anchor ids, links, tables, emphasis", () => {
    expect(html).toContain('<h2 id="section-title-inside-the-body">Title inside the body</h2>');
    expect(html).toContain('<h2 id="section-load-flow">Load &amp; Flow</h2>');
    expect(html).toContain('<h3 id="section-load-flow-2">Load &amp; Flow</h3>');
    expect(html).toContain('<a href="https://ieee.org/standards" rel="noopener noreferrer nofollow">a fine link</a>');
    expect(html).toContain('<a href="/contact">a relative one</a>');
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toMatch(/<table>[\s\S]*<td>1<\/td>/);
    expect(headings).toEqual([
      { id: "section-title-inside-the-body", text: "Title inside the body", level: 2 },
      { id: "section-load-flow", text: "Load & Flow", level: 2 },
      { id: "section-load-flow-2", text: "Load & Flow", level: 3 },
      // Its own slug is taken by the repeat above, and the next repeat skips past it.
      { id: "section-load-flow-2-2", text: "Load Flow 2", level: 2 },
      { id: "section-load-flow-3", text: "Load & Flow", level: 2 },
    ]);
  });
});

describe("a body of repeated headings", () => {
  it("gives each of 50,000 repeated headings an id of its own, in a number of steps that grows with them, not with their square", () => {
    // Searching from -2 each time was n² steps: 12,000 took 20 s, 50,000 about 6 minutes (the
    // test's time limit ends it). A file or an older revision may still hold such a body.
    const { html, headings } = renderArticleMarkdown("#\n".repeat(50_000));
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids).toHaveLength(50_000);
    expect(new Set(ids).size).toBe(50_000);
    // The page's list of sections names as many as the studio lets a body have, the first ones:
    // 50,000 entries drawn on the event loop held it seconds (the event-loop kit).
    expect(headings).toHaveLength(MARKDOWN_HEADINGS_MAX);
    expect(headings.at(-1)).toEqual({ id: ids[MARKDOWN_HEADINGS_MAX - 1], text: "", level: 2 });
  });
});

describe("a body nested deeper than the parser's stack", () => {
  it.each([
    ["3,000 nested quotes", `${">".repeat(3000)} a`],
    ["3,000 nested list items", `${"- ".repeat(3000)}a`],
    ["3,000 nested emphases", `${"*".repeat(3000)}a${"*".repeat(3000)}`],
  ])("%s: shown as its text, escaped, instead of failing", (_name, body) => {
    const rendered = renderArticleMarkdown(`A first paragraph <b>.\n\n${body}`);
    expect(rendered.html.startsWith("<p>A first paragraph &lt;b&gt;.</p>\n<p>")).toBe(true);
    expect(rendered.html).not.toContain("<blockquote");
    expect(rendered.headings).toEqual([]);
  });
});

describe("renderedAddresses", () => {
  const key = "0123456789abcdef";
  const reference = `/media/${key}/original.jpg`;

  it("reads each image and link as the page renders it: escapes removed, entities read", () => {
    const body = [
      `![A](/media/${key}\\/original.jpg)`,
      `[B](&#47;media&#47;${key}&#47;original.jpg) and [C](&#x2F;media/${key}&sol;original.jpg)`,
      `[D][d]`,
      `[d]: /media/${key}&#x2f;original.jpg "A &amp; B"`,
      `[E](/a?b=1&amp;c=2)`,
    ].join("\n\n");
    expect(renderedAddresses(body)).toEqual([reference, reference, reference, reference, "/a?b=1&c=2"]);
  });

  it("leaves out what the page shows as text (raw HTML, code, a body too deep); gives an image as the renderer looks it up", () => {
    const body = [
      `<a href="${reference}">raw</a> <img src="${reference}">`,
      `\`[B](${reference})\``,
      `    ![C](${reference})`,
      `![D](&#47;media&#47;${key}&#47;original.jpg)`,
    ].join("\n\n");
    // An image is looked up by the address as the parser gives it: the renderer draws none for D.
    expect(renderedAddresses(body)).toEqual([`&#47;media&#47;${key}&#47;original.jpg`]);
    expect(renderedAddresses(`${">".repeat(3000)} ![E](${reference})`)).toEqual([]);
  });
});

describe("slugifyHeading and readingMinutes", () => {
  it("make ids and reading times", () => {
    expect(slugifyHeading("IEEE 519: Harmonic Limits at the PCC")).toBe("ieee-519-harmonic-limits-at-the-pcc");
    expect(slugifyHeading("???")).toBe("section");
    expect(readingMinutes(50)).toBe(1);
    expect(readingMinutes(1001)).toBe(6);
  });
});

/** Every tag of some HTML with its attributes, as the sanitiser writes them (double-quoted values). */
function tagsOf(html: string): { name: string; attributes: Record<string, string> }[] {
  return [...html.matchAll(/<([a-z][a-z0-9-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/gi)].map((match) => ({
    name: match[1]!.toLowerCase(),
    attributes: Object.fromEntries(
      [...match[2]!.matchAll(/\s+([^\s=>/]+)(?:="([^"]*)")?/g)].map((part) => [part[1]!.toLowerCase(), part[2] ?? ""]),
    ),
  }));
}

const row = (fields: Partial<MediaRow> & Pick<MediaRow, "key">): MediaRow => ({
  width: 1000,
  height: 500,
  alt: "A 220 kV switchyard at dusk",
  decorative: false,
  sourcePath: null,
  ...fields,
});

describe("images in article bodies", () => {
  const key = "aaaaaaaaaaaaaaaa";
  const library = mediaIndexOf([
    row({ key }),
    row({ key: "bbbbbbbbbbbbbbbb", width: 300, height: 200, alt: "Never shown", decorative: true }),
    row({ key: "cccccccccccccccc", sourcePath: "/images/articles/old-picture.svg", alt: "An old picture" }),
    row({ key: HOSTILE_PICTURE_KEY }),
  ]);
  const render = (markdown: string) => renderArticleMarkdown(markdown, { resolveImage: library.resolve }).html;
  const sizes = IMAGE_SIZES.article.replace(/"/g, "&quot;");

  it("draws a library picture alone in its paragraph as a figure: AVIF, WebP and JPEG of every width, lazy, with its size", () => {
    const html = render(`![Relay panel, front](/media/${key}/original.jpg "The panel after the retrofit")`);
    const widths = [320, 480, 640, 960, 1000];
    const srcset = (extension: string) => widths.map((w) => `/media/${key}/${w}.${extension} ${w}w`).join(", ");
    expect(html).toBe(
      `<figure><picture><source type="image/avif" srcset="${srcset("avif")}" sizes="${sizes}" />` +
        `<source type="image/webp" srcset="${srcset("webp")}" sizes="${sizes}" />` +
        `<img src="/media/${key}/640.jpg" srcset="${srcset("jpg")}" sizes="${sizes}" width="1000" height="500"` +
        ` alt="Relay panel, front" loading="lazy" decoding="async" /></picture>` +
        "<figcaption>The panel after the retrofit</figcaption></figure>\n",
    );
  });

  it("keeps a picture inside a paragraph of text, without a figure; takes the library's words when the Markdown has none", () => {
    const html = render(
      `Before ![](/images/articles/old-picture.svg) after, and ![](/media/bbbbbbbbbbbbbbbb/original.png).`,
    );
    expect(html).toMatch(/^<p>Before <picture>.*<\/picture> after, and <picture>.*<\/picture>\.<\/p>\n$/);
    expect(html).not.toContain("<figure");
    const images = tagsOf(html).filter((tag) => tag.name === "img");
    expect(images.map((image) => [image.attributes.src, image.attributes.alt])).toEqual([
      // Found by the old address the library knows it by.
      ["/media/cccccccccccccccc/640.jpg", "An old picture"],
      // Decorative: no words, whatever the library once held; only its own width, never upscaled.
      ["/media/bbbbbbbbbbbbbbbb/300.jpg", ""],
    ]);
    expect(images[1]!.attributes.srcset).toBe("/media/bbbbbbbbbbbbbbbb/300.jpg 300w");
  });

  it("drops every image the library does not hold, and every image when no library is given", () => {
    const unknown = [
      "![remote](https://example.org/picture.jpg)",
      "![unknown key](/media/ffffffffffffffff/original.jpg)",
      "![unknown old path](/images/articles/not-in-the-library.svg)",
      "![a variant, not a reference](/media/aaaaaaaaaaaaaaaa/640.jpg)",
    ].join("\n\n");
    expect(render(`Text.\n\n${unknown}\n\nMore text.`)).toBe("<p>Text.</p>\n<p>More text.</p>\n");
    expect(renderArticleMarkdown(`![Relay panel](/media/${key}/original.jpg)`).html).toBe("");
  });

  it("with the hostile key in the library, draws only the plain reference, with its words escaped, and nothing from elsewhere", () => {
    const html = render(HOSTILE_BODY);
    const tags = tagsOf(html);
    const images = tags.filter((tag) => tag.name === "img");
    expect(images).toHaveLength(1);
    expect(images[0]!.attributes.alt).toBe("alt that closes its quote&quot; onerror=&quot;alert(9)");
    const allowed: Record<string, string[]> = {
      img: ["src", "srcset", "sizes", "width", "height", "alt", "loading", "decoding"],
      source: ["type", "srcset", "sizes"],
    };
    for (const tag of tags) {
      for (const name of Object.keys(tag.attributes)) {
        expect(name, `${tag.name} ${name}`).not.toMatch(/^on/);
        if (allowed[tag.name]) expect(allowed[tag.name], `${tag.name} ${name}`).toContain(name);
      }
      const addresses = [
        tag.attributes.src,
        ...(tag.attributes.srcset ?? "").split(", ").map((entry) => entry.split(" ")[0]),
      ].filter(Boolean);
      if (tag.name === "img" || tag.name === "source")
        for (const address of addresses)
          expect(address).toMatch(new RegExp(`^/media/${HOSTILE_PICTURE_KEY}/[0-9]+\\.(avif|webp|jpg)$`));
    }
    expect(tags.filter((tag) => tag.name === "source")).toHaveLength(2);
    expect(html).not.toMatch(/evil\.example|javascript:|data:|<script|<svg|<iframe/i);
  });

  it("the sanitiser keeps a picture exactly as the renderer draws it, and drops any other <img> or <source>", () => {
    const picture = bodyPictureHtml(library.resolve(`/media/${key}/original.jpg`)!, "Words");
    expect(sanitizeArticleHtml(picture).replace(/ \/>/g, ">")).toBe(picture);
    const variant = `/media/${key}/640.jpg`;
    const jpegs = `/media/${key}/320.jpg 320w, /media/${key}/640.jpg 640w`;
    // A picture 10 px wide is drawn at 10 px: its sizes say so (bodyImageSizes).
    const narrow = bodyImageSizes(10);
    const good = `src="${variant}" srcset="${jpegs}" sizes="${narrow}" width="10" height="10" alt="" loading="lazy" decoding="async"`;
    const tricks = [
      `<img ${good.replace(jpegs, `${jpegs}, https://evil.example/x.jpg 1280w`)}>`,
      `<img ${good.replace(variant, "https://evil.example/x.jpg")}>`,
      `<img ${good.replace(variant, "data:image/png;base64,AAAA")}>`,
      `<img ${good.replace(variant, "javascript:alert(1)")}>`,
      `<img ${good.replace(variant, `/media/${key}/original.svg`)}>`,
      `<img ${good.replace('loading="lazy"', 'loading="eager"')}>`,
      `<img ${good.replace(narrow, "100vw")}>`,
      // The column's sizes on a picture narrower than it: not what the renderer writes.
      `<img ${good.replace(narrow, sizes)}>`,
      `<source type="image/webp" srcset="/media/${key}/320.webp 320w" sizes="${narrow.replace("10px", "10vw")}">`,
      `<img ${good.replace('width="10"', 'width="10px"')}>`,
      `<img ${good.replace(jpegs, `/media/${key}/320.avif 320w`)}>`,
      `<source type="image/avif" srcset="/media/${key}/320.avif 320w, //evil.example/x.avif 640w" sizes="${sizes}">`,
      `<source type="image/webp" srcset="/media/${key}/320.avif 320w" sizes="${sizes}">`,
      `<source type="image/svg+xml" srcset="/media/${key}/320.avif 320w" sizes="${sizes}">`,
      `<source srcset="/media/${key}/320.avif 320w" sizes="${sizes}" media="(min-width: 1px)">`,
    ];
    for (const trick of tricks)
      expect(sanitizeArticleHtml(`<picture>${trick}</picture>`), trick).toBe("<picture></picture>");
    // An attribute the renderer never writes is removed, the rest kept.
    expect(sanitizeArticleHtml(`<img ${good} onerror="alert(1)" style="x" title="t">`)).toBe(`<img ${good} />`);
  });

  it("a picture narrower than the column is drawn at its own width, and its sizes say so", () => {
    expect(bodyImageSizes(832)).toBe(IMAGE_SIZES.article);
    expect(bodyImageSizes(2000)).toBe(IMAGE_SIZES.article);
    expect(bodyImageSizes(810)).toBe(
      "(min-width: 1024px) min(832px, 810px), (min-width: 640px) min(calc(100vw - 48px), 810px), min(calc(100vw - 32px), 810px)",
    );
    const narrowSource = `<source type="image/webp" srcset="/media/${key}/320.webp 320w" sizes="${bodyImageSizes(300)}">`;
    expect(sanitizeArticleHtml(`<picture>${narrowSource}</picture>`).replace(/ \/>/g, ">")).toBe(
      `<picture>${narrowSource}</picture>`,
    );
  });
});
