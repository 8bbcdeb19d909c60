import type { Page, Response } from "@playwright/test";
import sharp from "sharp";
import { MEDIA_VARIANT_FORMATS, mediaVariantPath, variantWidths } from "#shared/media.ts";
import { cameraPhoto, FIXTURE_CAMERA, readExif, redQuarter } from "../test/media-fixtures.ts";
import { expect, test } from "./fixtures.ts";
import { photograph } from "./page-checks.ts";
import { adminOrigin } from "./staff-sessions.ts";
import {
  bodyField,
  editorForm,
  editorReady,
  expectPublicStatus,
  fillArticle,
  markdownBody,
  publishable,
  uniqueTitle,
  uniqueWord,
  visitorContext,
} from "./studio-helpers.ts";

// A photo's journey from a phone to a visitor (issue 23's first test; docs/decisions/040 and 041):
// an admin uploads a camera's JPEG that carries GPS, the camera's make and model, XMP and an
// orientation tag (stored sideways); describes it; makes it an article's cover and puts it in the
// body; publishes. A visitor on a phone and on a desktop (DPR 1 and 2) gets a width no larger than
// the place needs, drawn upright, and not one byte the site serves of that picture (what the page
// loaded, every width in every format, and the kept original) carries EXIF, XMP, GPS or the camera.

/** The stored picture: 2400 × 1800 pixels on its side (4.3 megapixels), 1800 × 2400 upright. */
const STORED = { width: 2400, height: 1800 };
const UPRIGHT = { width: STORED.height, height: STORED.width };

/** Byte strings a picture keeps only with its metadata: EXIF (JPEG's APP1, WebP's chunk, AVIF's item), XMP, the camera. */
const METADATA_MARKS = [
  "Exif\0\0",
  "Exif",
  "EXIF",
  "XMP ",
  "x:xmpmeta",
  "ns.adobe.com",
  FIXTURE_CAMERA.make,
  FIXTURE_CAMERA.model,
];

/** What betrays a picture's metadata: sharp's reading of it, and the marks in its raw bytes. Empty for a clean file. */
async function metadataFound(bytes: Buffer): Promise<string[]> {
  const found = METADATA_MARKS.filter((mark) => bytes.includes(Buffer.from(mark, "latin1"))).map(
    (mark) => `bytes contain ${JSON.stringify(mark)}`,
  );
  const metadata = await sharp(bytes).metadata();
  if (metadata.exif) found.push(`sharp reads ${metadata.exif.length} bytes of EXIF`);
  if (metadata.xmp) found.push(`sharp reads ${metadata.xmp.length} bytes of XMP`);
  if (metadata.orientation !== undefined && metadata.orientation !== 1)
    found.push(`orientation ${metadata.orientation}`);
  const exif = readExif(bytes);
  if (exif.hasExif) found.push(`an EXIF segment${exif.hasGps ? " with GPS" : ""}`);
  return found;
}

/** The variant a picture's currentSrc names: /media/<key>/<width>.<ext>. */
const VARIANT = /^\/media\/([0-9a-f]{16})\/([0-9]+)\.(avif|webp|jpg)$/;

type Shown = {
  alt: string;
  currentSrc: string;
  naturalWidth: number;
  naturalHeight: number;
  drawnWidth: number;
  complete: boolean;
};

/** The article's pictures of this library key, in page order (the cover, then the body's). */
async function picturesOf(page: Page, key: string): Promise<Shown[]> {
  return page.locator(`main img[srcset*="/media/${key}/"]`).evaluateAll((images: HTMLImageElement[]) =>
    images.map((img) => ({
      alt: img.alt,
      currentSrc: img.currentSrc ? new URL(img.currentSrc).pathname : "",
      naturalWidth: img.naturalWidth,
      naturalHeight: img.naturalHeight,
      drawnWidth: img.getBoundingClientRect().width,
      complete: img.complete && img.naturalWidth > 0,
    })),
  );
}

