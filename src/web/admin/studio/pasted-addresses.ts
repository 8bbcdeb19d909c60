// Addresses pasted into the Body. A browser copies a picture of the site by its absolute address
// (https://<site>/media/<key>/640.webp); the pages draw only the library's pictures named by a
// path of the site, and dropped such an image without a word. Here, the site's own picture
// addresses become the reference content stores (/media/<key>/original.<ext>: the key decides, see
// src/server/content/media-index.ts), and a picture's address on another site is named as one
// the pages will not show. Pure functions, tested without a browser.

const IMAGE_EXTENSION = /\.(?:jpe?g|png|webp|avif|gif|svg)(?:[?#]\S*)?$/i;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A pasted text with the site's own picture addresses made relative; `changed` counts them. */
export function ownPictureAddresses(text: string, origin: string): { text: string; changed: number } {
  const own = new RegExp(
    `${escapeRegExp(origin)}/media/([0-9a-f]{16})/(?:original|\\d{2,5})\\.(jpg|png|webp|avif)(?:\\?[^\\s)"'<>]*)?(?:#[^\\s)"'<>]*)?`,
    "g",
  );
  let changed = 0;
  let result = text.replace(own, (_match, key: string, extension: string) => {
    changed += 1;
    return `/media/${key}/original.${extension}`;
  });
  // A bare address pasted alone is made a picture: its alt text is then the library's.
  if (changed === 1 && /^\/media\/[0-9a-f]{16}\/original\.[a-z]+$/.test(result.trim()))
    result = `![](${result.trim()})`;
  return { text: result, changed };
}

/** Whether the pasted text is only the address of a picture on another site (the pages would not show it). */
export function isForeignPictureAddress(text: string, origin: string): boolean {
  const trimmed = text.trim();
  if (!/^https?:\/\/\S+$/i.test(trimmed) || !IMAGE_EXTENSION.test(trimmed)) return false;
  try {
    return new URL(trimmed).origin !== origin;
  } catch {
    return false;
  }
}
