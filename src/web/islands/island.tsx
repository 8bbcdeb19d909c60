import { usePageContext } from "../lib/page-context.ts";
import type { IslandName, IslandProps } from "./registry.ts";

/**
 * A part of the page the browser hydrates. The server renders the page around an empty slot, then
 * the island on its own (src/web/entry-server.tsx), exactly as the browser's hydrateRoot will, so
 * ids and markup match; `props` go to the browser as JSON.
 */
export function Island<N extends IslandName>({ name, props }: { name: N; props: IslandProps<N> }) {
  const page = usePageContext();
  const index = page.islands.push({ name, props: props as object }) - 1;
  // The markup islandSlot(index) spells (registry.ts): the server finds the slot by it.
  return <div data-island={index} className="contents" />;
}
