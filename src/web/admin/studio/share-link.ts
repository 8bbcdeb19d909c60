// Share preview in place (docs/decisions/058-history-says-what-changed.md). Without JavaScript the
// form posts, the server makes the link and answers 303 to the editor at ?shared=<id>#share-link,
// which shows the link where the button was. With it, the same post is sent by fetch, which
// follows the same redirect: the answer's "Preview and share" section replaces this one, so the
// link appears where the button was without the page moving, and the address becomes the answer's
// (a reload shows the same link again, never a new one). The Copy button copies the link (the
// Clipboard API, or the selection where the browser refuses it) and says "Copied".

const COPIED = "Copied";
const NOT_COPIED = "Not copied: the link is selected, press Ctrl+C (⌘C on a Mac) to copy it.";

/** Copies the text of the field `input`; true when the browser says it did. */
async function copyField(input: HTMLInputElement): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(input.value);
      return true;
    }
  } catch {
    // Refused (no permission, not a secure context): the selection below.
  }
  input.focus();
  input.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

/** Shows the Copy buttons of `root` (hidden without a script) and makes them copy. */
function setupCopyButtons(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-studio-copy]")) {
    button.classList.remove("hidden");
    button.addEventListener("click", async () => {
      const input = document.getElementById(button.dataset.studioCopy ?? "");
      if (!(input instanceof HTMLInputElement)) return;
      const status = button.closest("[data-studio-issued-link]")?.querySelector("[data-studio-copy-status]");
      const copied = await copyField(input);
      if (status) {
        // A new text each time, so a second press is announced again.
        status.textContent = "";
        window.setTimeout(() => (status.textContent = copied ? COPIED : NOT_COPIED), 50);
      }
    });
  }
}

/** What admin-client.ts does for the page's forms and fields when it loads, for a section put in since. */
function wireAsThePageDoes(root: ParentNode): void {
  for (const form of root.querySelectorAll<HTMLFormElement>("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm ?? "Are you sure?")) event.preventDefault();
    });
  }
  for (const input of root.querySelectorAll<HTMLInputElement>("input[data-select-on-focus]")) {
    input.addEventListener("focus", () => input.select());
  }
}

/** The section's Share preview form, sent by fetch; the answer's section takes its place. */
function setupShareForm(section: HTMLElement): void {
  const form = section.querySelector<HTMLFormElement>("form[data-studio-share-form]");
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (button?.disabled) return;
    if (button) button.disabled = true;
    try {
      const answer = await fetch(form.action, {
        method: "POST",
        body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
        credentials: "same-origin",
        headers: { accept: "text/html" },
      });
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const next = page.querySelector<HTMLElement>("section[data-studio-share]");
      if (!answer.ok || !answer.redirected || !next) {
        // A refusal (or an answer without the section): the page as the server sent it.
        form.submit();
        return;
      }
      const fresh = document.importNode(next, true);
      section.replaceWith(fresh);
      wireAsThePageDoes(fresh);
      history.replaceState(history.state, "", `${answer.url}#share-link`);
      startShareLink(fresh);
      fresh.querySelector<HTMLElement>("#share-link")?.focus();
    } catch {
      // The network failed: the plain post, which says what happened.
      form.submit();
    }
  });
}

/** Share preview in place and Copy, in the "Preview and share" section of the editor. */
export function startShareLink(section: HTMLElement): void {
  setupCopyButtons(section);
  setupShareForm(section);
}

/** The editor page's section, when it has one. */
export function setupShareLink(): void {
  const section = document.querySelector<HTMLElement>("section[data-studio-share]");
  if (section) startShareLink(section);
}