const screens = [
  // The widest variant each screen may load: the brief's bounds (375 px at DPR 1: 640 at most).
  { viewport: { width: 375, height: 667 }, deviceScaleFactor: 1, atMost: 640 },
  { viewport: { width: 375, height: 667 }, deviceScaleFactor: 2, atMost: 960 },
  { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, atMost: 1280 },
  { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2, atMost: 1600 },
];

test.describe("a photo's journey", () => {
  test.describe.configure({ timeout: 180_000 });
  test.beforeEach(({ pageGuard }) => {
    pageGuard.allow(/request to another origin: http:\/\/localhost:/);
  });

  test("a phone's photo with GPS, its camera and orientation 6 is uploaded, described, made an article's cover and body picture, published; visitors at 375 and 1280 px get a small upright variant, and no byte served of it carries EXIF, XMP or GPS", async ({
    page,
    browser,
    pageGuard,
    signIn,
  }, testInfo) => {
    // 1. The camera's photo, different bytes on each run (so a new picture of the library).
    const photo = await cameraPhoto({ ...STORED, seed: Date.now() % 2_000_000_000 });
    await test.step("the fixture really carries GPS, the camera, XMP and orientation 6", async () => {
      const metadata = await sharp(photo).metadata();
      expect(metadata).toMatchObject({ format: "jpeg", ...STORED, orientation: 6 });
      expect(metadata.exif?.length, "EXIF read by sharp").toBeGreaterThan(0);
      expect(metadata.xmp?.toString("latin1"), "XMP read by sharp").toContain("GPSLatitude");
      expect(readExif(photo)).toMatchObject({ hasExif: true, hasGps: true, orientation: 6, make: FIXTURE_CAMERA.make });
      expect(readExif(photo).gpsEntries, "GPS entries: latitude and longitude with their references").toBe(4);
      expect(photo.includes(Buffer.from("Exif\0\0", "latin1"))).toBe(true);
      expect(photo.includes(Buffer.from(FIXTURE_CAMERA.make, "latin1"))).toBe(true);
      expect(await metadataFound(photo)).not.toEqual([]);
      // On its side: the red quarter is at the top left of the stored pixels (top right upright).
      expect(await redQuarter(photo)).toBe("top-left");
      expect(photo.length, "a few megapixels of a camera's JPEG").toBeGreaterThan(400_000);
    });

    await signIn(page, "admin");
    const fileName = `substation-survey-${uniqueWord()}.jpg`;
    const libraryAlt = "A red marker on the control building's roof, seen from the switchyard";

    // 2. Uploaded on the library's page with the file chooser, then described on its own page.
    const reference =
      await test.step("upload on /admin/media with the file chooser; alt text on its page", async () => {
        await page.goto(`${adminOrigin}/admin/media`);
        await page.locator("[data-media-uploader][data-media-uploader-ready=true]").waitFor();
        const chooser = page.waitForEvent("filechooser");
        await page.getByLabel("Picture", { exact: true }).click();
        await (await chooser).setFiles({ name: fileName, mimeType: "image/jpeg", buffer: photo });
        await page.getByRole("button", { name: "Upload", exact: true }).click();
        const line = page.locator("[data-media-progress] > li");
        await expect(line).toHaveCount(1);
        await expect(line).toContainText(`“${fileName}” is in the library.`, { timeout: 30_000 });
        await line.getByRole("link", { name: "Write its alt text" }).click();
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(fileName);
        await expect(page.getByText("Needs alt text")).toBeVisible();
        // Upright in the library: the photo's 1800 × 2400 shape.
        await expect(page.getByText(`${UPRIGHT.width} × ${UPRIGHT.height} pixels, JPEG`)).toBeVisible();
        await page.getByLabel("Alt text", { exact: true }).fill(libraryAlt);
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByRole("status")).toHaveText("The alt text was saved.");
        await expect(page.getByText(`Alt text: ${libraryAlt}`)).toBeVisible();
        // The address content names it by, as the library shows it.
        const address = page.getByRole("link", { name: /^\/media\/[0-9a-f]{16}\/original\.jpg$/ });
        return (await address.textContent())!.trim();
      });
    const key = /^\/media\/([0-9a-f]{16})\//.exec(reference)![1]!;

    // 3. A new article: the photo as its cover (with its alt text) and in its body, published.
    const { title, slug } = uniqueTitle("Surveying a 220 kV switchyard");
    const bodyAlt = "The control building with the red marker, from the north gate";
    await test.step("the studio: cover chosen, the picture typed into the body, published", async () => {
      await page.goto(`${adminOrigin}/admin/articles`);
      await page.getByRole("link", { name: "New article" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("New article");
      await editorReady(page);
      await fillArticle(page, { ...publishable(title), cover: false, body: undefined, imageAlt: libraryAlt });
      const form = editorForm(page);
      await form.getByLabel("Cover image", { exact: true }).selectOption({ label: libraryAlt });
      await expect(form.getByLabel("Cover image", { exact: true })).toHaveValue(reference);
      await expect(form.locator("img[data-studio-cover]")).toHaveAttribute("src", new RegExp(`^/media/${key}/`));

      // The body as a person writes it, with the picture's address the library showed, in Markdown.
      await (await markdownBody(page)).click();
      await page.keyboard.type("We walked the switchyard before the study began.");
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      await page.keyboard.type(`![${bodyAlt}](${reference})`);
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      await page.keyboard.type("The earthing grid was measured the next day.");
      await expect(bodyField(page)).toHaveValue(
        `We walked the switchyard before the study began.\n\n![${bodyAlt}](${reference})\n\nThe earthing grid was measured the next day.`,
      );
      // The live preview draws the library picture.
      const preview = page.getByRole("region", { name: "Preview of the body" });
      await expect(preview.getByRole("img", { name: bodyAlt })).toHaveAttribute(
        "srcset",
        new RegExp(`^/media/${key}/`),
      );

      await page.getByRole("button", { name: "Save draft" }).click();
      await page.waitForURL(/\/admin\/articles\/[0-9a-f-]{36}\?notice=article-created$/);
      await editorReady(page);
      await expect(page.locator("[data-studio-checklist]")).toContainText("Nothing is missing.");
      await page.getByRole("button", { name: "Publish", exact: true }).click();
      await page.waitForURL(/\/admin\/articles\/[0-9a-f-]{36}\?notice=article-published$/);
      await expect(page.locator("[data-studio-public-state]")).toContainText(`On the site at /blog/${slug}`);
    });

    // 4. Visitors, no session, on a phone and a desktop at DPR 1 and 2; each in a new browser
    // context, so nothing is reused from another screen's cache.
    const ladder = variantWidths(UPRIGHT.width);
    for (const screen of screens) {
      const name = `${screen.viewport.width}px-dpr${screen.deviceScaleFactor}`;
      await test.step(`a visitor at ${screen.viewport.width} px, DPR ${screen.deviceScaleFactor}`, async () => {
        const visitor = await visitorContext(browser, {
          viewport: screen.viewport,
          deviceScaleFactor: screen.deviceScaleFactor,
        });
        try {
          await expectPublicStatus(visitor, `/blog/${slug}`, 200);
          const reader = await visitor.newPage();
          pageGuard.watch(reader);
          const received: { url: string; body: Promise<Buffer> }[] = [];
          reader.on("response", (response: Response) => {
            if (response.request().resourceType() === "image")
              received.push({ url: new URL(response.url()).pathname, body: response.body() });
          });
          await reader.goto(`/blog/${slug}`);
          await expect(reader.getByRole("heading", { level: 1 })).toHaveText(title);
          const body = reader.getByRole("article", { name: title, exact: true }).getByRole("img", { name: bodyAlt });
          await body.scrollIntoViewIfNeeded();
          await expect
            .poll(async () => (await picturesOf(reader, key)).map((picture) => picture.complete), {
              message: "the cover and the body's picture have loaded",
            })
            .toEqual([true, true]);
          await reader.evaluate(() => window.scrollTo(0, 0));
          await reader.waitForLoadState("networkidle");

          const [cover, inBody] = await picturesOf(reader, key);
          expect(cover!.alt, "the cover's alt text").toBe(libraryAlt);
          expect(inBody!.alt, "the body picture's alt text").toBe(bodyAlt);
          for (const [where, picture] of [
            ["cover", cover!],
            ["body picture", inBody!],
          ] as const) {
            const chosen = VARIANT.exec(picture.currentSrc);
            expect(chosen, `the ${where} shows a variant: ${picture.currentSrc}`).not.toBeNull();
            expect(chosen![1], `the ${where}'s key`).toBe(key);
            // Chromium takes the first format it can show: AVIF.
            expect(chosen![3], `the ${where}'s format`).toBe("avif");
            const width = Number(chosen![2]);
            // No wider than the narrowest width of the ladder that fills its place at this DPR.
            const needed = picture.drawnWidth * screen.deviceScaleFactor;
            const enough = ladder.find((step) => step >= needed) ?? ladder.at(-1)!;
            expect(width, `the ${where} at ${name} (drawn ${picture.drawnWidth} px)`).toBeLessThanOrEqual(enough);
            expect(width, `the ${where} at ${name}`).toBeLessThanOrEqual(screen.atMost);
            // Upright: the portrait photo is higher than wide (natural sizes are in CSS pixels,
            // the variant's width over its density in the srcset).
            expect(picture.naturalHeight, `the ${where} is upright`).toBeGreaterThan(picture.naturalWidth);
          }

          // Every picture the page received: no metadata; this photo's variants upright in their pixels.
          const files = await Promise.all(received.map(async ({ url, body }) => ({ url, bytes: await body })));
          const ours = files.filter((file) => file.url.startsWith(`/media/${key}/`));
          expect(ours.map((file) => file.url)).toContain(cover!.currentSrc);
          for (const file of files) {
            expect(await metadataFound(file.bytes), `${file.url} at ${name}`).toEqual([]);
            if (file.url.startsWith("/media/")) expect(file.url, "a variant, not an original").toMatch(VARIANT);
          }
          for (const file of ours) {
            // Its pixels upright: as wide as its address says, higher than wide, red at the top right.
            const metadata = await sharp(file.bytes).metadata();
            expect(metadata.width, file.url).toBe(Number(VARIANT.exec(file.url)![2]));
            expect(metadata.height!, `${file.url} is upright`).toBeGreaterThan(metadata.width!);
            expect(await redQuarter(file.bytes), `${file.url}: red at the top right`).toBe("top-right");
          }
          const summary = `${name}: cover ${cover!.currentSrc}, body ${inBody!.currentSrc}; the page received ${files
            .map((file) => `${file.url} (${file.bytes.length} bytes)`)
            .join(", ")}`;
          testInfo.annotations.push({ type: "pictures", description: summary });
          console.log(summary);

          // 5. What the visitor sees, for a person to look at (with SCREENSHOTS=1).
          await photograph(reader, `photo-journey-article-${name}`);
        } finally {
          await visitor.close();
        }
      });
    }

    await test.step("every width in every format, and the kept original, fetched directly: no metadata, upright", async () => {
      const visitor = await visitorContext(browser);
      try {
        const addresses = [
          ...ladder.flatMap((width) => MEDIA_VARIANT_FORMATS.map((format) => mediaVariantPath(key, width, format))),
          reference,
        ];
        expect(addresses).toHaveLength(ladder.length * 3 + 1);
        for (const address of addresses) {
          const response = await visitor.request.get(address);
          expect(response.status(), address).toBe(200);
          expect(response.headers()["cache-control"], address).toBe("public, max-age=31536000, immutable");
          const bytes = await response.body();
          expect(await metadataFound(bytes), address).toEqual([]);
          const metadata = await sharp(bytes).metadata();
          const width = address === reference ? UPRIGHT.width : Number(VARIANT.exec(address)![2]);
          expect(metadata.width, address).toBe(width);
          // Upright, its shape kept (sharp rounds the height either way).
          const height = (width * UPRIGHT.height) / UPRIGHT.width;
          expect(Math.abs(metadata.height! - height), `${address} is upright, ${metadata.height} high`).toBeLessThan(1);
          expect(await redQuarter(bytes), `${address}: red at the top right`).toBe("top-right");
        }
      } finally {
        await visitor.close();
      }
    });
  });
});
