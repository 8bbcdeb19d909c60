import type { FastifyBaseLogger } from "fastify";
import type { PageData, ServerEntry } from "#shared/page-rendering.ts";
import type { ReadApi } from "../routes/content-api.ts";
import type { SiteAssets } from "./assets.ts";
import { renderDocument } from "./document.ts";

export type PageRendererOptions = {
  /** The server-rendering entry: Vite's ssrLoadModule in development, the SSR build otherwise. */
  loadEntry: () => Promise<ServerEntry>;
  assets: SiteAssets;
  /** Development only: lets Vite inject its client and React refresh into the document. */
  transformHtml?: (url: string, html: string) => Promise<string>;
  siteUrl: string;
};

export type PageRenderer = {
  render: (
    url: string,
    context: { readApi: ReadApi; log: FastifyBaseLogger; extraData?: PageData },
  ) => Promise<{ status: number; html: string }>;
};

export function createPageRenderer(options: PageRendererOptions): PageRenderer {
  return {
    async render(url, { readApi, log, extraData }) {
      const entry = await options.loadEntry();
      // Prefixed, not resolved against a base: "//about" is a path here, not a host.
      const pathname = new URL(`http://localhost${url}`).pathname;
      const data: PageData = {};
      // A page whose data cannot be loaded still renders: its lists show their loading state
      // and the browser fetches the data itself (PRODUCT.md, Rendering).
      await Promise.all(
        entry.pageDataFor(pathname).map(async (apiPath) => {
          try {
            data[apiPath] = (await readApi(apiPath)) ?? null;
          } catch (error) {
            log.warn({ err: error, apiPath }, "page data could not be loaded; rendering without it");
          }
        }),
      );
      const page = entry.renderPage(url, { ...data, ...extraData });
      const assets = options.assets.forPage(entry.pageModuleFor(pathname));
      let html = renderDocument({ page, assets, siteUrl: options.siteUrl, pathname });
      if (options.transformHtml) html = await options.transformHtml(url, html);
      return { status: page.status, html };
    },
  };
}
