import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root, and the site's content folder (the seed of a new site). */
export const repoRoot = fileURLToPath(new URL("../", import.meta.url));
export const siteContentDir = path.join(repoRoot, "content");
