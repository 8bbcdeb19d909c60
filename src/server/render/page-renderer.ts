import type { FastifyBaseLogger } from "fastify";
import type { PageData, ServerEntry } from "#shared/page-rendering.ts";
import type { ReadApi } from "../routes/content-api.ts";
import type { SiteAssets } from "./assets.ts";
import { renderDocument } from "./document.ts";
import { type LinkCard, SITE_CARD_KEY } from "#shared/link-card.ts";
import { cardOfRenderedPage } from "../cards/card-address.ts";

export type PageRendererOptions = {
  /** The server-rendering entry: Vite's ssrLoadModule in development, the SSR build otherwise. */
  loadEntry: () => Promise<ServerEntry>;
  assets: SiteAssets;
  /** Development only: lets Vite inject its client and React refresh into the document. */
  transformHtml?: (url: string, html: string) => Promise<string>;
  siteUrl: string;
  /** Data every page renders with, whatever its route: the company's statutory details (#shared/company.ts). */
  siteData?: PageData;
};

export type PageRenderer = {
  render: (
    url: string,
    context: { readApi: ReadApi; log: FastifyBaseLogger; extraData?: PageData },
  ) => Promise<{
    status: number;
    html: string;
    /** False when some of the page's data could not be loaded. */ complete: boolean;
    /** The page's own link-preview card; unset for a page that names the site's (cards/card-address.ts). */
    card?: LinkCard;
  }>;
};

export function createPageRenderer(options: PageRendererOptions): PageRenderer {
  return {
    async render(url, { readApi, log, extraData }) {
      const entry = await options.loadEntry();
      // Prefixed, not resolved against a base: "//about" is a path here, not a host.
      const parsed = new URL(`http://localhost${url}`);
      const pathname = parsed.pathname;
      const data: PageData = {};
      let complete = true;
      // A page whose data cannot be loaded still renders: it shows its error state, or the blog
      // reads its articles in the browser (docs/decisions/035-hydrate-only-the-interactive-parts.md).
      await Promise.all(
        entry.pageDataFor(pathname, parsed.search.slice(1)).map(async (apiPath) => {
          try {
            data[apiPath] = (await readApi(apiPath)) ?? null;
          } catch (error) {
            complete = false;
            log.warn({ err: error, apiPath }, "page data could not be loaded; rendering without it");
          }
        }),
      );
      const page = entry.renderPage(url, { ...options.siteData, ...data, ...extraData });
      const assets = options.assets.forIslands(page.islandModules);
      let html = renderDocument({ page, assets, siteUrl: options.siteUrl, pathname });
      if (options.transformHtml) html = await options.transformHtml(url, html);
      const { key, card } = cardOfRenderedPage(page, pathname);
      return { status: page.status, html, complete, card: key === SITE_CARD_KEY ? undefined : card };
    },
  };
}
