import { sendPicture } from "./send-picture.ts";
import { element } from "../dom.ts";

// The library page's upload, on top of its plain form (src/web/admin/pages/media/media-page.tsx):
// several files at once from the file field, or dropped on the page; each sent in turn with its
// progress and its own message (added, in the library already, or refused with the rule it
// broke). Loaded by admin-client.ts only on the library's page, as a chunk of its own.

export function startUploader(section: HTMLElement): void {
  const form = section.querySelector<HTMLFormElement>("form[data-media-upload-form]");
  const input = form?.querySelector<HTMLInputElement>('input[type="file"]');
  const drop = section.querySelector<HTMLElement>("[data-media-drop]");
  const list = section.querySelector<HTMLOListElement>("[data-media-progress]");
  if (!form || !input || !drop || !list) return;
  input.multiple = true;
  input.required = false;
  drop.classList.remove("hidden");
  drop.hidden = false;

  let queue: Promise<void> = Promise.resolve();
  let added = 0;
  let refreshLink: HTMLElement | undefined;

  /** One file: its line, then its upload (after those before it), then its message. */
  function send(file: File) {
    const line = element("li", { className: "rounded-md border border-slate-200 bg-slate-50 p-3" });
    const name = element("span", { className: "font-medium break-all", text: file.name || "Pasted picture" });
    const progress = element("progress", { className: "ml-2 align-middle" });
    progress.max = 100;
    progress.value = 0;
    progress.setAttribute("aria-label", `Upload of ${file.name}`);
    const status = element("span", { className: "ml-2 text-slate-700", text: "Waiting…" });
    line.append(name, progress, status);
    list!.append(line);
    queue = queue.then(async () => {
      status.textContent = "Sending…";
      const outcome = await sendPicture(file, (fraction) => {
        progress.value = Math.round(fraction * 100);
        status.textContent = fraction < 1 ? `Sending… ${Math.round(fraction * 100)} %` : "Making it ready…";
      });
      progress.remove();
      if (!outcome.ok) {
        line.className = "rounded-md border border-red-300 bg-red-50 p-3 text-red-900";
        status.textContent = outcome.message;
        status.className = "mt-1 block";
        status.setAttribute("role", "alert");
        return;
      }
      const { answer } = outcome;
      if (!answer.existing) added += 1;
      line.className = "rounded-md border border-green-300 bg-green-50 p-3 text-green-950";
      status.className = "mt-1 block";
      status.textContent = `${answer.message} `;
      const link = element("a", {
        className: "admin-link",
        text: answer.alt || answer.decorative ? "Open it" : "Write its alt text",
      });
      link.href = answer.href;
      status.append(link);
    });
    void queue.then(() => {
      if (!added || refreshLink) return;
      refreshLink = element("p", { className: "mt-2 text-sm" });
      const reload = element("a", { className: "admin-link", text: "Show the new pictures in the library" });
      reload.href = window.location.pathname;
      refreshLink.append(reload);
      list!.after(refreshLink);
    });
  }

  form.addEventListener("submit", (event) => {
    const files = [...(input.files ?? [])];
    event.preventDefault();
    if (!files.length) {
      input.focus();
      return;
    }
    for (const file of files) send(file);
    input.value = "";
  });

  // Dropping files anywhere on the page uploads them (and never opens them in the tab instead).
  const hasFiles = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes("Files");
  document.addEventListener("dragover", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    drop.classList.add("border-brand-600", "bg-brand-50");
  });
  document.addEventListener("dragleave", (event) => {
    if (event.relatedTarget === null) drop.classList.remove("border-brand-600", "bg-brand-50");
  });
  document.addEventListener("drop", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    drop.classList.remove("border-brand-600", "bg-brand-50");
    for (const file of event.dataTransfer?.files ?? []) send(file);
  });
  section.dataset.mediaUploaderReady = "true";
}
