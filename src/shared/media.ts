// The media library's addresses and limits, shared by the server, the public pages and the back
// office. Free of imports so that any bundle may take it. docs/decisions/040-the-media-library.md
// says how pictures are kept and served.

/** The widths every picture is served at (never wider than its kept original). */
export const MEDIA_WIDTHS = [320, 480, 640, 960, 1280, 1600] as const;

/** The formats of each width, best first: a browser takes the first it can show. */
export const MEDIA_VARIANT_FORMATS = ["avif", "webp", "jpeg"] as const;
export type MediaVariantFormat = (typeof MEDIA_VARIANT_FORMATS)[number];

/** What an upload may be: a file of at most 20 MB whose header declares at most 40 megapixels. */
export const MEDIA_LIMITS = {
  bytes: 20 * 1024 * 1024,
  pixels: 40_000_000,
  /**
   * The longest side: WebP's own limit (16,383), so that every variant can be made. Pictures of an
   * extreme shape passed the pixel rule and held a processing slot for a minute, or took a gigabyte.
   */
  side: 16_383,
  /** The most one side may be to the other: a panorama or a banner fits, a line of pixels does not. */
  aspect: 20,
} as const;

/** The formats an upload may be, recognised from its bytes. */
export const MEDIA_UPLOAD_FORMATS = ["jpeg", "png", "webp", "avif"] as const;
export type MediaFormat = (typeof MEDIA_UPLOAD_FORMATS)[number];

/** A picture's key: the first 16 hex digits of the SHA-256 of its kept original. */
export const MEDIA_KEY_PATTERN = /^[0-9a-f]{16}$/;

/**
 * How content names a library picture: the address of its kept original,
 * /media/<key>/original.<jpg|png|webp|avif>. The public pages turn it into a responsive picture.
 */
export const MEDIA_REFERENCE_PATTERN = /^\/media\/([0-9a-f]{16})\/original\.(jpg|png|webp|avif)$/;

/**
 * The library's picture among `choices` that a content value names: the choice whose address it is,
 * or (for older content) the one whose key it names in another form of the reference, such as
 * /media/<key>/original.png for a picture offered by its old /images/… address or as a .jpg.
 */
export function pictureChoiceFor<Choice extends { url: string; key?: string }>(
  choices: readonly Choice[],
  value: string,
): Choice | undefined {
  if (!value) return undefined;
  const exact = choices.find((choice) => choice.url === value);
  if (exact) return exact;
  const key = MEDIA_REFERENCE_PATTERN.exec(value)?.[1];
  return key ? choices.find((choice) => choice.key === key) : undefined;
}

/** The file extension of each format. */
export const MEDIA_EXTENSIONS: Record<MediaFormat, string> = { jpeg: "jpg", png: "png", webp: "webp", avif: "avif" };

export function mediaReference(key: string, format: MediaFormat): string {
  return `/media/${key}/original.${MEDIA_EXTENSIONS[format]}`;
}

/** The address of one width of a picture in one format: /media/<key>/<width>.<ext>. */
export function mediaVariantPath(key: string, width: number, format: MediaVariantFormat): string {
  return `/media/${key}/${width}.${MEDIA_EXTENSIONS[format]}`;
}

/**
 * A picture as a public page draws it: every width in each format, its shape (the kept original's
 * width and height, so the page reserves the space) and its words for those who cannot see it.
 */
export type ResponsiveImage = {
  /** The JPEG at a middle width: what a browser that reads no srcset shows. */
  src: string;
  /** "url 320w, url 480w, …" per format. */
  srcset: Record<MediaVariantFormat, string>;
  width: number;
  height: number;
  /** "" for a decorative picture. */
  alt: string;
};

/**
 * The widths a picture of this width is served at: those of the ladder narrower than it, then its
 * own width when that is under the ladder's top (a picture is never made larger). A picture at
 * least 1600 pixels wide gets the whole ladder.
 */
export function variantWidths(originalWidth: number): number[] {
  const top = MEDIA_WIDTHS[MEDIA_WIDTHS.length - 1]!;
  const widths: number[] = MEDIA_WIDTHS.filter((width) => width < originalWidth);
  if (originalWidth >= top) return [...MEDIA_WIDTHS];
  widths.push(originalWidth);
  return widths;
}
