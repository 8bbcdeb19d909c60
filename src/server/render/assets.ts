import { readFileSync } from "node:fs";
import path from "node:path";
import type { DocumentAssets } from "./document.ts";

export const CLIENT_ENTRY = "src/web/entry-client.tsx";
export const BOOT_ENTRY = "src/web/boot.ts";

type ManifestChunk = { file: string; css?: string[]; imports?: string[]; isEntry?: boolean; isDynamicEntry?: boolean };

export type SiteAssets = {
  /** The entry's script, styles and the chunks it imports: on every page. */
  base: DocumentAssets;
  /** The base plus the chunks of the islands a page shows (their source modules). */
  forIslands: (modules: readonly string[]) => DocumentAssets;
};

/** Script, styles and chunks to preload for each page, from Vite's build manifest. */
export function readBuiltAssets(clientDir: string): SiteAssets {
  const manifestPath = path.join(clientDir, ".vite", "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestChunk>;
  const entry = manifest[CLIENT_ENTRY];
  const boot = manifest[BOOT_ENTRY];
  if (!entry || !boot) throw new Error(`${manifestPath} lacks ${CLIENT_ENTRY} or ${BOOT_ENTRY}`);

  const collect = (key: string, styles: Set<string>, preloads: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk) return;
    for (const css of chunk.css ?? []) styles.add(`/${css}`);
    for (const imported of chunk.imports ?? []) {
      const file = manifest[imported]?.file;
      if (file && !preloads.has(`/${file}`) && file !== entry.file) {
        preloads.add(`/${file}`);
        collect(imported, styles, preloads);
      }
    }
  };

  const baseStyles = new Set<string>();
  const basePreloads = new Set<string>();
  collect(CLIENT_ENTRY, baseStyles, basePreloads);
  const base: DocumentAssets = {
    scripts: [`/${entry.file}`],
    styles: [...baseStyles],
    preloads: [...basePreloads],
    boot: `/${boot.file}`,
  };

  // Each island's own chunk and what it imports, in the order the page lists its islands.
  const islandChunks = new Map<string, { styles: Set<string>; preloads: Set<string> }>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue;
    const styles = new Set<string>();
    const preloads = new Set([`/${chunk.file}`]);
    collect(key, styles, preloads);
    islandChunks.set(key, { styles, preloads });
  }
  // A few combinations exist (one per kind of page): each is worked out once.
  const perPage = new Map<string, DocumentAssets>();
  const forIslands = (modules: readonly string[]): DocumentAssets => {
    const key = modules.join(" ");
    let assets = perPage.get(key);
    if (!assets) {
      const styles = new Set(baseStyles);
      const preloads = new Set(basePreloads);
      for (const module of modules) {
        const island = islandChunks.get(module);
        if (!island) throw new Error(`${manifestPath} has no chunk for the island ${module}`);
        for (const style of island.styles) styles.add(style);
        for (const preload of island.preloads) preloads.add(preload);
      }
      assets = { ...base, styles: [...styles], preloads: [...preloads] };
      perPage.set(key, assets);
    }
    return assets;
  };
  return { base, forIslands };
}

export const devAssets: SiteAssets = {
  base: { scripts: [`/${CLIENT_ENTRY}`], styles: ["/src/web/styles.css"], preloads: [] },
  forIslands: () => devAssets.base,
};
