import { dehydrate, QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import type { PageData, RenderedPage, ServerEntry } from "#shared/page-rendering.ts";
import { App } from "./app.tsx";
import { createQueryClient } from "./lib/query-client.ts";
import { matchPage, notFoundMeta, pageRoutes } from "./routes.tsx";

// Every page's code is loaded before the first render: the server never renders a fallback.
await Promise.all(Object.values(pageRoutes).map((route) => route.component.preload()));

// The server-rendering entry. The server asks which data a path needs (pageDataFor), loads it
// from the database, and hands it to renderPage, which renders the app with that data already in
// the query cache and returns what the document needs.

export const pageDataFor: ServerEntry["pageDataFor"] = (pathname) => {
  const match = matchPage(pathname);
  return match ? match.route.queries(match.params) : [];
};

/** The source module of the page at this path, so the server can preload its chunk. */
export const pageModuleFor: ServerEntry["pageModuleFor"] = (pathname) => matchPage(pathname)?.route.component.module;

export function renderPage(url: string, data: PageData): RenderedPage {
  const parsed = new URL(`http://localhost${url}`); // "//about" stays a path, not a host
  const match = matchPage(parsed.pathname);
  const queryClient = createQueryClient();
  for (const [key, value] of Object.entries(data)) {
    if (value !== undefined) queryClient.setQueryData([key], value);
  }
  const meta = match ? match.route.meta(match.params, (key) => data[key]) : null;
  const appHtml = renderToString(
    <QueryClientProvider client={queryClient}>
      <Router ssrPath={parsed.pathname} ssrSearch={parsed.search.replace(/^\?/, "")}>
        {/* The route matched but its data says there is no such page: the 404 page, as the browser will show it. */}
        <App notFoundAt={meta ? undefined : parsed.pathname} />
      </Router>
    </QueryClientProvider>,
  );
  const state = dehydrate(queryClient);
  queryClient.clear();
  return { status: meta ? 200 : 404, meta: meta ?? notFoundMeta, appHtml, state };
}
