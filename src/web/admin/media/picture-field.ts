import { type ChosenPicture, choosePicture } from "./picture-chooser.ts";

// The picture fields' script (src/web/admin/pages/studio/image-field.tsx: an article's cover, a
// project's image, a team member's photo): shows "Choose picture", which opens the picture
// chooser and sets the field; the thumbnail and the picture's name follow the choice, by the
// button or the select. A picture the select does not list (uploaded just now) is added to it,
// so the form sends it as it would any other. Loaded by admin-client.ts on pages with such a field.

/** Called after a picture is chosen by the button, with the field's select (the article's cover sets its alt text). */
export type PictureChosen = (select: HTMLSelectElement, picture: ChosenPicture) => void;

export function startPictureField(field: HTMLElement, onChosen?: PictureChosen): void {
  const select = field.querySelector("select");
  const button = field.querySelector<HTMLButtonElement>("button[data-picture-choose]");
  const preview = field.querySelector<HTMLImageElement>("img[data-picture-preview]");
  const name = field.querySelector<HTMLElement>("[data-picture-name]");
  if (!select || !button || field.dataset.pictureFieldReady) return;
  field.dataset.pictureFieldReady = "true";

  const show = () => {
    const option = select.selectedOptions[0];
    const value = select.value;
    if (preview) {
      preview.classList.toggle("hidden", value === "");
      if (value) preview.src = option?.dataset.thumbnail || value;
      else preview.removeAttribute("src");
    }
    if (name) {
      name.textContent = !value
        ? "No picture chosen."
        : option && option.textContent !== value
          ? (option.textContent ?? "")
          : `Not in the media library: ${value}`;
    }
  };
  select.addEventListener("change", show);
  select.addEventListener("input", show);

  button.classList.remove("hidden");
  button.addEventListener("click", () => {
    void choosePicture({ purpose: field.dataset.picturePurpose }).then((picture) => {
      if (!picture) return;
      let option = [...select.options].find((candidate) => candidate.value === picture.src);
      if (!option) {
        option = new Option(picture.name, picture.src);
        if (picture.thumbnail) option.dataset.thumbnail = picture.thumbnail;
        // After "None": the newest first, as the library lists them.
        select.options.add(option, 1);
      }
      select.value = picture.src;
      // As if chosen in the select: the editor's autosave, checklist and copy follow.
      select.dispatchEvent(new Event("input", { bubbles: true }));
      select.dispatchEvent(new Event("change", { bubbles: true }));
      show();
      onChosen?.(select, picture);
    });
  });
}

/** Every picture field of the page. */
export function startPictureFields(root: ParentNode, onChosen?: PictureChosen): void {
  for (const field of root.querySelectorAll<HTMLElement>("[data-picture-field]")) startPictureField(field, onChosen);
}
