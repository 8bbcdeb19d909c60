import { hydrate, QueryClientProvider } from "@tanstack/react-query";
import { startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { createQueryClient } from "./lib/query-client.ts";
import { matchPage } from "./routes.tsx";
import "./styles.css";

const queryClient = createQueryClient();
const stateElement = document.getElementById("query-state");
if (stateElement?.textContent) hydrate(queryClient, JSON.parse(stateElement.textContent));

const root = document.getElementById("root");
// The server's 404 page for an address the route table matches (an unknown article) says so.
const notFoundAt = root?.dataset.status === "404" ? window.location.pathname : undefined;
// The current page's code first, so hydration renders exactly what the server did.
if (!notFoundAt) await matchPage(window.location.pathname)?.route.component.preload();

if (root) {
  // As a transition, hydration yields to the browser every few milliseconds instead of holding
  // the main thread for the whole page: a tap during it is answered at once.
  startTransition(() => {
    hydrateRoot(
      root,
      <QueryClientProvider client={queryClient}>
        <App notFoundAt={notFoundAt} />
      </QueryClientProvider>,
    );
  });
}
