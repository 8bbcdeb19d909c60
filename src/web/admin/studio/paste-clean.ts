// Pasted HTML made plain before the visual editor's parser reads it (decision 056): what Word,
// Google Docs and web pages put on the clipboard keeps its structure (headings, paragraphs, bold,
// italic, links, lists with their nesting, tables with a header row, quotes, code) and loses the
// rest (fonts, colours, classes, styles, comments, tracked deletions, Word's own XML). Word writes a
// list as paragraphs marked `mso-list:l0 level2`, each with its bullet or number as text: they are
// made real nested lists here. Pictures: one of this site's library (/media/...) stays; a data:
// URL is taken out and handed back to be sent to the library; any other (file:/// from Word,
// another site's address) is dropped and counted, since its bytes cannot or must not be fetched.

export type CleanedPaste = {
  html: string;
  /** Pictures carried in the HTML itself (data: URLs), in order, to send to the media library. */
  dataPictures: { src: string; alt: string }[];
  /** Pictures dropped because the browser cannot reach their bytes (file:///) or they live elsewhere. */
  droppedPictures: number;
};

const DROP = new Set([
  "style",
  "script",
  "meta",
  "link",
  "title",
  "head",
  "xml",
  "template",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
  "del",
  "s",
  "strike",
  "button",
  "input",
  "select",
  "textarea",
  "form",
  "noscript",
  "video",
  "audio",
  "canvas",
]);
const KEEP = new Set([
  "p",
  "br",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "strong",
  "b",
  "em",
  "i",
  "a",
  "ul",
  "ol",
  "li",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "blockquote",
  "pre",
  "code",
  "img",
  "hr",
]);

/** Word's "level" of a list paragraph (mso-list:l0 level2 lfo1 → list l0, level 2), or undefined. */
function wordListLevel(element: Element): { list: string; level: number } | undefined {
  const style = element.getAttribute("style") ?? "";
  const match = /mso-list:\s*(l\d+)\s+level(\d+)/i.exec(style);
  if (!match) return undefined;
  return { list: match[1]!, level: Math.min(Number(match[2]), 9) };
}

/** Whether Word's marker text (what its bullet paragraph starts with) is a number or letter. */
function orderedMarker(marker: string): boolean {
  return /^\s*(\d+|[a-z]|[ivxlc]+)[.)]/i.test(marker);
}

/** Word's list paragraphs → <ul>/<ol> nested by level, in place. */
function wordListsToLists(doc: Document, root: Element): void {
  const paragraphs = [...root.querySelectorAll("p, h1, h2, h3, h4, h5, h6")].filter((p) => wordListLevel(p));
  let index = 0;
  while (index < paragraphs.length) {
    // One run: consecutive list paragraphs, siblings of each other.
    const run: Element[] = [paragraphs[index]!];
    while (
      index + run.length < paragraphs.length &&
      run[run.length - 1]!.nextElementSibling === paragraphs[index + run.length]
    )
      run.push(paragraphs[index + run.length]!);
    index += run.length;
    const first = run[0]!;
    const top = doc.createElement("div");
    first.before(top);
    // A stack of open lists: stack[n] is the list at depth n+1.
    const stack: Element[] = [];
    for (const paragraph of run) {
      const { level } = wordListLevel(paragraph)!;
      const markerElement = paragraph.querySelector('[style*="mso-list:Ignore" i], [style*="mso-list: Ignore" i]');
      const marker = paragraph.getAttribute("data-list-marker") ?? markerElement?.textContent ?? "";
      markerElement?.remove();
      const depth = Math.max(1, Math.min(level, stack.length + 1));
      while (stack.length > depth) stack.pop();
      if (stack.length < depth) {
        const list = doc.createElement(orderedMarker(marker) ? "ol" : "ul");
        const parent = stack.length ? stack[stack.length - 1]!.lastElementChild : null;
        (parent ?? top).append(list);
        stack.push(list);
      }
      const item = doc.createElement("li");
      const body = doc.createElement("p");
      body.append(...paragraph.childNodes);
      item.append(body);
      stack[stack.length - 1]!.append(item);
      paragraph.remove();
    }
    top.replaceWith(...top.childNodes);
  }
}

