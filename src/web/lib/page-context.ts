import { createContext, useContext } from "react";
import type { Breadcrumb, PageData } from "#shared/page-rendering.ts";
import type { IslandUse } from "../islands/registry.ts";

// What the server knows while it renders a page: the address, the data it loaded for the page and
// the islands (the parts the browser hydrates) the page has used so far. Only the server renders
// with it: the browser hydrates islands alone, each from its own props.

export type PageContextValue = {
  path: string;
  /** The query string, without "?". */
  search: string;
  data: PageData;
  breadcrumbs?: Breadcrumb[];
  islands: IslandUse[];
};

export const PageContext = createContext<PageContextValue | undefined>(undefined);

function usePageContext(): PageContextValue {
  const value = useContext(PageContext);
  if (!value) throw new Error("A page component rendered outside the server's page context");
  return value;
}

export const usePath = () => usePageContext().path;
export const useSearch = () => usePageContext().search;
export const useRouteBreadcrumbs = () => usePageContext().breadcrumbs;

/**
 * The data the server loaded for one API path: `data` when it has it, `isError` when loading it
 * failed (the page shows its error state, or nothing, as the spec has it for that page).
 */
export function usePageData<T>(apiPath: string): { data: T | undefined; isError: boolean } {
  const { data } = usePageContext();
  const value = data[apiPath];
  return value === undefined || value === null
    ? { data: undefined, isError: true }
    : { data: value as T, isError: false };
}

/** A form's state after a post without JavaScript, if this render answers one. */
export function usePageValue<T>(key: string): T | undefined {
  return usePageContext().data[key] as T | undefined;
}

export { usePageContext };
