import sharp from "sharp";

// The photos the bench uploads to the media library (docs/performance.md, "Media library"), and
// the tests too where a photo's size matters.

/**
 * A photo-like JPEG of about `megapixels` (4:3; smooth gradients and grain, so it compresses and
 * decodes as a camera's photo does, not as a flat colour). `seed` makes different photos.
 */
export async function syntheticPhoto(megapixels: number, seed = 1): Promise<Buffer> {
  const width = Math.round(Math.sqrt((megapixels * 1_000_000 * 4) / 3));
  const height = Math.round((width * 3) / 4);
  const raw = Buffer.alloc(width * height * 3);
  let state = seed >>> 0 || 1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      state = (state * 1103515245 + 12345) >>> 0;
      const grain = (state >>> 24) % 24;
      raw[at] = ((x * 255) / width + grain + seed) & 255;
      raw[at + 1] = ((y * 255) / height + Math.sin(x / 50) * 40 + grain) & 255;
      raw[at + 2] = (128 + Math.cos(y / 70) * 60 + grain) & 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}
