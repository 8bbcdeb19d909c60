import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// Every content picture of the public pages is a media library picture drawn responsively
// (docs/decisions/041-responsive-images.md): srcset, sizes, width and height on its <img>, AVIF and
// WebP sources beside it, the browser's pick a /media/ width no larger than the place needs, the
// largest picture above the fold fetched first and every other lazily, and nothing visibly shifts
// as they load. The seeded site's pictures are library pictures (brought in from public/images). The
// design's illustrations (the home page's hero, the contact page's map) are not content.

const DESIGN_PICTURES = ["/images/hero-substation.svg", "/images/office-map.svg"];
const VARIANT = /^\/media\/[0-9a-f]{16}\/([0-9]+)\.(avif|webp|jpg)$/;

type Drawn = {
  src: string;
  srcset: string | null;
  sizes: string | null;
  width: string | null;
  height: string | null;
  loading: string | null;
  decoding: string | null;
  fetchpriority: string | null;
  /** The picture element around it and its sources' type, srcset and sizes. */
  inPicture: boolean;
  /** How far the <picture>'s box is from the <img>'s, side by side (0: it wraps the image exactly). */
  pictureBoxOffset: number;
  sources: { type: string | null; srcset: string | null; sizes: string | null }[];
  top: number;
  /** Drawn width, and the width its `sizes` says for this window (CSS px). */
  drawnWidth: number;
  slotWidth: number;
  area: number;
  currentSrc: string;
  complete: boolean;
};

/** Every content picture of the page (in <main>, not an illustration of the design), as drawn now. */
async function contentPictures(page: Page): Promise<Drawn[]> {
  return page.evaluate((design) => {
    const probe = document.createElement("div");
    probe.style.position = "absolute";
    probe.style.visibility = "hidden";
    document.body.append(probe);
    /** The width a `sizes` attribute gives in this window: its first matching condition's length. */
    const slot = (sizes: string) => {
      for (const part of sizes.split(/,\s*(?![^()]*\))/)) {
        const conditional = /^(\([^)]*\))\s+(.+)$/.exec(part.trim());
        if (!conditional || matchMedia(conditional[1]!).matches) {
          probe.style.width = conditional ? conditional[2]! : part.trim();
          return probe.getBoundingClientRect().width;
        }
      }
      return Number.NaN;
    };
    const pictures = [...document.querySelectorAll<HTMLImageElement>("main img")]
      .filter((img) => !design.includes(new URL(img.src, location.href).pathname))
      .map((img) => {
        const box = img.getBoundingClientRect();
        const picture = img.parentElement?.tagName === "PICTURE" ? img.parentElement : null;
        return {
          src: new URL(img.src, location.href).pathname,
          srcset: img.getAttribute("srcset"),
          sizes: img.getAttribute("sizes"),
          width: img.getAttribute("width"),
          height: img.getAttribute("height"),
          loading: img.getAttribute("loading"),
          decoding: img.getAttribute("decoding"),
          fetchpriority: img.getAttribute("fetchpriority"),
          inPicture: Boolean(picture),
          pictureBoxOffset: (() => {
            const around = picture?.getBoundingClientRect();
            if (!around) return Number.NaN;
            return Math.max(
              ...(["top", "left", "width", "height"] as const).map((side) => Math.abs(around[side] - box[side])),
            );
          })(),
          sources: [...(picture?.querySelectorAll("source") ?? [])].map((source) => ({
            type: source.getAttribute("type"),
            srcset: source.getAttribute("srcset"),
            sizes: source.getAttribute("sizes"),
          })),
          top: box.top + scrollY,
          drawnWidth: box.width,
          slotWidth: img.getAttribute("sizes") ? slot(img.getAttribute("sizes")!) : Number.NaN,
          area: box.width * box.height,
          currentSrc: img.currentSrc ? new URL(img.currentSrc).pathname : "",
          complete: img.complete && img.naturalWidth > 0,
        };
      });
    probe.remove();
    return pictures;
  }, DESIGN_PICTURES);
}

/** Scrolls down the page half a window at a time, so every lazy picture loads, and back to the top. */
async function scrollThrough(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = await page.evaluate(() => Math.floor(innerHeight / 2));
  for (let y = 0; y <= height; y += step) {
    await page.evaluate((to) => window.scrollTo(0, to), y);
    await page.waitForTimeout(50);
  }
  await page.waitForFunction(
    (design) =>
      [...document.querySelectorAll<HTMLImageElement>("main img")]
        .filter((img) => !design.includes(new URL(img.src, location.href).pathname))
        .every((img) => img.complete && img.naturalWidth > 0),
    DESIGN_PICTURES,
  );
}

