// SPEC section 7: same-origin paths, credentials included, a JSON content-type only when a body
// exists; SPEC section 8: a non-OK answer becomes an error "STATUS: body" (or the status text).

/**
 * A non-OK answer. Its message is SPEC section 8's "STATUS: body" (the status text when the body
 * is empty); code that acts on the answer reads `status` and `body`, never the message.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The answer's body as text; empty when it had none. */
    readonly body: string,
    readonly statusText: string = "",
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = "ApiError";
  }
}

/** Whether an error is the server's answer with this status (a network failure is not). */
export function isApiErrorWithStatus(error: unknown, status: number): boolean {
  return error instanceof ApiError && error.status === status;
}

async function throwIfResponseNotOk(response: Response): Promise<void> {
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
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

/**
 * Reads GET `key.join("/")` (SPEC section 7: the path is the key's segments joined by slashes),
 * once: no retries. A 401 may be turned into null instead of an error.
 */
export async function readApi<T>(key: readonly string[], options: { on401: UnauthorizedBehavior }): Promise<T | null> {
  const response = await fetch(key.join("/"), { credentials: "include" });
  if (options.on401 === "returnNull" && response.status === 401) return null;
  await throwIfResponseNotOk(response);
  return (await response.json()) as T;
}

/**
 * A readable form of an apiRequest error: an ApiError with the body {"message":"Wait"} becomes
 * "429: Wait" (or "Wait" without the status). Any other error gives its message.
 */
export function describeApiError(error: unknown, options: { withStatus: boolean }): string {
  if (!(error instanceof ApiError)) return (error instanceof Error && error.message) || "Please try again later.";
  let text = error.body || error.statusText;
  try {
    const body = JSON.parse(error.body) as { message?: unknown; fields?: Record<string, unknown> };
    const firstField = Object.values(body.fields ?? {}).find((value) => typeof value === "string");
    if (typeof firstField === "string" && !options.withStatus) text = firstField;
    else if (typeof body.message === "string") text = body.message;
  } catch {
    // Not JSON: keep the body text.
  }
  return options.withStatus ? `${error.status}: ${text}` : text;
}
