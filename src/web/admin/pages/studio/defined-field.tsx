import type { ComponentProps } from "react";
import type { FieldDefinition } from "#shared/admin/collections/kind.ts";
import type { FormState } from "#shared/admin/forms.ts";
import { Field } from "../../ui/field.tsx";
import type { StudioPageKind } from "./kinds.ts";

// A field of a kind as its definition declares it (src/shared/admin/collections/): its label, its
// limit and its hint come from there, a text control or a textarea as its control says. The
// editor pages give the rest (its place in the grid, a hint that depends on the item).

/** What every field of a form takes, by name: its id, its label, the refused form and the value shown. */
export function fieldPropsOf<Name extends string>(
  fields: Readonly<Record<Name, FieldDefinition>>,
  idOf: (name: Name) => string,
  form: FormState | undefined,
  values: Readonly<Partial<Record<Name, string>>>,
) {
  return (name: Name) => ({
    id: idOf(name),
    name,
    label: fields[name].label,
    form,
    defaultValue: values[name],
    definition: fields[name],
  });
}

type DefinedFieldProps = {
  id: string;
  name: string;
  label: string;
  form: FormState | undefined;
  defaultValue: string | undefined;
  definition: FieldDefinition;
} & Omit<ComponentProps<typeof Field>, "id" | "name" | "label" | "form" | "defaultValue">;

export function DefinedField({ definition, ...props }: DefinedFieldProps) {
  const hint = props.hint ?? definition.hint;
  const maxLength = props.maxLength ?? definition.limit;
  if (definition.control === "textarea")
    return <Field {...props} hint={hint} maxLength={maxLength} rows={props.rows ?? 3} />;
  return <Field type="text" {...props} hint={hint} maxLength={maxLength} />;
}

/** A studio item's Slug: its address, and what changing it does once the item has been published. */
export function SlugField({
  kind,
  published,
  ...props
}: DefinedFieldProps & { kind: StudioPageKind; published: boolean }) {
  return (
    <DefinedField
      {...props}
      autoComplete="off"
      spellCheck={false}
      className="sm:col-span-2"
      hint={
        published
          ? `Its address: ${kind.address}. Changing it moves the ${kind.noun} when published; the old address then leads to the new one.`
          : `Its address: ${kind.address}, lower-case words joined by hyphens. It follows the title until you change it.`
      }
    />
  );
}
