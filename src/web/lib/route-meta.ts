import { useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import type { Breadcrumb } from "#shared/page-rendering.ts";
import { matchPageRoute } from "../routes.tsx";

/** The breadcrumbs of the current route, from the same meta the server renders the head from. */
export function useRouteBreadcrumbs(): Breadcrumb[] | undefined {
  const [location] = useLocation();
  const queryClient = useQueryClient();
  const match = matchPageRoute(location);
  return match?.route.meta(match.params, (key) => queryClient.getQueryData([key]))?.breadcrumbs;
}
