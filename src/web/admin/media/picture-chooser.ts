import type { PictureChoicesAnswer, PictureChoiceView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { askAltText } from "./alt-dialog.ts";
import { sendAltText, sendPicture } from "./send-picture.ts";
import { element } from "../dom.ts";

// The one picture chooser of the back office (docs/decisions/057-one-picture-chooser.md): a modal
// <dialog> with the media library (searched by name and alt text, newest first, 48 at a time from
// /admin/api/media/choices) and "Upload a new picture" (a file field, which on a phone opens the
// photo picker). An upload goes through the library's own route, is described once (the alt
// dialog) when it has no alt text yet, and is chosen at once. The picture fields (picture-field.ts),
// the Body's Picture button, and any other editor call choosePicture(): it knows no field.

export type ChosenPicture = { src: string; alt: string; mediaId: string; thumbnail?: string; name: string };

/** How long the search waits after the last key before it asks. */
const SEARCH_PAUSE_MS = 250;

let opened = 0;

/** One page of the library's pictures, or a problem in words. */
async function fetchChoices(q: string, page: number): Promise<PictureChoicesAnswer | { problem: string }> {
  try {
    const query: Record<string, string> = {};
    if (q) query.q = q;
    if (page > 1) query.page = String(page);
    const response = await fetch(adminHref("mediaChoicesApi", {}, query), {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    const body = (await response.json().catch(() => undefined)) as unknown;
    if (response.ok) return body as PictureChoicesAnswer;
    const message = (body as { message?: unknown } | undefined)?.message;
    return { problem: typeof message === "string" ? message : `The server answered ${response.status}.` };
  } catch {
    return { problem: "The library could not be reached. Check the connection and try again." };
  }
}

const chosen = (picture: PictureChoiceView): ChosenPicture => ({
  src: picture.src,
  alt: picture.alt,
  mediaId: picture.mediaId,
  thumbnail: picture.thumbnail,
  name: picture.name,
});

/**
 * Opens the chooser; resolves with the picture chosen (from the library, or uploaded and
 * described), or null when it was closed without one.
 */
export function choosePicture(options: { purpose?: string } = {}): Promise<ChosenPicture | null> {
  const id = `picture-chooser-${(opened += 1)}`;
  const returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = element("dialog", {
    className:
      "m-auto flex max-h-[min(40rem,calc(100dvh-2rem))] w-[calc(100%-1.5rem)] max-w-2xl flex-col overflow-hidden rounded-lg border border-slate-300 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50 [&:not([open])]:hidden",
  });
  dialog.dataset.pictureChooser = "";
  dialog.setAttribute("aria-labelledby", `${id}-title`);

  const title = element("h2", {
    className: "text-lg font-semibold text-navy-900",
    text: options.purpose ? `Choose ${options.purpose}` : "Choose a picture",
  });
  title.id = `${id}-title`;
  const close = element("button", { className: "admin-button-secondary", text: "Cancel" });
  close.type = "button";
  const head = element(
    "div",
    { className: "flex items-center justify-between gap-3 border-b border-slate-200 p-4" },
    title,
    close,
  );

  // Upload: a file field of its own (no form: the dialog's form would submit the editor's).
  const fileLabel = element("label", { className: "admin-label", text: "Upload a new picture" });
  fileLabel.htmlFor = `${id}-file`;
  const file = element("input", { className: "block w-full min-w-0 text-sm" });
  file.type = "file";
  file.id = `${id}-file`;
  file.accept = "image/*";
  file.setAttribute("aria-describedby", `${id}-file-hint`);
  const fileHint = element("p", {
    className: "mt-1 text-xs text-slate-600",
    text: "JPEG, PNG, WebP or AVIF, up to 20 MB. It goes into the media library and is chosen here.",
  });
  fileHint.id = `${id}-file-hint`;
  const uploadStatus = element("p", { className: "mt-1 min-h-5 text-sm text-slate-700" });
  uploadStatus.setAttribute("aria-live", "polite");

  // The library: a search, the pictures, and "Show more".
  const searchLabel = element("label", { className: "admin-label", text: "Search the library" });
  searchLabel.htmlFor = `${id}-search`;
  const search = element("input", { className: "admin-input" });
  search.type = "search";
  search.id = `${id}-search`;
  search.maxLength = 100;
  search.autocomplete = "off";
  search.setAttribute("aria-describedby", `${id}-search-hint`);
  const searchHint = element("p", {
    className: "mt-1 text-xs text-slate-600",
    text: "By name or alt text. Newest first.",
  });
  searchHint.id = `${id}-search-hint`;
  const listStatus = element("p", { className: "min-h-5 text-sm text-slate-700" });
  listStatus.setAttribute("role", "status");
  const list = element("ul", { className: "grid grid-cols-2 gap-3 sm:grid-cols-3" });
  list.setAttribute("aria-label", "The library's pictures");
  const more = element("button", { className: "admin-button-secondary hidden", text: "Show more pictures" });
  more.type = "button";

  const bodyPart = element(
    "div",
    { className: "grid min-h-0 gap-4 overflow-y-auto p-4" },
    element(
      "div",
      { className: "rounded-md border border-slate-200 bg-slate-50 p-3" },
      fileLabel,
      file,
      fileHint,
      uploadStatus,
    ),
    element("div", {}, searchLabel, search, searchHint),
    listStatus,
    list,
    element("div", {}, more),
  );
  dialog.append(head, bodyPart);
  document.body.append(dialog);

  return new Promise((resolve) => {
    let answer: ChosenPicture | null = null;
    let page = 1;
    let asked = 0;
    let busy = false;
    const finish = (picture: ChosenPicture | null) => {
      answer = picture;
      dialog.close();
    };
    dialog.addEventListener("close", () => {
      dialog.remove();
      returnFocus?.focus();
      resolve(answer);
    });
    close.addEventListener("click", () => finish(null));

    const card = (picture: PictureChoiceView) => {
      const button = element("button", {
        className:
          "flex h-full w-full flex-col gap-1 rounded-md border border-slate-200 bg-white p-2 text-left text-sm hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600",
      });
      button.type = "button";
      button.dataset.pictureChoice = picture.mediaId;
      const image = element("img", { className: "aspect-video w-full rounded bg-slate-100 object-cover" });
      image.src = picture.thumbnail;
      image.alt = "";
      image.width = 160;
      image.height = 90;
      image.loading = "lazy";
      const name = element("span", { className: "font-medium break-words text-slate-900", text: picture.name });
      // The name is the alt text (cut when long): the second line is the rest of it, or the file's name.
      const words = picture.decorative
        ? `Decorative: no alt text. ${picture.fileName}`
        : picture.name !== picture.alt
          ? `Alt text: ${picture.alt}`
          : picture.fileName;
      const alt = element("span", { className: "line-clamp-2 text-xs break-words text-slate-600", text: words });
      button.append(image, name, alt);
      button.addEventListener("click", () => finish(chosen(picture)));
      return element("li", {}, button);
    };

    /** Page 1 of the search as typed (replacing the list), or the next page (added to it). */
    const load = async (next: boolean) => {
      const q = search.value.trim();
      const wanted = next ? page + 1 : 1;
      const ticket = (asked += 1);
      busy = true;
      more.disabled = true;
      listStatus.textContent = "Loading pictures…";
      const result = await fetchChoices(q, wanted);
      if (ticket !== asked) return;
      busy = false;
      more.disabled = false;
      if ("problem" in result) {
        listStatus.textContent = `The pictures could not be listed: ${result.problem}`;
        return;
      }
      page = wanted;
      const cards = result.items.map(card);
      if (next) list.append(...cards);
      else list.replaceChildren(...cards);
      const shown = list.childElementCount;
      listStatus.textContent = shown
        ? `${shown.toLocaleString("en-IN")} ${shown === 1 ? "picture" : "pictures"}${result.more ? ", more below" : ""}${q ? ` found for “${q}”` : ""}.`
        : q
          ? `No picture's name or alt text has “${q}”.`
          : "The library has no pictures ready to use yet: upload one above.";
      more.classList.toggle("hidden", !result.more);
      if (next) (cards[0]?.querySelector("button") ?? more).focus();
    };

    let timer: ReturnType<typeof setTimeout> | undefined;
    search.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(false), SEARCH_PAUSE_MS);
    });
    // Enter in the search asks at once, and never submits the page's form.
    search.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      clearTimeout(timer);
      void load(false);
    });
    more.addEventListener("click", () => {
      if (!busy) void load(true);
    });

    const say = (text: string, problem = false) => {
      uploadStatus.textContent = text;
      uploadStatus.classList.toggle("text-red-800", problem);
      uploadStatus.setAttribute("role", problem ? "alert" : "status");
    };
    file.addEventListener("change", () => {
      const picked = file.files?.[0];
      if (!picked) return;
      void (async () => {
        file.disabled = true;
        const label = picked.name || "the picture";
        say(`Sending “${label}”…`);
        const sent = await sendPicture(picked, (fraction) =>
          say(fraction < 1 ? `Sending “${label}”… ${Math.round(fraction * 100)} %` : `Making “${label}” ready…`),
        );
        file.disabled = false;
        file.value = "";
        if (!sent.ok) {
          say(`Not uploaded: ${sent.message}`, true);
          file.focus();
          return;
        }
        const picture = sent.answer;
        let described = { alt: picture.alt, decorative: picture.decorative };
        if (!picture.alt && !picture.decorative) {
          say(`“${picture.fileName}” is in the library. Describe it to choose it.`);
          const given = await askAltText(
            picture,
            async (value) => {
              const stored = await sendAltText(picture.id, value);
              return stored.ok ? undefined : stored.message;
            },
            { action: "Save and choose" },
          );
          if (!given) {
            say(
              `“${picture.fileName}” is in the media library, without alt text: describe it to choose it, here or on its page in the library.`,
            );
            file.focus();
            return;
          }
          described = given;
        }
        finish({
          src: picture.reference,
          alt: described.decorative ? "" : described.alt,
          mediaId: picture.id,
          thumbnail: picture.thumbnail,
          name: described.decorative || !described.alt ? picture.fileName : described.alt,
        });
      })();
    });

    dialog.showModal();
    search.focus();
    void load(false);
  });
}
