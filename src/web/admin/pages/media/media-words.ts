import type { MediaItemView } from "#shared/admin/pages.ts";
import { mediaVariantPath, variantWidths } from "#shared/media.ts";

// What the library's pages say about a picture: sizes in words, its alt text's state, where it is
// used, and the widths it is shown at.

/** "312 KB", "2.4 MB". */
export function bytesText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const FORMAT_LABELS: Record<MediaItemView["format"], string> = {
  jpeg: "JPEG",
  png: "PNG",
  webp: "WebP",
  avif: "AVIF",
};

export const KIND_LABELS: Record<MediaItemView["usedIn"][number]["kind"], string> = {
  article: "Article",
  project: "Project",
  "team-member": "Team member",
  testimonial: "Testimonial",
  "client-logo": "Client logo",
};

/** "Used in 3 items", "Used in 1 item", "Not used". */
export function usedInText(count: number): string {
  return count === 0 ? "Not used" : `Used in ${count} ${count === 1 ? "item" : "items"}`;
}

/** The thumbnail's shape: the smallest width of the ladder, its height in proportion. */
export function thumbnailSize(item: Pick<MediaItemView, "width" | "height">): { width: number; height: number } {
  const width = variantWidths(item.width)[0]!;
  return { width, height: Math.max(1, Math.round((width * item.height) / item.width)) };
}

/** Every width of the picture in one format, as a srcset. */
export function srcsetOf(item: Pick<MediaItemView, "key" | "width">, format: "webp" | "jpeg" | "avif"): string {
  return variantWidths(item.width)
    .map((width) => `${mediaVariantPath(item.key, width, format)} ${width}w`)
    .join(", ");
}
