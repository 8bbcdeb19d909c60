import { readFileSync } from "node:fs";
import path from "node:path";
import type { DocumentAssets } from "./document.ts";

export const CLIENT_ENTRY = "src/web/entry-client.tsx";
export const BOOT_ENTRY = "src/web/boot.ts";

type ManifestChunk = { file: string; css?: string[]; imports?: string[]; isEntry?: boolean; isDynamicEntry?: boolean };

export type SiteAssets = {
  /** The entry's script, styles and the chunks it imports: on every page. */
  base: DocumentAssets;
  /** The base plus the chunks of one page's code module. */
  forPage: (module: string | undefined) => DocumentAssets;
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
  const base: DocumentAssets = { scripts: [`/${entry.file}`], styles: [...baseStyles], preloads: [...basePreloads], boot: `/${boot.file}` };

  const perPage = new Map<string, DocumentAssets>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue;
    const styles = new Set(baseStyles);
    const preloads = new Set([...basePreloads, `/${chunk.file}`]);
    collect(key, styles, preloads);
    perPage.set(key, { ...base, styles: [...styles], preloads: [...preloads] });
  }
  return { base, forPage: (module) => (module && perPage.get(module)) || base };
}

export const devAssets: SiteAssets = {
  base: { scripts: [`/${CLIENT_ENTRY}`], styles: ["/src/web/styles.css"], preloads: [] },
  forPage: () => devAssets.base,
};
