import { type ComponentType, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { IslandRoot, expectIslands } from "./islands/island-root.tsx";
import { islandIdPrefix, type IslandName, islands } from "./islands/registry.ts";
import { hasQueuedEnquiries } from "./lib/enquiry-outbox-key.ts";
import "./styles.css";

// The browser's side of a public page: the server rendered all of it; this hydrates the islands
// the page lists (src/web/islands/registry.ts), each from the props the server gave it.

const listed = document.getElementById("islands")?.textContent;
const uses = listed ? (JSON.parse(listed) as [IslandName, object][]) : [];
expectIslands(uses.length);

// Enquiries that met a network failure are sent again now and whenever the browser is back online;
// the code that sends them loads only when some are waiting.
const flushOutbox = () => {
  if (hasQueuedEnquiries()) void import("./lib/enquiry-outbox.ts").then((outbox) => outbox.flushEnquiryOutbox());
};
flushOutbox();
window.addEventListener("online", flushOutbox);

await Promise.all(
  uses.map(async ([name, props], index) => {
    const container = document.querySelector(`[data-island="${index}"]`);
    const Component = (await islands[name]?.load()) as ComponentType<object> | undefined;
    if (!container || !Component) return;
    // As a transition, hydration yields to the browser instead of holding the main thread: a tap
    // during it is answered at once.
    startTransition(() => {
      hydrateRoot(
        container,
        <IslandRoot>
          <Component {...props} />
        </IslandRoot>,
        { identifierPrefix: islandIdPrefix(index) },
      );
    });
  }),
);
