import { readFile } from "node:fs/promises";
import path from "node:path";
import satori, { type Font } from "satori";
import { CARD_HEIGHT, CARD_WIDTH, type LinkCard } from "#shared/link-card.ts";
import { site } from "#shared/site.ts";
import { projectRoot } from "../project-root.ts";

// A link-preview card laid out as SVG by satori (docs/decisions/053-link-preview-cards.md): run in
// the renderer's worker thread (content/render-worker.ts), as satori's layout is synchronous work
// (tens of ms a card, about a second for a process's first, which parses the fonts). The font is
// Inter (SIL OFL 1.1), committed in assets/fonts: nothing is read from another host.

/** The site's palette (src/web/styles.css) and its mark (public/favicon.svg). */
const navy = "#0b2545";
const navyDeep = "#06162b";
const navyLight = "#13315c";
const amber = "#f59e0b";
const sky = "#8da9c4";
const paper = "#f8fafc";

const MARK_SVG = (size: number) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${navyLight}"/><path d="M36 8 16 36h14l-4 20 22-30H34z" fill="${amber}"/></svg>`,
  ).toString("base64")}`;
const BOLT_SVG = `data:image/svg+xml;base64,${Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="560" viewBox="14 6 36 52"><path d="M36 8 16 36h14l-4 20 22-30H34z" fill="${amber}"/></svg>`,
).toString("base64")}`;

// Two names: satori takes one font per name and weight, and falls back to the other names for a
// glyph the first lacks (the Latin subset has no ₹, no ā; the extended one has them).
const FONT_FILES: { name: string; file: string; weight: 400 | 700 }[] = [
  { name: "Inter", file: "inter-latin-400-normal.woff", weight: 400 },
  { name: "Inter", file: "inter-latin-700-normal.woff", weight: 700 },
  { name: "Inter Extended", file: "inter-latin-ext-400-normal.woff", weight: 400 },
  { name: "Inter Extended", file: "inter-latin-ext-700-normal.woff", weight: 700 },
];

let fonts: Promise<Font[]> | undefined;

/** The fonts, read from the project once per process. */
function loadFonts(): Promise<Font[]> {
  fonts ??= Promise.all(
    FONT_FILES.map(async ({ name, file, weight }) => ({
      name,
      data: await readFile(path.join(projectRoot, "assets", "fonts", file)),
      weight,
      style: "normal" as const,
    })),
  );
  return fonts;
}

type Style = Record<string, string | number>;
type Node = { type: string; props: { style?: Style; children?: unknown; [key: string]: unknown } };

/** A satori element: the same shape React.createElement makes, without React on the server's path. */
const h = (type: string, style: Style, children?: unknown, props: Record<string, unknown> = {}): Node => ({
  type,
  props: { style, children, ...props },
});

/** Larger words for a short title, smaller for a long one, so most fit in three lines. */
function titleSize(title: string): number {
  if (title.length <= 36) return 76;
  if (title.length <= 70) return 64;
  return 54;
}

function byline(card: LinkCard, photo: string | undefined): Node | undefined {
  if (card.author) {
    return h("div", { display: "flex", alignItems: "center" }, [
      photo
        ? h(
            "img",
            { width: 84, height: 84, borderRadius: 42, border: `3px solid ${amber}`, marginRight: 22 },
            undefined,
            {
              src: photo,
              width: 84,
              height: 84,
            },
          )
        : h(
            "div",
            {
              width: 84,
              height: 84,
              borderRadius: 42,
              backgroundColor: navyLight,
              color: amber,
              fontSize: 36,
              fontWeight: 700,
              display: "flex",
              alignItems: "center",
              justifyContent: "center",
              marginRight: 22,
            },
            initials(card.author.name),
          ),
      h("div", { display: "flex", flexDirection: "column" }, [
        h("div", { fontSize: 22, color: sky }, "Written by"),
        h("div", { fontSize: 30, fontWeight: 700, color: paper }, card.author.name),
      ]),
    ]);
  }
  if (card.capacity) {
    return h("div", { display: "flex", alignItems: "center" }, [
      h(
        "div",
        {
          display: "flex",
          fontSize: 34,
          fontWeight: 700,
          color: navyDeep,
          backgroundColor: amber,
          borderRadius: 12,
          padding: "10px 24px",
        },
        card.capacity,
      ),
      h("div", { fontSize: 24, color: sky, marginLeft: 20 }, "capacity"),
    ]);
  }
  return undefined;
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join("");
}

/** The card as satori's element tree. */
export function cardTree(card: LinkCard, photo?: string): Node {
  const bottom = byline(card, photo);
  return h(
    "div",
    {
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
      display: "flex",
      flexDirection: "column",
      backgroundColor: navy,
      backgroundImage: `linear-gradient(135deg, ${navy} 0%, ${navy} 55%, ${navyDeep} 100%)`,
      fontFamily: "Inter, Inter Extended",
      color: paper,
      position: "relative",
    },
    [
      // The mark's bolt, large and faint behind the words: the brand without a picture to fetch.
      h("img", { position: "absolute", right: 40, top: 40, opacity: 0.09 }, undefined, {
        src: BOLT_SVG,
        width: 420,
        height: 560,
      }),
      h("div", { display: "flex", width: CARD_WIDTH, height: 12, backgroundColor: amber }),
      h("div", { display: "flex", flexDirection: "column", flexGrow: 1, padding: "44px 72px 48px 72px" }, [
        h("div", { display: "flex", alignItems: "center" }, [
          h("img", { marginRight: 20 }, undefined, { src: MARK_SVG(60), width: 60, height: 60 }),
          h("div", { fontSize: 30, fontWeight: 700, color: paper, letterSpacing: -0.3 }, site.name),
        ]),
        h("div", { display: "flex", flexDirection: "column", flexGrow: 1, justifyContent: "center" }, [
          h(
            "div",
            {
              fontSize: 26,
              fontWeight: 700,
              color: amber,
              textTransform: "uppercase",
              letterSpacing: 2,
              marginBottom: 18,
              display: "block",
              lineClamp: 1,
            },
            card.label,
          ),
          h(
            "div",
            {
              fontSize: titleSize(card.title),
              fontWeight: 700,
              lineHeight: 1.12,
              letterSpacing: -1,
              color: "#ffffff",
              maxWidth: 1000,
              display: "block",
              lineClamp: 3,
            },
            card.title,
          ),
        ]),
        h("div", { display: "flex", alignItems: "center", justifyContent: "space-between", minHeight: 90 }, [
          bottom ?? h("div", { display: "flex" }),
          h("div", { fontSize: 22, color: sky }, `${site.tagline} · Ahmedabad`),
        ]),
      ]),
    ],
  );
}

/** The card as SVG, its words as paths; `photo` is the author's picture as a data: URL. */
export async function cardSvg(card: LinkCard, photo?: string): Promise<string> {
  return satori(cardTree(card, photo) as Parameters<typeof satori>[0], {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: await loadFonts(),
  });
}
