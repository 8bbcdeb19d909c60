import type { DiffPart } from "#shared/admin/diff-parts.ts";
import type { LinkCard } from "#shared/link-card.ts";
import { cardSvg } from "../cards/card-layout.ts";
import { bodyDiff } from "../admin/studio/compare.ts";
import { type MediaIndex, type MediaRow, mediaIndexOf } from "./media-index.ts";
import { type RenderedArticle, renderArticleMarkdown, renderedAddresses, sitePathsLinked } from "./render-markdown.ts";

// The renderer's worker thread: what render-pool.ts sends it, done here, off the server's event
// loop. Each task is a pure function of what it carries; the media library's index is made from
// the rows sent with a rendering and kept while their fingerprint is the same.
// docs/decisions/049-markdown-rendered-off-the-event-loop.md.

export type RenderTask =
  | { kind: "render"; markdown: string; media: { fingerprint: string; rows: readonly MediaRow[] } }
  | { kind: "addresses"; markdown: string }
  | { kind: "links"; markdown: string }
  | { kind: "diff"; from: string; to: string }
  /** A link-preview card laid out as SVG (cards/card-layout.ts); `photo` a data: URL. */
  | { kind: "card"; card: LinkCard; photo?: string };

export type RenderTaskResult<Task extends RenderTask> = Task extends { kind: "render" }
  ? RenderedArticle
  : Task extends { kind: "diff" }
    ? DiffPart[] | null
    : Task extends { kind: "card" }
      ? string
      : string[];

let index: MediaIndex | undefined;

export default function run(task: RenderTask): RenderedArticle | string[] | DiffPart[] | null | Promise<string> {
  switch (task.kind) {
    case "render": {
      if (index?.fingerprint !== task.media.fingerprint) index = mediaIndexOf([...task.media.rows]);
      return renderArticleMarkdown(task.markdown, { resolveImage: index.resolve });
    }
    case "addresses":
      return renderedAddresses(task.markdown);
    case "links":
      return sitePathsLinked(task.markdown);
    case "diff":
      return bodyDiff(task.from, task.to) ?? null;
    case "card":
      return cardSvg(task.card, task.photo);
  }
}
