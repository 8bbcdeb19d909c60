import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteRoutes } from "../../e2e/routes.ts";
import { enquiry, TEST_FORM_SECRET } from "../enquiry-fixtures.ts";
import { repoRoot } from "../paths.ts";
import { type ServerProcess, startServerProcess } from "../server-process.ts";
import { freePort, SmtpPeer } from "../smtp-peer.ts";

// The smoke set: the compiled server (`npm run build`, as production runs it with plain `node`),
// started on whatever Node runs this, and answering over HTTP as a visitor and a member of staff
// reach it. CI runs it on Node 20, the oldest version the README supports, where the full suite
// does not run: enough to catch a runtime API Node 20 lacks in any part of the request path (every
// page rendered, an enquiry stored and mailed, a picture made, the back office signed into by a
// one-time link from `npm run staff`, a graceful stop). `npm run test:smoke`; docs/testing.md.

const run = promisify(execFile);

describe(`the compiled server on Node ${process.version}`, () => {
  let dataDir: string;
  let peer: SmtpPeer;
  let server: ServerProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "site-smoke-"));
    peer = await SmtpPeer.start();
    // Staff pages are reached at localhost (browsers take passkeys there, not at a bare address).
    const port = await freePort();
    server = await startServerProcess(
      {
        SITE_URL: `http://localhost:${port}`,
        DATA_DIR: dataDir,
        FORM_SECRET: TEST_FORM_SECRET,
        SMTP_URL: peer.url,
        MAIL_FROM: "website@sabarmatigrid.example",
        MAIL_TO: "enquiries@sabarmatigrid.example",
        LOG_LEVEL: "warn",
      },
      { port },
    );
    await server.ready();
  }, 120_000);
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    await peer?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = (pathname: string, init?: RequestInit) => fetch(`${server.baseUrl}${pathname}`, init);

  it("is ready and healthy", async () => {
    expect((await get("/readyz")).status).toBe(200);
    expect((await get("/healthz")).status).toBe(200);
  });

  it.each(siteRoutes)("renders $path with its heading", async ({ path: pathname, heading, status }) => {
    const response = await get(pathname);
    expect(response.status).toBe(status ?? 200);
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain(heading.replaceAll("&", "&amp;").replaceAll("'", "&#x27;"));
  });

  it("answers the JSON API, the feed, the sitemap and robots.txt", async () => {
    const posts = (await (await get("/api/blog-posts")).json()) as { slug: string }[];
    expect(posts.length).toBeGreaterThan(0);
    expect(await (await get("/rss.xml")).text()).toContain(`/blog/${posts[0]!.slug}`);
    expect(await (await get("/sitemap.xml")).text()).toContain("<urlset");
    expect(await (await get("/robots.txt")).text()).toContain("Sitemap:");
  });

  it("serves a page's picture, made by sharp, with its type", async () => {
    const html = await (await get("/")).text();
    const address = /srcSet="(\/media\/[^" ]+\.avif)/.exec(html)?.[1];
    expect(address).toBeDefined();
    const picture = await get(address!);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/avif");
    // Shown by a subscriber's mail client too, as the site's own icons are.
    expect(picture.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect((await get("/icon-512.png")).headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect((await get("/")).headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect((await picture.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it("stores an enquiry and mails it to the firm", async () => {
    const response = await get("/api/contact", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(enquiry({ firstName: "Smoke" })),
    });
    expect(response.status).toBe(201);
    const [mail] = await peer.waitForMessages(1);
    expect(mail!.headers.get("to")?.[0]).toContain("enquiries@sabarmatigrid.example");
  });

  it("lets a member of staff in by a sign-in link from npm run staff, and shows the back office", async () => {
    const origin = `http://localhost:${new URL(server.baseUrl).port}`;
    const command = (...args: string[]) =>
      run(process.execPath, ["--import", "tsx", "scripts/staff.ts", ...args], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, SITE_URL: origin },
      });
    await command("invite", "smoke@example.com", "--name", "Smoke Admin", "--role", "admin");
    const link = (await command("sign-in-link", "smoke@example.com")).stdout.trim().split("\n").at(-1)!;
    const linkPath = new URL(link).pathname;
    expect((await get(linkPath)).status).toBe(200);
    const used = await get(linkPath, { method: "POST", headers: { origin }, redirect: "manual" });
    expect(used.status).toBe(303);
    const cookie = used.headers.get("set-cookie")!.split(";")[0]!;
    const inbox = await get("/admin", { headers: { cookie } });
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toContain("Smoke Admin");
  }, 60_000);

  it("stops on SIGTERM with exit code 0", async () => {
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});
