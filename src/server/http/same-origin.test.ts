import { describe, expect, it } from "vitest";
import { crossSiteProblem } from "./same-origin.ts";

describe("crossSiteProblem", () => {
  const site = { siteOrigin: "https://www.example.com", acceptLoopback: false };
  const local = { siteOrigin: "http://localhost:3000", acceptLoopback: true };

  it.each([
    [{}, site],
    [{ origin: "https://www.example.com" }, site],
    [{ origin: "https://www.example.com", "sec-fetch-site": "same-origin" }, site],
    [{ "sec-fetch-site": "none" }, site],
    // SITE_URL unset: the site on a developer's machine, reached at any loopback address and port.
    [{ origin: "http://127.0.0.1:4201", "sec-fetch-site": "same-origin" }, local],
    [{ origin: "http://localhost:5173" }, local],
    [{ origin: "http://[::1]:3000" }, local],
  ])("lets %o through (%o)", (headers, options) => {
    expect(crossSiteProblem(headers, options)).toBeUndefined();
  });

  it.each([
    [
      { origin: "https://evil.example" },
      site,
      /came from "https:\/\/evil\.example", not from https:\/\/www\.example\.com/,
    ],
    [{ origin: "http://www.example.com" }, site, /not from https:\/\/www\.example\.com/],
    [{ origin: "https://www.example.com:8443" }, site, /not from/],
    [{ origin: "null" }, site, /came from "null"/],
    [{ "sec-fetch-site": "cross-site" }, site, /Sec-Fetch-Site: cross-site/],
    [{ "sec-fetch-site": "same-site", origin: "https://www.example.com" }, site, /Sec-Fetch-Site: same-site/],
    [{ origin: "http://127.0.0.1:4201" }, site, /not from/],
    [{ origin: "http://127.0.0.1.evil.example" }, local, /not from/],
    [{ origin: "https://evil.example" }, local, /not from http:\/\/localhost:3000/],
  ])("refuses %o (%o)", (headers, options, message) => {
    expect(crossSiteProblem(headers, options)).toMatch(message);
  });
});
