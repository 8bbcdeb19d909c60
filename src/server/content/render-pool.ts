import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import type { DiffPart } from "#shared/admin/diff-parts.ts";
import type { LinkCard } from "#shared/link-card.ts";
import type { MediaIndex } from "./media-index.ts";
import { type RenderedArticle, renderAsText } from "./render-markdown.ts";
import type { RenderTask } from "./render-worker.ts";

// Markdown is rendered off the event loop. A body of 100,000 characters in the worst shapes the
// studio accepts (a wide table, deep lists, runs of emphasis) costs the parser a few hundred
// milliseconds, and every request the server holds would wait that long behind it: the live
// preview, a draft's /preview/* page, the editor's checks, which pictures a body uses, a published
// article rendered again after the content moved. So all of it goes to a worker thread
// (render-worker.ts), and the event loop only waits for the answer.
// docs/decisions/049-markdown-rendered-off-the-event-loop.md.
//
// Link-preview cards are laid out there too (cards/card-layout.ts), for the same reason.
//
// Bounds: one task takes at most RENDER_TIME_LIMIT_MS, waiting included; at most RENDER_QUEUE_MAX
// wait. A rendering that cannot be had in time (a slow body, a full queue, a worker that died) is
// the body as its text, marked `inTime: false` so that no cache keeps it; the addresses and links
// of such a body are read from its text by one linear scan.

/** The most a task may take, from asking to its answer: a worker still busy then is stopped. */
export const RENDER_TIME_LIMIT_MS = 10_000;
/** The most tasks that may wait for the worker. */
export const RENDER_QUEUE_MAX = 256;

/** A body rendered, and whether the worker rendered it (false: its text, as a stand-in). */
export type PooledRendering = RenderedArticle & { inTime: boolean };

const here = fileURLToPath(import.meta.url);
/** Compiled, this module is part of dist/server-node/main.js, beside which the build puts the worker. */
const compiled = path.extname(here) === ".js";

let pool: Piscina | undefined;

function renderPool(): Piscina {
  pool ??= new Piscina({
    filename: compiled
      ? pathToFileURL(path.join(path.dirname(here), "render-worker.js")).href
      : pathToFileURL(path.join(path.dirname(here), "render-worker-source.mjs")).href,
    workerData: compiled
      ? {}
      : { renderWorkerModule: pathToFileURL(path.join(path.dirname(here), "render-worker.ts")).href },
    // One thread: the event loop keeps the other CPU of a small machine, and bodies are rendered
    // one after another (each is tens of milliseconds; a pathological one a few hundred).
    minThreads: 0,
    maxThreads: 1,
    // Kept a while after its last task, so that a writer's previews do not start it each time.
    idleTimeout: 60_000,
    maxQueue: RENDER_QUEUE_MAX,
    // A body cannot make the worker take the process's memory.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  return pool;
}

async function runTask(task: RenderTask, timeLimitMs = RENDER_TIME_LIMIT_MS): Promise<unknown> {
  return renderPool().run(task, { signal: AbortSignal.timeout(timeLimitMs) });
}

/**
 * A body rendered as the article page renders it, with the library's pictures of `images`.
 * `timeLimitMs` is RENDER_TIME_LIMIT_MS but in the tests of the stand-in.
 */
export async function renderBody(
  markdown: string,
  images: MediaIndex,
  timeLimitMs = RENDER_TIME_LIMIT_MS,
): Promise<PooledRendering> {
  try {
    const task: RenderTask = {
      kind: "render",
      markdown,
      media: { fingerprint: images.fingerprint, rows: images.rows },
    };
    const rendered = (await runTask(task, timeLimitMs)) as RenderedArticle;
    return { ...rendered, inTime: true };
  } catch {
    return { ...renderAsText(markdown), inTime: false };
  }
}

/** Anything that looks like a site address in a text: what a body's text points at, as a stand-in. */
const ADDRESS_IN_TEXT = /\/[^\s"'<>()[\]`]*/g;

/**
 * What a body points at once rendered (render-markdown.ts, renderedAddresses): the references of
 * its images and the hrefs of its links. When the worker cannot say in time, every address-like
 * run of the text instead: more than the renderer would find, never less of what is written
 * plainly, so that a picture a body names is not taken for unused.
 */
export async function bodyAddresses(markdown: string): Promise<string[]> {
  try {
    return (await runTask({ kind: "addresses", markdown })) as string[];
  } catch {
    return [...new Set(markdown.match(ADDRESS_IN_TEXT) ?? [])];
  }
}

/** The site paths a body links to (render-markdown.ts, sitePathsLinked); none when the worker cannot say in time. */
export async function sitePathsLinked(markdown: string): Promise<string[]> {
  try {
    return (await runTask({ kind: "links", markdown })) as string[];
  } catch {
    return [];
  }
}

/**
 * Two texts compared line by line (admin/studio/compare.ts, bodyDiff), on the worker: the bound on
 * a comparison (DIFF_MAX_EDITS) still let one hold the event loop 0.7 s. Undefined
 * when they differ too much to compare within the bound, or the worker cannot say in time.
 */
export async function bodyDiffOffThread(from: string, to: string): Promise<DiffPart[] | undefined> {
  try {
    return ((await runTask({ kind: "diff", from, to })) as DiffPart[] | null) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * A link-preview card laid out as SVG on the worker (cards/card-layout.ts): satori's layout is
 * synchronous, and a process's first parses the fonts for about a second. Throws when the worker
 * cannot answer in time (the card is then not made: a 503, asked again later).
 */
export async function cardSvgOffThread(card: LinkCard, photo?: string): Promise<string> {
  const task: RenderTask = photo ? { kind: "card", card, photo } : { kind: "card", card };
  return (await runTask(task)) as string;
}

/** Stops the worker (the process's end, a test's). A later task starts a new one. */
export async function closeRenderPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}
