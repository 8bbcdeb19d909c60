import { type ReactNode, useEffect } from "react";

// Wraps every island, on the server and in the browser alike, so both render the same tree.

let pending = 0;

/** Counts an island as hydrated; once all are, <html data-hydrated> tells tests and styles so. */
export function expectIslands(count: number): void {
  pending = count;
  if (pending === 0) document.documentElement.dataset.hydrated = "true";
}

export function IslandRoot({ children }: { children: ReactNode }) {
  useEffect(() => {
    pending -= 1;
    if (pending === 0) document.documentElement.dataset.hydrated = "true";
  }, []);
  return children;
}