/** Layout shifts without input since the page started, as the CLS metric counts them. */
type Shift = { value: number; at: number; moved: string[] };

/**
 * Records every layout shift not caused by input: its score and what moved, from where to where
 * (window.layoutShifts), so a failure names the element.
 */
const watchLayoutShifts = (page: Page) =>
  page.addInitScript(() => {
    const record = window as unknown as { layoutShifts: Shift[] };
    record.layoutShifts = [];
    type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
    const rect = (box: DOMRectReadOnly) => `${box.x},${box.y} ${box.width}×${box.height}`;
    const describe = (source: Source) => {
      const node = source.node as Element | null | undefined;
      const name = node?.outerHTML?.slice(0, 120) ?? node?.nodeName ?? "(gone)";
      return `${name}: ${rect(source.previousRect)} → ${rect(source.currentRect)}`;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: Source[];
      })[])
        if (!entry.hadRecentInput)
          record.layoutShifts.push({
            value: entry.value,
            at: Math.round(entry.startTime),
            moved: (entry.sources ?? []).map(describe),
          });
    }).observe({ type: "layout-shift", buffered: true });
  });

/** The widths a srcset offers: "a 320w, b 480w" → [320, 480]. */
const offered = (srcset: string) => srcset.split(", ").map((entry) => Number.parseInt(entry.split(" ")[1]!, 10));

type Place = { name: string; path: (slugs: { article: string; project: string }) => string };
const places: Place[] = [
  { name: "the home page", path: () => "/" },
  { name: "the blog", path: () => "/blog" },
  { name: "an article", path: ({ article }) => `/blog/${article}` },
  { name: "the projects", path: () => "/projects" },
  { name: "a project", path: ({ project }) => `/projects/${project}` },
  { name: "the About page", path: () => "/about" },
];

