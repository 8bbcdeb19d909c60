import type { ReactNode } from "react";
import type { FormState } from "#shared/admin/forms.ts";
import type { StudioImageChoice } from "#shared/admin/pages.ts";
import { pictureChoiceFor } from "#shared/media.ts";
import { controlState } from "../../ui/field.tsx";

// A picture chosen from the site's pictures (the media library's, through mediaChoices): an
// article's cover, a project's image, a team member's photo. Without JavaScript, a select of the
// library's pictures by name; with it (src/web/admin/media/picture-field.ts), a "Choose picture"
// button beside it opens the picture chooser (library and upload), and the thumbnail and name
// follow the choice. The value a document holds in another form of a library picture's address
// (older content: /media/<key>/original.png) is recognised as that picture (pictureChoiceFor),
// shown by its thumbnail and name, and kept as written until another is chosen.

/** An empty picture (a transparent pixel, kept hidden) while none is chosen: an <img> must have a source. */
const NOTHING_CHOSEN = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";

export function ImageField({
  id,
  name,
  label,
  hint,
  form,
  value,
  images,
  className,
  noneLabel = "None",
  purpose,
  shape = "wide",
}: {
  id: string;
  name: string;
  label: string;
  hint?: ReactNode;
  form?: FormState;
  /** The value shown when the form was not refused. */
  value: string;
  images: readonly StudioImageChoice[];
  className?: string;
  /** The select's first option, for no picture. */
  noneLabel?: string;
  /** What the chooser is for, in its title ("Choose the cover image"); the label's words by default. */
  purpose?: string;
  /** The thumbnail's shape: a 16:9 cover, or a square portrait. */
  shape?: "wide" | "square";
}) {
  const state = controlState({ id, name, label, hint, form, defaultValue: value });
  const chosen = state.value ?? "";
  const current = pictureChoiceFor(images, chosen);
  // The chosen picture's option holds the value as the document has it, so saving changes nothing.
  const options = [
    { value: "", label: noneLabel, thumbnail: undefined as string | undefined },
    ...images.map((image) => ({
      value: image === current ? chosen : image.url,
      label: image.label,
      thumbnail: image.thumbnail || undefined,
    })),
  ];
  if (chosen && !current) options.push({ value: chosen, label: chosen, thumbnail: undefined });
  const nameId = `${id}-picture-name`;
  const describedBy = [nameId, state.attributes["aria-describedby"]].filter(Boolean).join(" ");
  const size = shape === "square" ? "size-24" : "aspect-video w-40";
  return (
    <div className={className} data-picture-field data-picture-purpose={purpose ?? `the ${label.toLowerCase()}`}>
      <label htmlFor={id} className="admin-label">
        {label}
      </label>
      <div className="mb-2 flex flex-wrap items-start gap-3">
        <img
          src={(chosen && (current?.thumbnail || chosen)) || NOTHING_CHOSEN}
          alt=""
          width={shape === "square" ? 96 : 160}
          height={shape === "square" ? 96 : 90}
          loading="lazy"
          className={`${size} shrink-0 rounded border border-slate-200 bg-slate-100 object-cover ${chosen ? "" : "hidden"}`}
          data-studio-cover
          data-picture-preview
        />
        <div className="grid min-w-0 flex-1 basis-40 content-start gap-2">
          <p id={nameId} className="text-sm break-words text-slate-800" data-picture-name>
            {current ? current.label : chosen ? `Not in the media library: ${chosen}` : "No picture chosen."}
          </p>
          <button
            type="button"
            className="admin-button-secondary hidden justify-self-start"
            data-picture-choose
            aria-describedby={nameId}
          >
            Choose picture
          </button>
        </div>
      </div>
      <select {...state.attributes} aria-describedby={describedBy} defaultValue={chosen}>
        {options.map((option) => (
          <option key={option.value} value={option.value} data-thumbnail={option.thumbnail}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={state.hintId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {state.error ? (
        <p id={state.errorId} className="mt-1 text-sm font-medium text-red-700">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
