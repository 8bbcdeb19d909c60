import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import type { Breadcrumb } from "#shared/page-rendering.ts";
import type { RouteParams } from "#shared/routes.ts";
import type { PageRoute } from "../routes.tsx";

// The route the app matched for the current address, handed down to the page it renders. Pages
// read their breadcrumbs here rather than matching the address again themselves.

export type MatchedRoute = { route: PageRoute; params: RouteParams };

export const RouteContext = createContext<MatchedRoute | undefined>(undefined);

/** The breadcrumbs of the current route, from the same meta the server renders the head from. */
export function useRouteBreadcrumbs(): Breadcrumb[] | undefined {
  const match = useContext(RouteContext);
  const queryClient = useQueryClient();
  return match?.route.meta(match.params, (key) => queryClient.getQueryData([key]))?.breadcrumbs;
}
