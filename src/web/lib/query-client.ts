import { QueryClient } from "@tanstack/react-query";
import { getQueryFn } from "./api-client.ts";

/** SPEC section 9: data never stale, no refetch on focus or interval, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
        // Fetch even when the browser says it is offline: a failure then shows as the spec says
        // instead of a request silently paused until the connection returns.
        networkMode: "always",
      },
      mutations: { retry: false, networkMode: "always" },
    },
  });
}
