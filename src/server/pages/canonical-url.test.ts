import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.ts";
import { projectDriver } from "../../../test/databases.ts";
import { canonicalPageTarget, mayNeedCanonicalising } from "./canonical-url.ts";

const article = "/blog/ieee-519-harmonics-at-a-vfd-heavy-plant";

describe("the canonical address of a request target", () => {
  it.each([
    ["/about/", "/about"],
    ["//about", "/about"],
    ["///about//", "/about"],
    ["/blog/../about", "/about"],
    ["/./about", "/about"],
    ["/blog/%2e%2e/about", "/about"],
    ["/%61bout", "/about"],
    ["/About", "/about"],
    ["/BLOG/IEEE-519-Harmonics-At-A-VFD-Heavy-Plant", article],
    ["/about/?utm_source=x&a=%2F", "/about?utm_source=x&a=%2F"],
    ["http://other.example/about", "/about"],
    ["https://other.example//services/?x=1", "/services?x=1"],
    ["/", "/"],
    ["//", "/"],
  ])("%s is %s", (target, canonical) => {
    expect(mayNeedCanonicalising(target)).toBe(target !== canonical);
    expect(canonicalPageTarget(target)).toBe(canonical);
  });

  it.each([
    "//anything",
    "//evil.example/about-us",
    "/blog/a_b",
    "/blog/a--b",
    "/about%2fus",
    "/about%00",
    "/%zz",
    "/blog/../../etc/passwd",
    "ftp://other.example/about",
    "*",
    "/api/blog-posts/",
    "/favicon.ico/",
  ])("%s names no page", (target) => {
    expect(canonicalPageTarget(target)).toBeUndefined();
  });

  it("lets a canonical target through without looking further", () => {
    for (const target of ["/", "/about", `${article}?q=x`, "/api/blog-posts", "/assets/entry-client-abc.js"]) {
      expect(mayNeedCanonicalising(target), target).toBe(false);
    }
  });
});

describe("page addresses over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(projectDriver);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ["/about/", "/about"],
    ["//about", "/about"],
    ["/blog/IEEE-519-harmonics-at-a-vfd-heavy-plant", article],
    ["/Contact/?service=grid-integration", "/contact?service=grid-integration"],
  ])("GET %s answers 301 to %s", async (url, location) => {
    const response = await t.app.inject({ method: "GET", url });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(location);
    // The site's headers go with a redirect too.
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    const head = await t.app.inject({ method: "HEAD", url });
    expect(head.statusCode).toBe(301);
  });

  it.each(["//anything", "//evil.example", "/blog/a_b", "/blog/IEEE_519", "/about/us", "/projects/no-such-project"])(
    "GET %s answers the 404 page, never a redirect or another page",
    async (url) => {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(404);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain("<title>Page Not Found");
      expect(response.body).toContain('<h1 class="text-3xl font-bold text-navy-900">Page Not Found</h1>');
      expect(response.body).not.toContain("Loading article...");
      // Only the layout's islands: nothing of another page is hydrated over the 404 page.
      expect(response.body).toMatch(
        /<script type="application\/json" id="islands">\[\["menuButton",\{\}\],\["consultationButton",\{\}\]\]<\/script>/,
      );
    },
  );

  it("marks the header link an unknown address falls under on its 404 page, as the browser will", async () => {
    const insights = /<a [^>]*aria-current="page"[^>]*>Insights<\/a>/;
    expect((await t.app.inject({ method: "GET", url: "/blog/a_b" })).body).toMatch(insights);
    expect((await t.app.inject({ method: "GET", url: "/blog/no-such-article" })).body).toMatch(insights);
    expect((await t.app.inject({ method: "GET", url: "/no-such-page" })).body).not.toContain('aria-current="page"');
  });

  it("serves the page whatever query string it carries", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/services" });
    const tagged = await t.app.inject({ method: "GET", url: "/services?utm_source=x&q=grid&category=x" });
    expect(tagged.statusCode).toBe(200);
    expect(tagged.body).toBe(plain.body);
  });

  it("leaves the API's addresses to the API: no redirect for a trailing slash there", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/blog-posts/" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: "Not Found" });
  });

  // inject() resolves dot segments itself, so these go over a real socket as a client wrote them.
  it("answers dot segments and the absolute form of a request line with a redirect to the path on this site", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    const raw = async (requestLine: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.end(`${requestLine}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
        });
        let answer = "";
        socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
        socket.on("end", () => resolve(answer));
        socket.on("error", reject);
      });
    const dotted = await raw("GET /blog/../about HTTP/1.1");
    expect(dotted).toMatch(/^HTTP\/1\.1 301 /);
    expect(dotted).toMatch(/\r\nlocation: \/about\r\n/i);
    const redirected = await raw("GET http://other.example/about HTTP/1.1");
    expect(redirected).toMatch(/^HTTP\/1\.1 301 /);
    expect(redirected).toMatch(/\r\nlocation: \/about\r\n/i);
    const unknown = await raw("GET http://other.example/nothing-here HTTP/1.1");
    expect(unknown).toMatch(/^HTTP\/1\.1 404 /);
    expect(unknown).not.toMatch(/\r\nlocation:/i);
  });
});
