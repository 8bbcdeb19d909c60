import { CONTENT_LIMITS } from "#shared/content/documents.ts";
import { element } from "../dom.ts";

// The question asked after a picture is pasted or dropped into the article editor, or uploaded in
// the picture chooser: "Alt text", or "Decorative". A modal <dialog>, centred (m-auto: the page's
// reset takes the browser's auto margins away), focus moving into it and back, Escape cancelling;
// `save` stores the answer in the library and returns a problem to show, or nothing when stored.

export type AltAnswer = { alt: string; decorative: boolean };

let opened = 0;

/** Asks for a picture's alt text; resolves with what was stored, or undefined when cancelled. */
export function askAltText(
  picture: { fileName: string; thumbnail: string; alt: string; decorative: boolean },
  save: (answer: AltAnswer) => Promise<string | undefined>,
  options: { action?: string } = {},
): Promise<AltAnswer | undefined> {
  const id = `media-alt-dialog-${(opened += 1)}`;
  const returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = element("dialog", {
    className:
      "m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-1.5rem)] max-w-lg overflow-y-auto rounded-lg border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50",
  });
  dialog.setAttribute("aria-labelledby", `${id}-title`);
  const form = element("form", { className: "space-y-4 p-5" });
  form.noValidate = true;
  const title = element("h2", { className: "text-lg font-semibold text-navy-900", text: "Describe the picture" });
  title.id = `${id}-title`;
  const image = element("img", { className: "max-h-40 w-auto rounded bg-slate-100" });
  image.src = picture.thumbnail;
  image.alt = "";
  const name = element("p", { className: "text-sm break-all text-slate-600", text: picture.fileName });

  const altLabel = element("label", { className: "admin-label", text: "Alt text" });
  altLabel.htmlFor = `${id}-alt`;
  const alt = element("input", { className: "admin-input" });
  alt.id = `${id}-alt`;
  alt.type = "text";
  alt.maxLength = CONTENT_LIMITS.imageAlt;
  alt.value = picture.alt;
  alt.setAttribute("aria-describedby", `${id}-alt-hint`);
  const altHint = element("p", {
    className: "mt-1 text-xs text-slate-600",
    text: "What the picture shows, for those who cannot see it, in a sentence.",
  });
  altHint.id = `${id}-alt-hint`;

  const decorative = element("input", { className: "h-5 w-5" });
  decorative.type = "checkbox";
  decorative.id = `${id}-decorative`;
  decorative.checked = picture.decorative;
  const decorativeLabel = element("label", { className: "text-sm font-medium text-slate-800", text: "Decorative" });
  decorativeLabel.htmlFor = decorative.id;
  const decorativeHint = element("p", {
    className: "mt-1 text-xs text-slate-600",
    text: "It adds nothing a reader needs: it is shown with empty alt text.",
  });

  const problem = element("p", { className: "text-sm font-medium text-red-700" });
  problem.id = `${id}-problem`;
  problem.setAttribute("role", "alert");
  const insert = element("button", { className: "admin-button", text: options.action ?? "Insert" });
  insert.type = "submit";
  const cancel = element("button", { className: "admin-button-secondary", text: "Cancel" });
  cancel.type = "button";

  form.append(
    title,
    image,
    name,
    element("div", {}, altLabel, alt, altHint),
    element(
      "div",
      {},
      element("div", { className: "flex items-center gap-2" }, decorative, decorativeLabel),
      decorativeHint,
    ),
    problem,
    element("div", { className: "flex flex-wrap gap-2" }, insert, cancel),
  );
  dialog.append(form);
  document.body.append(dialog);

  const sync = () => {
    alt.disabled = decorative.checked;
  };
  decorative.addEventListener("change", sync);
  sync();

  return new Promise((resolve) => {
    let answer: AltAnswer | undefined;
    const close = () => dialog.close();
    dialog.addEventListener("close", () => {
      dialog.remove();
      returnFocus?.focus();
      resolve(answer);
    });
    cancel.addEventListener("click", close);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value: AltAnswer = { alt: decorative.checked ? "" : alt.value.trim(), decorative: decorative.checked };
      if (!value.decorative && !value.alt) {
        problem.textContent = "Write the alt text, or tick Decorative if the picture adds nothing a reader needs.";
        alt.setAttribute("aria-invalid", "true");
        alt.setAttribute("aria-describedby", `${problem.id} ${altHint.id}`);
        alt.focus();
        return;
      }
      insert.disabled = true;
      problem.textContent = "";
      void save(value).then((refused) => {
        insert.disabled = false;
        if (refused) {
          problem.textContent = refused;
          alt.focus();
          return;
        }
        answer = value;
        close();
      });
    });
    dialog.showModal();
    (decorative.checked ? decorative : alt).focus();
  });
}
