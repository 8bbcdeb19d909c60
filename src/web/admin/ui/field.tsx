import type { InputHTMLAttributes, ReactNode } from "react";
import type { FormState } from "#shared/admin/forms.ts";

// A form's fields as the back office draws them. After a refused post the server renders the page
// again with the form's state (src/shared/admin/forms.ts): each field keeps what was typed and
// shows its own problem under it, tied to it with aria-invalid and aria-describedby, as the
// public contact form does.

type Common = {
  /** The control's id; the label, hint and error ids derive from it. */
  id: string;
  name: string;
  label: ReactNode;
  /** A line under the control that says what to type; read with it (aria-describedby). */
  hint?: ReactNode;
  /** The refused form's state, when it is this field's form (see `formStateFor`). */
  form?: FormState;
  /** The value shown when the form was not refused. */
  defaultValue?: string;
  /** Classes of the wrapper, for its place in the form's grid. */
  className?: string;
};

type InputAttributes = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  "type" | "required" | "maxLength" | "autoComplete" | "placeholder" | "inputMode" | "list" | "spellCheck"
>;

/** The state of `formName`'s form, from a page's props: only when the refused post was that form. */
export function formStateFor(props: { form?: FormState; formName?: string }, formName?: string): FormState | undefined {
  if (!props.form) return undefined;
  return formName === undefined || props.formName === undefined || props.formName === formName ? props.form : undefined;
}

/** The value to show and the attributes that tie a control to its hint and its problem. */
export function controlState({ id, name, hint, form, defaultValue }: Common) {
  const error = form?.errors[name];
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : undefined, hint ? hintId : undefined].filter(Boolean).join(" ");
  return {
    error,
    errorId,
    hintId,
    value: form?.values[name] ?? defaultValue,
    attributes: {
      id,
      name,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": describedBy || undefined,
      className: error ? "admin-input border-red-700" : "admin-input",
    },
  };
}

function Frame({
  common,
  state,
  children,
}: {
  common: Common;
  state: ReturnType<typeof controlState>;
  children: ReactNode;
}) {
  return (
    <div className={common.className}>
      <label htmlFor={common.id} className="admin-label">
        {common.label}
      </label>
      {children}
      {common.hint ? (
        <p id={state.hintId} className="mt-1 text-xs text-slate-600">
          {common.hint}
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

/** A labelled input, or a textarea when `rows` is given. */
export function Field({
  id,
  name,
  label,
  hint,
  form,
  defaultValue,
  className,
  rows,
  ...input
}: Common & InputAttributes & { rows?: number }) {
  const common = { id, name, label, hint, form, defaultValue, className };
  const state = controlState(common);
  return (
    <Frame common={common} state={state}>
      {rows === undefined ? (
        <input {...input} {...state.attributes} defaultValue={state.value} />
      ) : (
        <textarea
          required={input.required}
          maxLength={input.maxLength}
          placeholder={input.placeholder}
          rows={rows}
          {...state.attributes}
          defaultValue={state.value}
        />
      )}
    </Frame>
  );
}

export type SelectOption = { value: string; label: string };

/** A labelled select. */
export function SelectField({
  id,
  name,
  label,
  hint,
  form,
  defaultValue,
  className,
  options,
  children,
}: Common & { options: readonly SelectOption[]; children?: ReactNode }) {
  const common = { id, name, label, hint, form, defaultValue, className };
  const state = controlState(common);
  return (
    <Frame common={common} state={state}>
      <select {...state.attributes} defaultValue={state.value}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {children}
    </Frame>
  );
}
