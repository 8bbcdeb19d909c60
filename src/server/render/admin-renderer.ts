import { readFileSync } from "node:fs";
import path from "node:path";
import { ADMIN_HOME } from "#shared/admin/routes.ts";
import type { AdminPageProps, AdminServerEntry } from "#shared/admin/pages.ts";
import { site } from "#shared/site.ts";
import { escapeHtml } from "./document.ts";

// The back office's pages: rendered by its own server entry (src/web/admin/entry-server.tsx) into
// a document that links the back office's own script and styles, never the public pages'. Its
// code is a separate entry of the build, so no public page can load it.

export const ADMIN_CLIENT_ENTRY = "src/web/admin/admin-client.ts";

export type AdminAssets = { script: string; styles: string[] };

export type AdminRenderer = { render: (props: AdminPageProps) => Promise<string> };

type ManifestChunk = { file: string; css?: string[] };

/** The back office's script and styles, from Vite's build manifest. */
export function readAdminAssets(clientDir: string): AdminAssets {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite", "manifest.json"), "utf8")) as Record<
    string,
    ManifestChunk
  >;
  const entry = manifest[ADMIN_CLIENT_ENTRY];
  if (!entry) throw new Error(`the build manifest lacks ${ADMIN_CLIENT_ENTRY}`);
  return { script: `/${entry.file}`, styles: (entry.css ?? []).map((file) => `/${file}`) };
}

export const devAdminAssets: AdminAssets = { script: `/${ADMIN_CLIENT_ENTRY}`, styles: [] };

export function createAdminRenderer(options: {
  loadEntry: () => Promise<AdminServerEntry>;
  assets: AdminAssets;
  /** Development only: Vite's client for hot reload. */
  transformHtml?: (url: string, html: string) => Promise<string>;
}): AdminRenderer {
  return {
    async render(props) {
      const entry = await options.loadEntry();
      const { title, bodyHtml } = entry.renderAdminPage(props);
      const head = [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        `<title>${escapeHtml(`${title} | ${site.shortName} back office`)}</title>`,
        '<meta name="robots" content="noindex, nofollow">',
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
        ...options.assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
        `<script type="module" src="${escapeHtml(options.assets.script)}"></script>`,
      ].join("");
      const html = `<!doctype html><html lang="en-IN"><head>${head}</head><body>${bodyHtml}</body></html>`;
      return options.transformHtml ? options.transformHtml(ADMIN_HOME, html) : html;
    },
  };
}