for (const viewport of [
  { width: 375, height: 667 },
  { width: 768, height: 1024 },
  { width: 1280, height: 720 },
]) {
  test.describe(`content pictures at ${viewport.width} px`, () => {
    test.use({ viewport, deviceScaleFactor: 1 });

    for (const place of places) {
      test(`${place.name}: responsive, the right width, one picture first, the rest lazy, nothing visibly shifts`, async ({
        page,
        request,
      }) => {
        const [article] = (await (await request.get("/api/blog-posts")).json()) as { slug: string }[];
        const [project] = (await (await request.get("/api/projects")).json()) as { slug: string }[];
        await watchLayoutShifts(page);
        await page.goto(place.path({ article: article!.slug, project: project!.slug }));

        const drawn = await contentPictures(page);
        expect(drawn.length, "content pictures on the page").toBeGreaterThan(0);
        for (const picture of drawn) {
          const what = `${picture.src} on ${page.url()}`;
          // A library picture: its fallback src is one JPEG width, each format lists every width.
          expect(picture.src, what).toMatch(VARIANT);
          expect(picture.srcset, what).toMatch(/^\/media\/[0-9a-f]{16}\/[0-9]+\.jpg [0-9]+w(, .+)?$/);
          expect(picture.sizes, what).toBeTruthy();
          expect(Number(picture.width), what).toBeGreaterThan(0);
          expect(Number(picture.height), what).toBeGreaterThan(0);
          expect(picture.inPicture, what).toBe(true);
          // The <picture> is the image's box in the layout, nothing more (no gap, no extra grid item).
          expect(picture.pictureBoxOffset, `${what}: picture box against image box`).toBeLessThanOrEqual(0.5);
          expect(
            picture.sources.map((source) => source.type),
            what,
          ).toEqual(["image/avif", "image/webp"]);
          for (const source of picture.sources) {
            expect(source.sizes, what).toBe(picture.sizes);
            expect(offered(source.srcset!), what).toEqual(offered(picture.srcset!));
          }
          // `sizes` follows the layout: the width it states is the width the picture is drawn at
          // (within a card's 1 px borders).
          expect(Math.abs(picture.slotWidth - picture.drawnWidth), `${what}: sizes against layout`).toBeLessThanOrEqual(
            3,
          );
        }

        // The largest picture above the fold is fetched first and not lazily; all others lazily.
        const aboveTheFold = drawn.filter((picture) => picture.top < viewport.height);
        const first = drawn.filter((picture) => picture.fetchpriority === "high");
        if (aboveTheFold.length) {
          expect(first, "one high-priority picture").toHaveLength(1);
          const largest = [...aboveTheFold].sort((a, b) => b.area - a.area)[0]!;
          expect(aboveTheFold, "the high-priority picture is above the fold").toContainEqual(first[0]);
          // Cards of one row may differ by a fraction of a pixel.
          expect(first[0]!.area).toBeGreaterThanOrEqual(largest.area * 0.99);
        } else {
          // Below the fold on this screen: at most the page's first picture comes first.
          expect(first.length).toBeLessThanOrEqual(1);
          if (first.length) expect(first[0]).toEqual(drawn[0]);
        }
        for (const picture of drawn) {
          if (picture.fetchpriority === "high") expect(picture.loading, picture.src).toBeNull();
          else expect([picture.loading, picture.decoding], picture.src).toEqual(["lazy", "async"]);
        }

        await scrollThrough(page);
        const loaded = await contentPictures(page);
        for (const picture of loaded) {
          const what = `${picture.src} on ${page.url()}`;
          expect(picture.complete, what).toBe(true);
          const chosen = VARIANT.exec(picture.currentSrc);
          expect(chosen, `${what} shows ${picture.currentSrc}`).not.toBeNull();
          // No wider than the narrowest width that fills its place on this screen (DPR 1), unless
          // it is a file another place of the page already loaded (the browser reuses it: no bytes).
          const widths = offered(picture.srcset!);
          const enough = widths.find((width) => width >= picture.slotWidth) ?? widths.at(-1)!;
          const sharedWith = loaded.filter((other) => other !== picture && other.currentSrc === picture.currentSrc);
          const neededThere = sharedWith.some((other) => other.slotWidth > enough);
          if (!neededThere)
            expect(Number(chosen![1]), `${what}: chose ${picture.currentSrc}`).toBeLessThanOrEqual(enough);
        }
        if (place.name === "an article" && viewport.width === 375) {
          const cover = VARIANT.exec(loaded[0]!.currentSrc)!;
          expect(Number(cover[1]), "the cover at 375 px").toBeLessThanOrEqual(640);
        }

        // Nothing visibly moves: a picture without its place reserved scores 0.05 and more, and a
        // band of the screen moving 3 px about 0.002. CI once saw 0.00003 on a project page at
        // 768 px (a sub-pixel rounding no visitor sees), hence a bound, not 0; a failure names
        // what moved, from where to where.
        const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: Shift[] }).layoutShifts);
        const cumulative = shifts.reduce((sum, shift) => sum + shift.value, 0);
        expect(cumulative, `cumulative layout shift: ${JSON.stringify(shifts, null, 1)}`).toBeLessThan(0.001);
      });
    }
  });
}

test.describe("the bytes of pictures an article loads on a phone", () => {
  test.use({ viewport: { width: 375, height: 667 }, deviceScaleFactor: 2 });

  test("at 375 px, DPR 2: counted as loaded, then with every lazy picture scrolled into view", async ({
    page,
    request,
  }, testInfo) => {
    const [article] = (await (await request.get("/api/blog-posts")).json()) as { slug: string }[];
    // The bodies' bytes, and what crossed the wire (an SVG is sent compressed, a picture is not).
    let bytes = 0;
    let wire = 0;
    const files: string[] = [];
    page.on("response", async (response) => {
      if (response.request().resourceType() !== "image") return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      const sent = (await response.request().sizes()).responseBodySize;
      bytes += body.length;
      wire += sent;
      files.push(`${new URL(response.url()).pathname} ${body.length} (${sent} sent)`);
    });
    await page.goto(`/blog/${article!.slug}`, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    const onLoad = `${files.length} pictures, ${bytes} bytes (${wire} sent)`;
    await scrollThrough(page);
    await page.waitForLoadState("networkidle");
    const summary = `article /blog/${article!.slug} at 375 px DPR 2: ${onLoad} on load; ${files.length} pictures, ${bytes} bytes (${wire} sent) after scrolling through`;
    testInfo.annotations.push({ type: "image bytes", description: summary });
    console.log(`${summary}\n  ${files.join("\n  ")}`);
    // Every picture the article loads is a width of the library, not a whole original.
    for (const file of files.filter((entry) => entry.startsWith("/media/")))
      expect(file.split(" ")[0]).toMatch(VARIANT);
    expect(bytes).toBeGreaterThan(0);
  });
});
