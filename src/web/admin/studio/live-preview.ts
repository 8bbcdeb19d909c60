import type { MarkdownPreviewAnswer } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { byteLength, retryAfterSeconds } from "./autosave-answer.ts";
import { debounce } from "./autosave-schedule.ts";
import { isShown, setShown } from "./visibility.ts";

// The Body's live preview: the server renders the Markdown as the article page does (POST
// markdownPreview) 300 ms after a pause, into a panel styled by the public article body's own
// rules (src/web/article-body.css). From 1024 px wide it stands beside the text, in view as the
// page scrolls, and shows the part the caret is in; below that a "Write" / "Preview" tab pair
// shows one at a time.

export const PREVIEW_PAUSE_MS = 300;

/** What the preview says while the session's limit of previews makes it wait (429). */
export const previewWaitText = (seconds: number) =>
  `The preview waits: too many previews this minute. It updates again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`;

export function setupLivePreview(
  root: HTMLElement,
  textarea: HTMLTextAreaElement,
  limit: number,
  caret?: { caretBlock(): { index: number; count: number } },
): void {
  const tabs = root.querySelector<HTMLElement>("[data-studio-tabs]");
  const panes = root.querySelector<HTMLElement>("[data-studio-panes]");
  const write = root.querySelector<HTMLElement>('[data-studio-pane="write"]');
  const preview = root.querySelector<HTMLElement>('[data-studio-pane="preview"]');
  const output = root.querySelector<HTMLElement>("[data-studio-preview]");
  const status = root.querySelector<HTMLElement>("[data-studio-preview-status]");
  if (!tabs || !panes || !write || !preview || !output || !status) return;
  const tabButtons = [...tabs.querySelectorAll<HTMLButtonElement>("[data-studio-tab]")];
  const wide = window.matchMedia("(min-width: 1024px)");
  let active: "write" | "preview" = "write";
  let stale = true;
  let sequence = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const refresh = async () => {
    stale = false;
    const mine = ++sequence;
    const payload = JSON.stringify({ body: textarea.value });
    if (byteLength(payload) > limit) {
      status.textContent = "The body is too large to preview.";
      return;
    }
    try {
      const response = await fetch(adminHref("markdownPreview"), {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: payload,
        credentials: "same-origin",
      });
      const answer = (await response.json().catch(() => ({}))) as Partial<MarkdownPreviewAnswer> & {
        message?: string;
      };
      if (mine !== sequence) return;
      if (response.status === 429) {
        // Too many previews from this session this minute: the text is the editor's, nothing is
        // lost; the preview follows once the wait is over.
        const seconds = retryAfterSeconds(response.headers.get("retry-after"));
        status.textContent = previewWaitText(seconds);
        stale = true;
        clearTimeout(retry);
        retry = setTimeout(() => {
          if (stale && isShown(preview)) void refresh();
        }, seconds * 1000);
        return;
      }
      if (!response.ok || typeof answer.html !== "string") {
        status.textContent = `No preview: ${answer.message ?? `the site answered ${response.status}`}.`;
        stale = true;
        return;
      }
      // The server's own rendering of the body, sanitised as the article page's is.
      output.innerHTML = answer.html;
      status.textContent = `${answer.words ?? 0} words, about ${answer.readingMinutes ?? 1} min to read.`;
    } catch {
      if (mine !== sequence) return;
      status.textContent = "No preview: the site could not be reached. It tries again when you type.";
      stale = true;
    }
  };

  const layout = () => {
    const split = wide.matches;
    setShown(tabs, !split);
    panes.toggleAttribute("data-split", split);
    for (const [pane, name] of [
      [write, "write"],
      [preview, "preview"],
    ] as const) {
      if (split) {
        pane.removeAttribute("role");
        pane.removeAttribute("aria-labelledby");
        setShown(pane, true);
      } else {
        pane.setAttribute("role", "tabpanel");
        pane.setAttribute("aria-labelledby", `body-tab-${name}`);
        setShown(pane, active === name);
      }
    }
    for (const button of tabButtons) {
      const selected = button.dataset.studioTab === active;
      button.setAttribute("aria-selected", String(selected));
      button.tabIndex = selected ? 0 : -1;
    }
    if (isShown(preview) && stale) void refresh();
  };

  const choose = (name: "write" | "preview", focus: boolean) => {
    active = name;
    layout();
    if (focus) tabButtons.find((button) => button.dataset.studioTab === name)?.focus();
  };
  for (const button of tabButtons) {
    button.addEventListener("click", () => choose(button.dataset.studioTab === "preview" ? "preview" : "write", false));
  }
  tabs.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    event.preventDefault();
    const next =
      event.key === "Home" ? "write" : event.key === "End" ? "preview" : active === "write" ? "preview" : "write";
    choose(next, true);
  });

  const later = debounce(() => {
    if (!isShown(preview)) stale = true;
    else void refresh();
  }, PREVIEW_PAUSE_MS);
  textarea.addEventListener("input", () => {
    stale = true;
    later();
  });
  wide.addEventListener("change", layout);
  layout();

  // Beside the text, the preview follows the writer: it scrolls to the block the caret is in
  // (the preview's top-level elements are the document's blocks, in order).
  let pending = false;
  const follow = () => {
    pending = false;
    if (!caret || !panes.hasAttribute("data-split")) return;
    const active = document.activeElement;
    if (!active || !write.contains(active) || root.querySelector("[data-studio-toolbar]")?.contains(active)) return;
    const { index, count } = caret.caretBlock();
    const blocks = output.children;
    if (!blocks.length) return;
    const target = blocks[Math.min(blocks.length - 1, Math.round((index * blocks.length) / Math.max(count, 1)))];
    if (target instanceof HTMLElement) preview.scrollTo({ top: Math.max(0, target.offsetTop - 48) });
  };
  // The wheel over the preview scrolls it (it is not a scrolling region of its own, admin.css).
  preview.addEventListener(
    "wheel",
    (event) => {
      if (!panes.hasAttribute("data-split")) return;
      const before = preview.scrollTop;
      preview.scrollTop += event.deltaY;
      if (preview.scrollTop !== before) event.preventDefault();
    },
    { passive: false },
  );
  document.addEventListener("selectionchange", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(follow);
  });
}
