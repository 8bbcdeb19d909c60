import type { QueryFunction } from "@tanstack/react-query";

// SPEC section 7: same-origin paths, credentials included, a JSON content-type only when a body
// exists; SPEC section 8: a non-OK answer becomes an Error "STATUS: body" (or the status text).

async function throwIfResponseNotOk(response: Response): Promise<void> {
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
    throw new Error(`${response.status}: ${text}`);
  }
}

export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method,
    headers: data === undefined ? {} : { "Content-Type": "application/json" },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: "include",
  });
  await throwIfResponseNotOk(response);
  return response;
}

type UnauthorizedBehavior = "returnNull" | "throw";

/** Reads GET `queryKey.join("/")`; a 401 may be turned into null instead of an error. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const response = await fetch(queryKey.join("/"), { credentials: "include" });
    if (options.on401 === "returnNull" && response.status === 401) return null;
    await throwIfResponseNotOk(response);
    return (await response.json()) as T;
  };
}

/**
 * A readable form of an apiRequest error: "429: {"message":"Wait"}" becomes "429: Wait" (or
 * "Wait" without the status). Anything else is returned as it is.
 */
export function describeApiError(error: unknown, options: { withStatus: boolean }): string {
  const message = error instanceof Error ? error.message : "";
  const match = /^(\d{3}): ([\s\S]*)$/.exec(message);
  if (!match) return message || "Please try again later.";
  let text = match[2] ?? "";
  try {
    const body = JSON.parse(text) as { message?: unknown; fields?: Record<string, unknown> };
    const firstField = Object.values(body.fields ?? {}).find((value) => typeof value === "string");
    if (typeof firstField === "string" && !options.withStatus) text = firstField;
    else if (typeof body.message === "string") text = body.message;
  } catch {
    // Not JSON: keep the body text.
  }
  return options.withStatus ? `${match[1]}: ${text}` : text;
}