/** Google Docs (and others) nest a list directly in a list: put it in the item before it. */
function nestListsInItems(root: Element): void {
  for (const list of [...root.querySelectorAll("ul > ul, ul > ol, ol > ul, ol > ol")]) {
    const before = list.previousElementSibling;
    if (before?.tagName.toLowerCase() === "li") before.append(list);
    else {
      const item = list.ownerDocument.createElement("li");
      list.before(item);
      item.append(list);
    }
  }
}

/** Bold and italic written as styles (Google Docs' spans) → <strong>/<em>; the GDocs wrapper unwrapped. */
function stylesToMarks(doc: Document, root: Element): void {
  for (const element of [...root.querySelectorAll("[style]")]) {
    const style = (element.getAttribute("style") ?? "").toLowerCase().replace(/\s+/g, "");
    const tag = element.tagName.toLowerCase();
    const boldStyle = /font-weight:(bold|[6-9]00)/.test(style);
    const notBold = /font-weight:(normal|[1-4]00)/.test(style);
    const italic = /font-style:italic/.test(style);
    if ((tag === "b" || tag === "strong") && notBold) {
      // Google Docs wraps the whole paste in <b style="font-weight:normal" id="docs-internal-guid-…">.
      element.replaceWith(...element.childNodes);
      continue;
    }
    if (tag !== "span") continue;
    let inner: Node[] = [...element.childNodes];
    if (italic) {
      const em = doc.createElement("em");
      em.append(...inner);
      inner = [em];
    }
    if (boldStyle) {
      const strong = doc.createElement("strong");
      strong.append(...inner);
      inner = [strong];
    }
    if (italic || boldStyle) element.replaceChildren(...inner);
  }
}

