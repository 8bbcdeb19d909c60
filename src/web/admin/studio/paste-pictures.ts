import { askAltText } from "../media/alt-dialog.ts";
import { pictureEdit } from "../media/picture-markdown.ts";
import { picturesOf, sendAltText, sendPicture } from "../media/send-picture.ts";
import { isForeignPictureAddress, ownPictureAddresses } from "./pasted-addresses.ts";
import { applyEdit } from "./toolbar.ts";

// Pictures pasted or dropped into the Body (docs/decisions/040-the-media-library.md): each is sent
// to the media library, then its alt text is asked for (or "Decorative") and stored in the library,
// and only then is ![alt](/media/<key>/original.<ext>) put at the caret, as typing is (Ctrl+Z takes
// it back). A failure says why under the Body; the text is never touched until the picture is in.

export function setupPastePictures(textarea: HTMLTextAreaElement): void {
  const status = document.createElement("p");
  status.className = "mt-2 min-h-5 text-sm text-slate-700";
  status.dataset.studioPictureStatus = "";
  status.setAttribute("aria-live", "polite");
  textarea.insertAdjacentElement("afterend", status);
  const say = (text: string, problem = false) => {
    status.textContent = text;
    status.classList.toggle("text-red-800", problem);
    status.setAttribute("role", problem ? "alert" : "status");
  };

  let line: Promise<void> = Promise.resolve();

  /** One picture: sent, described, then put where the caret was (or is, when the text changed since). */
  async function place(file: File, at: { value: string; start: number; end: number }) {
    const name = file.name || "the pasted picture";
    say(`Sending “${name}” to the media library…`);
    const sent = await sendPicture(file, (fraction) => {
      say(fraction < 1 ? `Sending “${name}”… ${Math.round(fraction * 100)} %` : `Making “${name}” ready…`);
    });
    if (!sent.ok) {
      say(`Not inserted: ${sent.message}`, true);
      return;
    }
    const picture = sent.answer;
    say(`“${picture.fileName}” is in the library. Describe it to insert it.`);
    const answer = await askAltText(picture, async (value) => {
      const stored = await sendAltText(picture.id, value);
      return stored.ok ? undefined : stored.message;
    });
    if (!answer) {
      say(
        `“${picture.fileName}” is in the media library but not in the text: paste it again, or choose it there, when you are ready.`,
      );
      return;
    }
    const same = textarea.value === at.value;
    const start = same ? at.start : textarea.selectionStart;
    const end = same ? at.end : textarea.selectionEnd;
    applyEdit(textarea, pictureEdit(textarea.value, start, end, answer.alt, picture.reference));
    say(`Inserted “${picture.fileName}”.`);
  }

  function take(files: File[]) {
    const at = { value: textarea.value, start: textarea.selectionStart, end: textarea.selectionEnd };
    for (const file of files)
      line = line.then(() => place(file, at)).catch(() => say("Not inserted: something went wrong. Try again.", true));
  }

  /**
   * Text with the site's own picture addresses (as a browser copies them, absolute) pasted as the
   * paths the pages draw; a picture's address on another site goes in as typed, with the reason
   * the pages will not show it. Other text is left to the browser.
   */
  function pasteText(event: ClipboardEvent): void {
    const text = event.clipboardData?.getData("text/plain") ?? "";
    if (!text) return;
    const origin = window.location.origin;
    const own = ownPictureAddresses(text, origin);
    if (own.changed) {
      event.preventDefault();
      const start = textarea.selectionStart;
      applyEdit(textarea, {
        from: start,
        to: textarea.selectionEnd,
        insert: own.text,
        selectStart: start + own.text.length,
        selectEnd: start + own.text.length,
      });
      say(
        own.changed === 1
          ? "The picture's address was pasted as the site's own path (/media/…), which the page shows."
          : `${own.changed} picture addresses were pasted as the site's own paths (/media/…), which the page shows.`,
      );
      return;
    }
    if (isForeignPictureAddress(text, origin))
      say(
        "That is a picture on another site: the pages show only the media library's pictures. Save it and upload it with the Picture button.",
        true,
      );
  }

  textarea.addEventListener("paste", (event) => {
    const files = picturesOf(event.clipboardData);
    if (!files.length) {
      pasteText(event);
      return;
    }
    event.preventDefault();
    take(files);
  });
  const carriesFiles = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes("Files");
  textarea.addEventListener("dragover", (event) => {
    if (carriesFiles(event)) event.preventDefault();
  });
  textarea.addEventListener("drop", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    const files = picturesOf(event.dataTransfer);
    if (files.length) take(files);
  });
}
