import type { ReactNode } from "react";
import type { FormState } from "#shared/admin/forms.ts";
import type { StudioImageChoice } from "#shared/admin/pages.ts";
import { controlState } from "../../ui/field.tsx";
import { withValue } from "./editor-frame.tsx";

// A picture chosen from the site's pictures (the media library's, through mediaChoices): a select
// that works without JavaScript, and a thumbnail of the picture chosen, which the editor's script
// follows as the choice changes, showing each option's small copy (data-thumbnail) when it has one.
// The markup of the form kit's SelectField (src/web/admin/ui/field.tsx), with that attribute.

export function ImageField({
  id,
  name,
  label,
  hint,
  form,
  value,
  images,
  className,
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
}) {
  const state = controlState({ id, name, label, hint, form, defaultValue: value });
  const chosen = state.value ?? "";
  const options = withValue(
    [{ value: "", label: "None" }, ...images.map(({ url, label }) => ({ value: url, label }))],
    chosen,
  );
  const thumbnailOf = (url: string) => images.find((image) => image.url === url)?.thumbnail || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="admin-label">
        {label}
      </label>
      <select {...state.attributes} defaultValue={chosen}>
        {options.map((option) => (
          <option key={option.value} value={option.value} data-thumbnail={thumbnailOf(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
      <img
        src={(chosen && (thumbnailOf(chosen) ?? chosen)) || undefined}
        alt=""
        width={160}
        height={90}
        loading="lazy"
        className={`mt-2 aspect-video w-40 rounded border border-slate-200 bg-slate-100 object-cover ${chosen ? "" : "hidden"}`}
        data-studio-cover
      />
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
