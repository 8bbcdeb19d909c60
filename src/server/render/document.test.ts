import { describe, expect, it } from "vitest";
import type { RenderedPage } from "#shared/page-rendering.ts";
import { renderDocument } from "./document.ts";

const page = {
  status: 200,
  appHtml: "<main><h1>Power System Studies</h1></main>",
  islands: [["menuButton", {}]],
  islandModules: ["src/web/components/site-header.tsx"],
  meta: { title: "Power System Studies", description: "Studies." },
} as unknown as RenderedPage;

const assets = {
  scripts: ["/assets/entry-client-abc.js"],
  styles: ["/assets/entry-client-abc.css"],
  preloads: ["/assets/framework-abc.js", "/assets/services-page-abc.js"],
};

describe("the document's scripts", () => {
  it("in production, links only the boot script and lists the page's modules as data for it", () => {
    const html = renderDocument({
      page,
      assets: { ...assets, boot: "/assets/boot-abc.js" },
      siteUrl: "https://x.test",
      pathname: "/services",
    });
    const scripts = [...html.matchAll(/<script type="module" src="([^"]+)"><\/script>/g)].map((match) => match[1]);
    expect(scripts).toEqual(["/assets/boot-abc.js"]);
    expect(html).not.toContain("modulepreload");
    const data = /<script type="application\/json" id="page-scripts">([^<]+)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(data!)).toEqual({ entry: "/assets/entry-client-abc.js", modules: assets.preloads });
    expect(html).toContain('<link rel="stylesheet" href="/assets/entry-client-abc.css">');
  });

  it("in development (no boot script), links the entry and preloads its modules directly", () => {
    const html = renderDocument({ page, assets, siteUrl: "https://x.test", pathname: "/services" });
    expect(html).toContain('<script type="module" src="/assets/entry-client-abc.js"></script>');
    expect(html).toContain('<link rel="modulepreload" href="/assets/framework-abc.js">');
    expect(html).not.toContain('id="page-scripts"');
  });
});
