import { readdir } from "node:fs/promises";
import path from "node:path";
import { IMAGE_PATH_PATTERN } from "#shared/content/documents.ts";
import { projectRoot } from "../../project-root.ts";

// The site's pictures, for the editor's Cover image field: every SVG, PNG, JPEG, WebP or AVIF file
// under public/images (recursively), as the /images/… address the site serves it at, with a label
// made from its file name. Read once per process: the pictures change with a deploy, not at run time.

export type SiteImage = { url: string; label: string };

const IMAGES_DIR = path.join(projectRoot, "public", "images");
const PICTURE = /\.(svg|png|jpe?g|webp|avif)$/i;

/** "articles/arc-flash-studies.svg" → "Arc flash studies (articles)". */
function labelOf(relative: string): string {
  const parts = relative.split("/");
  const name = parts.pop()!.replace(PICTURE, "").replace(/[-_]+/g, " ").trim();
  const words = name.charAt(0).toUpperCase() + name.slice(1);
  return parts.length ? `${words} (${parts.join("/")})` : words;
}

async function readImages(directory: string): Promise<SiteImage[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && PICTURE.test(entry.name))
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .map((relative) => ({ url: `/images/${relative}`, label: labelOf(relative) }))
    .filter((image) => IMAGE_PATH_PATTERN.test(image.url))
    .sort((a, b) => a.url.localeCompare(b.url, "en"));
}

let cached: Promise<SiteImage[]> | undefined;

/** The site's pictures, sorted by address; an unreadable folder is no pictures (logged by the caller's page). */
export function siteImages(directory: string = IMAGES_DIR): Promise<SiteImage[]> {
  if (directory !== IMAGES_DIR) return readImages(directory);
  cached ??= readImages(IMAGES_DIR).catch(() => {
    cached = undefined;
    return [];
  });
  return cached;
}