/** Headings moved so the highest pasted is a `##` (the page's title is the one h1), none deeper than h4. */
function shiftHeadings(doc: Document, root: Element): void {
  const headings = [...root.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  if (!headings.length) return;
  const top = Math.min(...headings.map((h) => Number(h.tagName[1])));
  for (const heading of headings) {
    const level = Math.min(4, Number(heading.tagName[1]) - top + 2);
    const next = doc.createElement(`h${level}`);
    next.append(...heading.childNodes);
    heading.replaceWith(next);
  }
}

/** A table's first row made its header (GFM tables always have one) unless it has one already. */
function headerRows(doc: Document, root: Element): void {
  for (const table of [...root.querySelectorAll("table")]) {
    if (table.querySelector("th")) continue;
    const first = table.querySelector("tr");
    if (!first) continue;
    for (const cell of [...first.querySelectorAll("td")]) {
      const th = doc.createElement("th");
      th.append(...cell.childNodes);
      cell.replaceWith(th);
    }
  }
}

const ownPicture = (src: string) => /^\/media\/[A-Za-z0-9/_.-]+$/.test(src);

/** Cleans pasted HTML; `doc` is a Document to build in (the browser's, or a test's). */
export function cleanPastedHtml(html: string, parse: (html: string) => Document): CleanedPaste {
  // Word's list markers sit between <![if !supportLists]> and <![endif]> (or the <!--[if …]-->
  // comment forms): take them out as text first, whatever the parser makes of such markup.
  const source = html
    .replace(/<!(?:--)?\[if !supportLists\](?:--)?>([\s\S]*?)<!(?:--)?\[endif\](?:--)?>/gi, (_, marker: string) =>
      marker.includes("mso-list") ? marker : "",
    )
    .replace(/<!--\[if [^\]]*\]>[\s\S]*?<!\[endif\]-->/gi, "")
    // Event handler attributes (Word's comments carry onmouseover): never parsed, so the page's
    // Content-Security-Policy has nothing to refuse.
    .replace(/\son[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, "");
  const doc = parse(source);
  const root = doc.body;
  const dataPictures: CleanedPaste["dataPictures"] = [];
  let droppedPictures = 0;

  // Comments (Word's conditional comments, StartFragment), then what never belongs in a body.
  const walker = doc.createTreeWalker(root, 128 /* NodeFilter.SHOW_COMMENT */);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
  for (const element of [...root.querySelectorAll("*")]) {
    const tag = element.tagName.toLowerCase();
    const style = (element.getAttribute("style") ?? "").toLowerCase();
    const className = element.getAttribute("class") ?? "";
    // Word's comments and their references, and anything Word hides.
    if (
      DROP.has(tag) ||
      /mso-element:\s*comment/.test(style) ||
      /msocommentreference|msocommenttext/i.test(className) ||
      /display:\s*none/.test(style)
    )
      element.remove();
  }

  wordListsToLists(doc, root);
  stylesToMarks(doc, root);
  nestListsInItems(root);

  for (const image of [...root.querySelectorAll("img")]) {
    const src = image.getAttribute("src") ?? "";
    const alt = (image.getAttribute("alt") ?? "").trim();
    if (src.startsWith("data:image/")) dataPictures.push({ src, alt });
    else if (!ownPicture(src)) droppedPictures++;
    if (!ownPicture(src)) image.remove();
  }

  // Everything else unwrapped to its text (spans, fonts, o:p, divs, sections), every attribute
  // but a link's address and a picture's gone.
  for (const element of [...root.querySelectorAll("*")].reverse()) {
    const tag = element.tagName.toLowerCase();
    if (!KEEP.has(tag)) {
      if (tag === "div" || tag === "section" || tag === "article") {
        // A block of its own: keep the break between it and what follows.
        const hasBlocks = element.querySelector("p, h1, h2, h3, h4, h5, h6, ul, ol, table, blockquote, pre");
        if (!hasBlocks && element.textContent?.trim()) {
          const p = doc.createElement("p");
          p.append(...element.childNodes);
          element.replaceWith(p);
          continue;
        }
      }
      element.replaceWith(...element.childNodes);
      continue;
    }
    for (const name of element.getAttributeNames()) {
      const keep =
        (tag === "a" && name === "href") ||
        (tag === "img" && (name === "src" || name === "alt")) ||
        ((tag === "td" || tag === "th") && (name === "colspan" || name === "rowspan"));
      if (!keep) element.removeAttribute(name);
    }
    if (tag === "a") {
      const href = element.getAttribute("href") ?? "";
      // Word's own anchors (bookmarks, comment links) and scripts are not links.
      if (!/^(https?:|mailto:|\/(?!\/))/i.test(href)) element.replaceWith(...element.childNodes);
    }
  }

  shiftHeadings(doc, root);
  headerRows(doc, root);
  // Line breaks between blocks (Google Docs puts one after a list) or ending a block are not lines.
  for (const br of [...root.querySelectorAll("br")]) {
    const parent = br.parentElement;
    const inBlock =
      parent && parent !== root && /^(p|li|td|th|h[1-6]|blockquote|pre|strong|b|em|i|a|code)$/i.test(parent.tagName);
    if (!inBlock || !br.nextSibling) br.remove();
  }
  // Paragraphs left empty by what was taken out.
  for (const p of [...root.querySelectorAll("p")])
    if (!p.textContent?.replace(/\u00a0/g, " ").trim() && !p.querySelector("img, br")) p.remove();
  return { html: root.innerHTML, dataPictures, droppedPictures };
}

/** Whether plain pasted text reads as Markdown (a heading, a list, a table, emphasis, a link). */
export function looksLikeMarkdown(text: string): boolean {
  return (
    /^#{1,6} \S/m.test(text) ||
    /^\s*([-*+]|\d+\.) \S/m.test(text) ||
    /^\|.*\|\s*$\n^\|?\s*:?-{3,}/m.test(text) ||
    /\*\*[^*\n]+\*\*/.test(text) ||
    /\[[^\]\n]+\]\([^)\s]+\)/.test(text) ||
    /^> \S/m.test(text) ||
    /^```/m.test(text)
  );
}

/**
 * A data: URL's picture as a file, decoded here (fetch would need the page's connect-src to allow
 * data:, which it does not); undefined when it is not a base64 picture.
 */
export function dataUrlFile(src: string, name: string): File | undefined {
  const match = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=\s]+)$/i.exec(src);
  if (!match) return undefined;
  const type = match[1]!.toLowerCase();
  let binary: string;
  try {
    binary = atob(match[2]!.replace(/\s+/g, ""));
  } catch {
    return undefined;
  }
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  const extension =
    type
      .split("/")[1]!
      .replace(/[^a-z0-9]/g, "")
      .replace("jpeg", "jpg") || "png";
  return new File([bytes], `${name}.${extension}`, { type });
}
