import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import type { PageData, RenderedPage, ServerEntry } from "#shared/page-rendering.ts";
import { SitePage } from "./app.tsx";
import { IslandRoot } from "./islands/island-root.tsx";
import { islandIdPrefix, type IslandName, islands, islandSlot, type IslandUse } from "./islands/registry.ts";
import type { PageContextValue } from "./lib/page-context.ts";
import { matchPage, newsletterPageMatch, notFoundMeta } from "./routes.tsx";

// The server-rendering entry. The server asks which data a path needs (pageDataFor), loads it
// from the database, and hands it to renderPage, which renders the page with that data and
// returns what the document needs: the HTML, the head, and the islands the browser hydrates.

// Every island's code is loaded before the first render: islands render synchronously.
const islandComponents = new Map<IslandName, ComponentType<object>>(
  await Promise.all(
    Object.entries(islands).map(
      async ([name, island]) => [name as IslandName, (await island.load()) as ComponentType<object>] as const,
    ),
  ),
);

export const pageDataFor: ServerEntry["pageDataFor"] = (pathname, search) => {
  const match = matchPage(pathname);
  return match ? match.route.queries(match.params, search) : [];
};

/** An island's HTML, rendered on its own as the browser's hydrateRoot renders it. */
function renderIsland({ name, props }: IslandUse, index: number): string {
  const Component = islandComponents.get(name);
  if (!Component) throw new Error(`No island named ${name}`);
  return renderToString(
    <IslandRoot>
      <Component {...props} />
    </IslandRoot>,
    { identifierPrefix: islandIdPrefix(index) },
  );
}

export function renderPage(url: string, data: PageData): RenderedPage {
  const parsed = new URL(`http://localhost${url}`); // "//about" stays a path, not a host
  const match = matchPage(parsed.pathname) ?? newsletterPageMatch(parsed.pathname, (key) => data[key]);
  const meta = match ? match.route.meta(match.params, (key) => data[key]) : null;
  const context: PageContextValue = {
    path: parsed.pathname,
    search: parsed.search.replace(/^\?/, ""),
    data,
    breadcrumbs: meta?.breadcrumbs,
    islands: [],
  };
  // The route matched but its data says there is no such page (an unknown article): the 404 page.
  let appHtml = renderToString(<SitePage context={context} match={meta ? match : undefined} />);
  context.islands.forEach((island, index) => {
    const slot = islandSlot(index);
    const at = appHtml.indexOf(slot);
    if (at === -1) throw new Error(`The page rendered no slot for island ${index} (${island.name})`);
    const open = slot.slice(0, slot.indexOf("></div>") + 1);
    appHtml = appHtml.slice(0, at) + open + renderIsland(island, index) + "</div>" + appHtml.slice(at + slot.length);
  });
  return {
    status: meta && match ? (match.route.status?.((key) => data[key], parsed.search.slice(1)) ?? 200) : 404,
    meta: meta ?? notFoundMeta,
    appHtml,
    islands: context.islands.map(({ name, props }) => [name, props]),
    islandModules: [...new Set(context.islands.map(({ name }) => islands[name].module))],
  };
}
