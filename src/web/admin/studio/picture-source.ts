import { choosePicture as chooseFromLibrary } from "../media/picture-chooser.ts";

// Where the toolbar's "Picture" button gets a picture from: the media library's picture chooser
// (src/web/admin/media/picture-chooser.ts: the library searched, or an upload described once;
// decision 057). Its answer is the picture's address and alt text, or null when closed.

export type ChosenPicture = { src: string; alt: string; mediaId?: string };

export async function choosePicture(): Promise<ChosenPicture | null> {
  const chosen = await chooseFromLibrary({ purpose: "a picture for the text" });
  return chosen ? { src: chosen.src, alt: chosen.alt, mediaId: chosen.mediaId } : null;
}
