import { renderAsync } from "@resvg/resvg-js";
import sharp from "sharp";
import { CARD_WIDTH, type LinkCard } from "#shared/link-card.ts";
import { cardSvgOffThread } from "../content/render-pool.ts";

// Draws a link-preview card (docs/decisions/053-link-preview-cards.md): satori lays it out as SVG
// in the renderer's worker (card-layout.ts), resvg rasterises it and sharp encodes the JPEG
// LinkedIn and WhatsApp take (not WebP), both on libuv's pool: nothing of it holds the event loop.

/**
 * The card as a JPEG of CARD_WIDTH × CARD_HEIGHT. `photo` is the author's picture (any format sharp
 * reads), drawn as a circle. The caller bounds how many are drawn at once (card-maker.ts).
 */
export async function drawCard(card: LinkCard, photo?: Buffer): Promise<Buffer> {
  const photoUrl = photo
    ? `data:image/jpeg;base64,${(
        await sharp(photo, { failOn: "error", limitInputPixels: 40_000_000 })
          .resize(168, 168, { fit: "cover" })
          .jpeg({ quality: 85 })
          .toBuffer()
      ).toString("base64")}`
    : undefined;
  const svg = await cardSvgOffThread(card, photoUrl);
  const image = await renderAsync(svg, { fitTo: { mode: "width", value: CARD_WIDTH } });
  // The raw pixels to sharp: resvg's own PNG encoder (asPng) would run on the event loop.
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 4 } })
    .flatten({ background: "#0b2545" })
    .jpeg({ quality: 86, mozjpeg: true, chromaSubsampling: "4:4:4" })
    .toBuffer();
}
