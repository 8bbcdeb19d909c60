import type { ResponsiveImage as Picture } from "#shared/media.ts";

// A content picture as the public pages draw it: a <picture> whose AVIF and WebP sources and JPEG
// <img> list every width of a media library picture, so the browser takes the smallest that fills
// the place (`sizes`, one of src/shared/image-sizes.ts) on its screen. Its width and height reserve
// its shape before it loads. The largest picture above the fold of a page is its `priority` one:
// fetched first and never lazily; every other loads lazily. A picture the library does not know
// (`image` null) is drawn as a plain <img> of its address, in the place's shape.

export type ResponsiveImageProps = {
  image: Picture | null;
  /** How wide the place draws it at each window width (src/shared/image-sizes.ts). */
  sizes: string;
  /** The words for this use ("" when the picture adds nothing here). */
  alt: string;
  /** The address to show when the library does not know the picture; nothing is drawn without one. */
  fallbackSrc: string;
  /** The shape a plain picture is drawn in (its place's shape). */
  fallbackWidth: number;
  fallbackHeight: number;
  /** The largest picture above the fold: fetched with high priority, not lazily. */
  priority?: boolean;
  /** The <img>'s classes: its size and look. */
  className?: string;
  /**
   * Its classes as an item of the layout around it (a grid column's span): on the <picture>, a
   * block around the <img>, or on a plain <img>. (A <picture> of display: contents would make its
   * <source> elements grid items too, each adding a row gap.)
   */
  layoutClassName?: string;
};

export function ResponsiveImage({
  image,
  sizes,
  alt,
  fallbackSrc,
  fallbackWidth,
  fallbackHeight,
  priority = false,
  className = "",
  layoutClassName = "",
}: ResponsiveImageProps) {
  const loading = priority ? ({ fetchPriority: "high" } as const) : ({ loading: "lazy", decoding: "async" } as const);
  if (!image) {
    if (!fallbackSrc) return null;
    return (
      <img
        src={fallbackSrc}
        alt={alt}
        width={fallbackWidth}
        height={fallbackHeight}
        {...loading}
        className={`${className} ${layoutClassName}`.trim()}
      />
    );
  }
  return (
    <picture className={`block ${layoutClassName}`.trim()}>
      <source type="image/avif" srcSet={image.srcset.avif} sizes={sizes} />
      <source type="image/webp" srcSet={image.srcset.webp} sizes={sizes} />
      <img
        src={image.src}
        srcSet={image.srcset.jpeg}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        {...loading}
        className={className}
      />
    </picture>
  );
}
