import { hydrate, QueryClientProvider } from "@tanstack/react-query";
import { startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { createQueryClient } from "./lib/query-client.ts";
import { matchPageRoute } from "./routes.tsx";
import "./styles.css";

const queryClient = createQueryClient();
const stateElement = document.getElementById("query-state");
if (stateElement?.textContent) hydrate(queryClient, JSON.parse(stateElement.textContent));

// The current page's code first, so hydration renders exactly what the server did.
await matchPageRoute(window.location.pathname)?.route.component.preload();

const root = document.getElementById("root");
if (root) {
  // As a transition, hydration yields to the browser every few milliseconds instead of holding
  // the main thread for the whole page: a tap during it is answered at once.
  startTransition(() => {
    hydrateRoot(
      root,
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>,
    );
  });
}
