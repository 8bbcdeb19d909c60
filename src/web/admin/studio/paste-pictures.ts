import { askAltText } from "../media/alt-dialog.ts";
import { pictureEdit } from "../media/picture-markdown.ts";
import { picturesOf, sendAltText, sendPicture } from "../media/send-picture.ts";
import { isForeignPictureAddress, ownPictureAddresses } from "./pasted-addresses.ts";
import { applyEdit } from "./toolbar.ts";

// Pictures pasted or dropped into the Body (docs/decisions/040-the-media-library.md): each is sent
// to the media library, then its alt text is asked for (or "Decorative") and stored in the library,
// and only then is it put in the text: in the Markdown view as ![alt](/media/<key>/original.<ext>)
// at the caret, as typing is (Ctrl+Z takes it back); in the Write view as a picture at the caret
// (visual-editor.ts). A failure says why under the Body; the text is never touched until the
// picture is in.

export type PlacedPicture = { alt: string; reference: string; mediaId: string; fileName: string };

export type PictureLine = {
  /** Sends each file in turn, asks its alt text, then calls `place` with it. */
  take(files: File[], place: (picture: PlacedPicture) => void): void;
  /** One file, after those already on their way: the placed picture, or undefined (refused, or cancelled). */
  one(file: File): Promise<PlacedPicture | undefined>;
  /** Says something on the Body's picture line (a problem as an alert). */
  say(text: string, problem?: boolean): void;
};

/** The line under the Body that says how a picture is going, and the queue of pictures on their way. */
export function pictureLine(after: HTMLElement): PictureLine {
  const status = document.createElement("p");
  status.className = "mt-2 min-h-5 text-sm text-slate-700";
  status.dataset.studioPictureStatus = "";
  status.setAttribute("aria-live", "polite");
  after.insertAdjacentElement("afterend", status);
  const say = (text: string, problem = false) => {
    status.textContent = text;
    status.classList.toggle("text-red-800", problem);
    status.setAttribute("role", problem ? "alert" : "status");
  };

  let line: Promise<void> = Promise.resolve();

  async function send(file: File): Promise<PlacedPicture | undefined> {
    const name = file.name || "the pasted picture";
    say(`Sending “${name}” to the media library…`);
    const sent = await sendPicture(file, (fraction) => {
      say(fraction < 1 ? `Sending “${name}”… ${Math.round(fraction * 100)} %` : `Making “${name}” ready…`);
    });
    if (!sent.ok) {
      say(`Not inserted: ${sent.message}`, true);
      return undefined;
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
      return undefined;
    }
    say(`Inserted “${picture.fileName}”.`);
    return { alt: answer.alt, reference: picture.reference, mediaId: picture.id, fileName: picture.fileName };
  }

  const one = (file: File): Promise<PlacedPicture | undefined> => {
    const result = line.then(() => send(file));
    line = result.then(
      () => undefined,
      () => say("Not inserted: something went wrong. Try again.", true),
    );
    return result.catch(() => undefined);
  };

  return {
    say,
    one,
    take(files, place) {
      for (const file of files)
        void one(file).then((picture) => {
          if (picture) place(picture);
        });
    },
  };
}

/** Paste and drop of picture files into the Markdown view's textarea. */
export function setupPastePictures(textarea: HTMLTextAreaElement, pictures: PictureLine): void {
  function take(files: File[]) {
    const at = { value: textarea.value, start: textarea.selectionStart, end: textarea.selectionEnd };
    pictures.take(files, (picture) => {
      const same = textarea.value === at.value;
      const start = same ? at.start : textarea.selectionStart;
      const end = same ? at.end : textarea.selectionEnd;
      applyEdit(textarea, pictureEdit(textarea.value, start, end, picture.alt, picture.reference));
    });
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
      pictures.say(
        own.changed === 1
          ? "The picture's address was pasted as the site's own path (/media/…), which the page shows."
          : `${own.changed} picture addresses were pasted as the site's own paths (/media/…), which the page shows.`,
      );
      return;
    }
    if (isForeignPictureAddress(text, origin))
      pictures.say(
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
