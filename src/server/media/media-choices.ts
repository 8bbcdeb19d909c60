import type { Database } from "../db/client.ts";
import { siteImages } from "../admin/studio/site-images.ts";

// The pictures an editor may choose (an article's cover, a project's image, a member's photo):
// every picture of the media library, by the reference content stores
// (src/shared/media.ts, mediaReference), with what the chooser shows of it.
// PLACEHOLDER until the media library lands: the files under public/images.

export type MediaChoice = {
  /** What the document stores: /media/<key>/original.<ext> (or a public/images path the library knows). */
  url: string;
  /** The file name, for the chooser. */
  label: string;
  /** A small variant to show in the chooser; null when there is none. */
  thumbnail: string | null;
  /** The library's alt text; "" when unwritten or decorative. */
  alt: string;
  decorative: boolean;
};

export async function mediaChoices(db: Database): Promise<MediaChoice[]> {
  void db;
  return (await siteImages()).map((image) => ({
    url: image.url,
    label: image.label,
    thumbnail: image.url,
    alt: "",
    decorative: false,
  }));
}
