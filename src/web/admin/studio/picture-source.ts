import type { PictureLine } from "./paste-pictures.ts";

// Where the toolbar's "Picture" button gets a picture from: for now a file chosen from this
// computer, sent to the media library and described (the same path as a pasted picture,
// paste-pictures.ts). The one seam to change when the library's own picture chooser is used
// instead: keep the signature, answer with the picture's address and alt text, or null.

export type ChosenPicture = { src: string; alt: string; mediaId?: string };

export function choosePicture(opts: { pictures: PictureLine }): Promise<ChosenPicture | null> {
  return new Promise((resolve) => {
    const input = document.createElement("input");
    input.type = "file";
    input.accept = "image/*";
    input.hidden = true;
    document.body.append(input);
    const done = (value: ChosenPicture | null) => {
      input.remove();
      resolve(value);
    };
    input.addEventListener("cancel", () => done(null));
    input.addEventListener("change", () => {
      const file = input.files?.[0];
      if (!file) return done(null);
      // The picture line says why when it is not placed (refused, or its alt text cancelled).
      void opts.pictures
        .one(file)
        .then((picture) =>
          done(picture ? { src: picture.reference, alt: picture.alt, mediaId: picture.mediaId } : null),
        );
    });
    input.click();
  });
}
