import { useEffect } from "react";
import { apiPaths } from "#shared/paths.ts";

// The analytics beacon (docs/decisions/031-cookieless-analytics.md): the server counts the page it
// serves, so only client-side navigations are sent from here, one beacon each, never the first
// page. It carries the path and query string, nothing else; the browser adds no cookie of ours.

let shown: string | undefined;

/** Sends a beacon when the page shown changes to another page of the site. */
export function useCountNavigation(path: string, isPage: boolean): void {
  useEffect(() => {
    if (shown !== undefined && shown !== path && isPage) {
      navigator.sendBeacon?.(apiPaths.view, new URLSearchParams({ p: path + location.search }));
    }
    shown = path;
  }, [path, isPage]);
}
