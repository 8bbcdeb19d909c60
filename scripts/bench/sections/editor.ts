import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { createSession } from "../../../src/server/admin/door/sessions.ts";
import { inviteStaff } from "../../../src/server/admin/staff/staff-repository.ts";
import { openDatabase } from "../../../src/server/db/client.ts";
import { applyMigrations } from "../../../src/server/db/migrate.ts";
import { root, startSite } from "../processes.ts";
import { table } from "../report.ts";
import { defineSection } from "../section.ts";
import { longArticle } from "./studio.ts";

// The studio's visual editor (docs/performance.md, "The studio's editor"; decision 056):
// - the size of the editor's chunk, the script only the studio's editor pages load, minified and
//   gzipped (level 9, as scripts/compress-assets.ts serves it);
// - in Chromium (Debian's, as the browser tests use it), an article of 5,000 words opened in the
//   editor: the time from asking for the page to the editor ready (its script started, the
//   document shown in Write), and to the first key typed at its end shown on the screen; RUNS
//   times, the median and the slowest;
// - each key typed into that article in Write, from the key to the Markdown written into the
//   form's field (the document serialised on every change): KEYS keys, the median and the slowest.

const RUNS = 5;
const KEYS = 30;

type Summary = { p50: number; max: number; runs: number };
const round = (value: number) => Math.round(value * 10) / 10;
const summary = (samples: number[]): Summary => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: round(sorted[Math.floor((sorted.length - 1) / 2)] ?? 0),
    max: round(sorted.at(-1) ?? 0),
    runs: sorted.length,
  };
};

export type EditorResult = {
  chunk: { file: string; bytes: number; gzipBytes: number };
  words: number;
  ready: Summary;
  firstKeyShown: Summary;
  keyToMarkdown: Summary;
};

function editorChunk(): EditorResult["chunk"] {
  const assets = path.join(root, "dist/client/assets");
  const file = readdirSync(assets).find((name) => /^editor-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("no editor chunk in dist/client/assets: build first");
  const bytes = readFileSync(path.join(assets, file));
  return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}

export const editorSection = defineSection<EditorResult>({
  name: "editor",
  description:
    "the studio's editor: its chunk's gzip size; a 5,000-word article opened to ready and to the first key shown; each key to its Markdown",
  usesWrk: false,
  async run(settings, progress) {
    const chunk = editorChunk();
    progress(`editor: ${chunk.file}: ${chunk.bytes} bytes, ${chunk.gzipBytes} gzipped`);
    const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-editor-"));
    const dataDir = path.join(scratch, "data");
    let cookie: string;
    const handle = await openDatabase({ dataDir });
    try {
      await applyMigrations(handle.db);
      const now = new Date();
      const { member } = await inviteStaff(
        handle.db,
        { email: "bench@example.com", name: "Bench", role: "admin" },
        now,
      );
      cookie = await createSession(handle.db, member.id, { method: "passkey", device: "bench", now });
    } finally {
      await handle.close();
    }
    const site = await startSite({ logLevel: settings.logLevel, dataDir });
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu"],
    });
    try {
      const body = longArticle();
      const words = body.split(/\s+/).filter(Boolean).length;
      const created = await fetch(`${site.base}/admin/articles`, {
        method: "POST",
        redirect: "manual",
        headers: {
          cookie: `staff_session=${cookie}`,
          origin: site.base,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          title: "Bench article for the editor",
          slug: "bench-editor",
          excerpt: "",
          category: "",
          author: "",
          imageUrl: "",
          imageAlt: "",
          publishedAt: "",
          body,
        }).toString(),
      });
      const location = created.headers.get("location") ?? "";
      const id = /\/admin\/articles\/([0-9a-f-]{36})/.exec(location)?.[1];
      if (created.status !== 303 || !id) throw new Error(`creating the article answered ${created.status}`);

      const ready: number[] = [];
      const firstKey: number[] = [];
      const perKey: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        await context.addCookies([{ name: "staff_session", value: cookie, url: site.base }]);
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(`${site.base}/admin/articles/${id}`, { waitUntil: "commit" });
        await page.locator("form[data-studio-editor][data-studio-ready=true]").waitFor();
        ready.push(performance.now() - started);
        const visual = page.locator("#article-body-visual");
        // The end of the text, a key, and the key on the screen (the next frame painted after it).
        await visual.evaluate((element) => {
          element.focus();
          const selection = window.getSelection()!;
          selection.selectAllChildren(element);
          selection.collapseToEnd();
        });
        await page.keyboard.press("x");
        await page.waitForFunction(
          () =>
            new Promise<boolean>((resolve) =>
              requestAnimationFrame(() =>
                resolve(
                  Boolean(document.querySelector("#article-body-visual")?.lastElementChild?.textContent?.endsWith("x")),
                ),
              ),
            ),
        );
        firstKey.push(performance.now() - started);
        // Keys, each timed in the page from keydown to the form's field written.
        const times = await page.evaluate(async (keys) => {
          const field = document.querySelector<HTMLTextAreaElement>("textarea[name=body]")!;
          const editor = document.querySelector<HTMLElement>("#article-body-visual")!;
          const samples: number[] = [];
          let down = 0;
          editor.addEventListener("keydown", () => (down = performance.now()), { capture: true });
          field.addEventListener("input", () => {
            if (down) samples.push(performance.now() - down);
            down = 0;
          });
          (window as unknown as { benchKeys: number[] }).benchKeys = samples;
          return keys;
        }, KEYS);
        for (let key = 0; key < times; key += 1) await page.keyboard.press("y");
        perKey.push(...(await page.evaluate(() => (window as unknown as { benchKeys: number[] }).benchKeys)));
        progress(
          `editor: run ${run + 1}: ready after ${round(ready.at(-1)!)} ms, first key shown after ${round(firstKey.at(-1)!)} ms`,
        );
        await context.close();
      }
      return {
        chunk,
        words,
        ready: summary(ready),
        firstKeyShown: summary(firstKey),
        keyToMarkdown: summary(perKey),
      };
    } finally {
      await browser.close();
      await site.stop();
      await rm(scratch, { recursive: true, force: true });
    }
  },
  format(result) {
    return [
      `the editor's chunk ${result.chunk.file}: ${result.chunk.bytes} bytes, ${result.chunk.gzipBytes} gzipped`,
      table(
        ["Chromium, 1280 px", "p50 ms", "max ms", "runs"],
        [
          [
            `a ${result.words}-word article: opened to the editor ready`,
            result.ready.p50,
            result.ready.max,
            result.ready.runs,
          ],
          [
            "opened to the first key at its end shown",
            result.firstKeyShown.p50,
            result.firstKeyShown.max,
            result.firstKeyShown.runs,
          ],
          [
            "a key in Write to its Markdown in the form's field",
            result.keyToMarkdown.p50,
            result.keyToMarkdown.max,
            result.keyToMarkdown.runs,
          ],
        ],
      ),
    ].join("\n");
  },
});
