import { createServer, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, apiRequest, describeApiError, isApiErrorWithStatus, readApi } from "./api-client.ts";

// SPEC section 7 and 8, against a real HTTP server. The browser resolves relative paths against
// the page; here the same relative paths are sent to the test server.

type Seen = { method: string; url: string; contentType: string | undefined; body: string };
const seen: Seen[] = [];
let base = "";
const realFetch = globalThis.fetch;
const initsSeen: (RequestInit | undefined)[] = [];

beforeAll(async () => {
  const server = createServer(async (request: IncomingMessage, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    seen.push({
      method: request.method ?? "",
      url: request.url ?? "",
      contentType: request.headers["content-type"],
      body,
    });
    const status = Number(new URL(request.url ?? "/", "http://x").searchParams.get("status") ?? 200);
    const reply = new URL(request.url ?? "/", "http://x").searchParams.get("reply") ?? '{"ok":true}';
    response.writeHead(status, { "content-type": "application/json" });
    response.end(reply);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = typeof address === "object" && address ? `http://127.0.0.1:${address.port}` : "";
  globalThis.fetch = (input, init) => {
    initsSeen.push(init);
    return realFetch(`${base}${String(input)}`, init);
  };
  return () => {
    globalThis.fetch = realFetch;
    server.close();
  };
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

describe("apiRequest", () => {
  it("sends JSON with a content type and credentials when there is a body", async () => {
    const response = await apiRequest("POST", "/api/contact", { firstName: "Asha" });
    expect(response.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({
      method: "POST",
      url: "/api/contact",
      contentType: "application/json",
      body: '{"firstName":"Asha"}',
    });
    expect(initsSeen.at(-1)?.credentials).toBe("include");
  });

  it("sets no content type without a body", async () => {
    await apiRequest("DELETE", "/api/thing");
    expect(seen.at(-1)).toMatchObject({ method: "DELETE", contentType: undefined, body: "" });
  });

  it("turns a non-OK answer into an error 'STATUS: body', or the status text when the body is empty", async () => {
    await expect(apiRequest("GET", "/api/x?status=400&reply=Bad%20field")).rejects.toThrow("400: Bad field");
    await expect(apiRequest("GET", "/api/x?status=503&reply=")).rejects.toThrow("503: Service Unavailable");
  });

  it("throws an ApiError that carries the status and the body, so nothing reads them out of the message", async () => {
    const error = await apiRequest("POST", "/api/x?status=429&reply=%7B%22message%22%3A%22Wait%22%7D", {}).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "ApiError",
      status: 429,
      body: '{"message":"Wait"}',
      message: '429: {"message":"Wait"}',
    });
    expect(isApiErrorWithStatus(error, 429)).toBe(true);
    expect(isApiErrorWithStatus(error, 404)).toBe(false);
    const empty = await apiRequest("GET", "/api/x?status=404&reply=").catch((caught: unknown) => caught);
    expect(empty).toMatchObject({ status: 404, body: "", message: "404: Not Found" });
    // A network failure is not an answer: fetch's TypeError stays as it is.
    expect(isApiErrorWithStatus(new TypeError("Failed to fetch"), 404)).toBe(false);
    // A message that merely looks like an answer is not one.
    expect(isApiErrorWithStatus(new Error("404: Not Found"), 404)).toBe(false);
  });
});

describe("readApi", () => {
  it("reads the path made of the query key's segments joined by slashes", async () => {
    const data = await readApi(["/api/blog-posts", "some-slug"], { on401: "throw" });
    expect(seen.at(-1)?.url).toBe("/api/blog-posts/some-slug");
    expect(data).toEqual({ ok: true });
    expect(initsSeen.at(-1)?.credentials).toBe("include");
  });

  it("turns a 401 into null when asked to, and into an error otherwise", async () => {
    expect(await readApi(["/api/x?status=401&reply=nope"], { on401: "returnNull" })).toBeNull();
    await expect(readApi(["/api/x?status=401&reply=nope"], { on401: "throw" })).rejects.toThrow("401: nope");
  });
});

describe("describeApiError", () => {
  it("reads the JSON message of an error, with or without its status", () => {
    const error = new ApiError(429, '{"error":"Too Many Requests","message":"Wait 40 seconds."}', "Too Many Requests");
    expect(describeApiError(error, { withStatus: true })).toBe("429: Wait 40 seconds.");
    expect(
      describeApiError(new ApiError(400, '{"message":"Bad","fields":{"email":"Enter a valid email address"}}'), {
        withStatus: false,
      }),
    ).toBe("Enter a valid email address");
    expect(describeApiError(new ApiError(500, "plain text"), { withStatus: true })).toBe("500: plain text");
    expect(describeApiError(new ApiError(502, "", "Bad Gateway"), { withStatus: true })).toBe("502: Bad Gateway");
  });

  it("gives any other error's message, or 'Please try again later.' when it has none", () => {
    expect(describeApiError(new Error("Something broke"), { withStatus: true })).toBe("Something broke");
    expect(describeApiError(new Error(""), { withStatus: true })).toBe("Please try again later.");
    expect(describeApiError("not an error", { withStatus: false })).toBe("Please try again later.");
  });
});
