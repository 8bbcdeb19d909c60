import type { FormState } from "#shared/admin/forms.ts";
import type { AdminPagePropsOf, DrawnFieldsView, DrawnItemView } from "#shared/admin/pages.ts";
import { type FieldDefinition, orderedRouteNames } from "#shared/admin/collections/kind.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { pictureChoiceFor } from "#shared/media.ts";
import { AdminLayout } from "../../layout.tsx";
import { Field, SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { ConflictPanel } from "../studio/conflict-panel.tsx";
import { ImageField } from "../studio/image-field.tsx";
import { revisionLine } from "../studio/revision-text.ts";
import { DrawnStatusBadge } from "./drawn-status-badge.tsx";
import { FormProblems, ItemActions, TrashedItem } from "./ordered-parts.tsx";
import { type DrawnKind, drawnFieldId, drawnKind } from "./drawn-kinds.ts";

// One item of an ordered kind drawn from its definition (a testimonial, a client logo), or a new
// one: each field as its definition declares it (label, control, limit, hint, group), in one form
// that posts; the checklist Publish must pass, in words; then Publish or Withdraw and Move to
// trash. Every save is a revision; a published item's is on the site at once. A save refused
// because someone saved first shows both versions, field by field, and keeps this person's.

type Props = AdminPagePropsOf<"ordered-item">;

/** A value as a person reads it: a picture by its label, choices and a select's value by their labels. */
function readable(kind: DrawnKind, item: DrawnItemView, name: string, value: string | string[]): string {
  const field = (kind.fields as Record<string, FieldDefinition>)[name];
  if (!field) return String(value);
  if (field.control === "checkbox") return value === "true" ? "Yes" : "No";
  if (field.control === "choices") {
    const values = Array.isArray(value) ? value : [value];
    return values.map((one) => field.choices?.find((choice) => choice.value === one)?.label ?? one).join(", ");
  }
  const text = String(value);
  if (field.control === "picture") return pictureChoiceFor(item.pictures, text)?.label ?? text;
  if (field.control === "select") return item.options[name]?.find((option) => option.value === text)?.label ?? text;
  return text;
}

function DrawnField({
  kind,
  item,
  name,
  field,
  form,
  values,
}: {
  kind: DrawnKind;
  item: DrawnItemView;
  name: string;
  field: FieldDefinition;
  form: FormState | undefined;
  values: DrawnFieldsView;
}) {
  const id = drawnFieldId(kind, name);
  const value = values[name] ?? "";
  const error = form?.errors[name];
  const problem = error ? (
    <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
      {error}
    </p>
  ) : null;
  const hint = field.hint ? (
    <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
      {field.hint}
    </p>
  ) : null;
  const describedBy =
    [error ? `${id}-error` : "", field.hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  const common = { id, name, label: field.label, form, defaultValue: String(value), hint: field.hint };
  switch (field.control) {
    case "checkbox":
      return (
        <div className="sm:col-span-2">
          <label className="inline-flex items-center gap-2 text-sm font-medium">
            <input
              type="checkbox"
              id={id}
              name={name}
              value="true"
              defaultChecked={value === "true"}
              aria-describedby={describedBy}
            />
            {field.label}
          </label>
          {hint}
          {problem}
        </div>
      );
    case "choices": {
      const ticked = Array.isArray(value) ? value : [];
      return (
        <fieldset className="sm:col-span-2" aria-describedby={describedBy}>
          <legend className="admin-label">{field.label}</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
            {(field.choices ?? []).map((choice) => (
              <label key={choice.value} className="inline-flex items-center gap-2">
                <input
                  type="checkbox"
                  name={name}
                  value={choice.value}
                  defaultChecked={ticked.includes(choice.value)}
                />
                {choice.label}
              </label>
            ))}
          </div>
          {hint}
          {problem}
        </fieldset>
      );
    }
    case "picture":
      return (
        <ImageField
          id={id}
          name={name}
          label={field.label}
          form={form}
          value={String(value)}
          images={item.pictures}
          noneLabel={`No ${field.label.toLowerCase()}`}
          purpose={field.label.toLowerCase()}
          shape="square"
          {...(field.hint ? { hint: field.hint } : {})}
        />
      );
    case "select":
      return (
        <SelectField
          {...common}
          options={[{ value: "", label: "None" }, ...(item.options[name] ?? [])]}
          className="sm:col-span-2"
        />
      );
    case "date":
      return <Field {...common} type="date" />;
    case "textarea":
      return <Field {...common} rows={5} maxLength={field.limit} className="sm:col-span-2" />;
    default:
      return <Field {...common} type="text" maxLength={field.limit} autoComplete="off" />;
  }
}

/** Publish or Withdraw, and Move to trash: each a form of its own, based on the revision shown. */
function OnTheSite({ kind, item, id }: { kind: DrawnKind; item: DrawnItemView; id: string }) {
  const names = orderedRouteNames(kind);
  const shown = item.status === "shown";
  return (
    <section aria-labelledby="on-site-heading" className="admin-card mt-4">
      <h2 id="on-site-heading" className="text-lg font-semibold text-navy-900">
        On the site
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {shown
          ? `${kind.pages.shown}${item.position !== null ? `, in place ${item.position} of the list` : ""}. ${kind.pages.hide} takes it off every page at once.`
          : `${kind.pages.hidden}: not on the site.`}
      </p>
      {item.blockers.length ? (
        <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          <p className="font-semibold" id="checklist-heading">
            Before it can be published
          </p>
          <ul aria-labelledby="checklist-heading" className="mt-1 list-disc pl-5" data-publish-checklist>
            {item.blockers.map((blocker) => (
              <li key={blocker}>{blocker}</li>
            ))}
          </ul>
        </div>
      ) : shown ? null : (
        <p className="mt-2 text-sm text-green-900" data-publish-checklist>
          Ready to publish: the permission is on record and covers this website.
        </p>
      )}
      <ItemActions
        shown={shown}
        baseRevisionId={item.head?.id}
        toggle={{
          action: adminHref(shown ? names.hide : names.show, { id }),
          label: shown ? kind.pages.hide : kind.pages.show,
        }}
        trash={{ action: adminHref(names.trash, { id }), question: kind.pages.trashQuestion }}
      />
    </section>
  );
}

export function OrderedItemPage({ viewer, kind: plural, item, notice, error, form }: Props) {
  const kind = drawnKind(plural);
  const names = orderedRouteNames(kind);
  const fields = Object.entries(kind.fields as Record<string, FieldDefinition>);
  const { id } = item;
  const trashed = item.status === "trash";
  const values: DrawnFieldsView = { ...item.fields };
  const base =
    form?.values.baseRevisionId && /^\d+$/.test(form.values.baseRevisionId)
      ? form.values.baseRevisionId
      : item.head?.id;
  const visibility = form?.values.visibility === "shown" ? "shown" : "hidden";
  const groups = [...new Set(fields.map(([, field]) => field.group ?? ""))];
  const textOf = (fieldsView: DrawnFieldsView) =>
    Object.fromEntries(fields.map(([name]) => [name, readable(kind, item, name, fieldsView[name] ?? "")]));
  return (
    <AdminLayout viewer={viewer} current={names.list}>
      <p className="text-sm">
        <a href={adminHref(names.list)} className="admin-link">
          {kind.nav.label}
        </a>
      </p>
      <div className="mt-2">
        <PageHeader
          title={id === null ? kind.pages.newTitle : item.name}
          meta={id === null ? null : <DrawnStatusBadge kind={kind} status={item.status} />}
          description={item.head ? revisionLine(item.head) : "Not saved yet."}
        />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <FormProblems errors={form?.errors} fields={fields.map(([name]) => name)} />
      {id !== null && trashed ? (
        <TrashedItem
          trashedAt={item.trashedAt}
          restores="brings it back, not published, at the end of the list"
          action={adminHref(names.untrash, { id })}
          baseRevisionId={item.head?.id}
        />
      ) : null}
      {item.conflict ? (
        <ConflictPanel
          place="form"
          current={item.conflict.current}
          names={fields.map(([name]) => name)}
          labels={Object.fromEntries(fields.map(([name, field]) => [name, field.label]))}
          mine={textOf(values)}
          theirs={textOf(item.conflict.fields)}
          readable={(_name, value) => value}
          yours={item.conflict.yours}
        />
      ) : null}

      <form
        method="post"
        action={id === null ? adminHref(names.create) : adminHref(names.save, { id })}
        aria-label={id === null ? kind.pages.newTitle : kind.nav.label}
        data-ordered-item-form
      >
        {id !== null && base !== undefined ? <input type="hidden" name="baseRevisionId" value={base} /> : null}
        <fieldset disabled={trashed} className="grid min-w-0 gap-4">
          <legend className="sr-only">{kind.nav.label}</legend>
          {groups.map((group) => (
            <section
              key={group || "fields"}
              aria-labelledby={`group-${group ? "permission" : "fields"}`}
              className="admin-card grid gap-4 sm:grid-cols-2"
            >
              <h2
                id={`group-${group ? "permission" : "fields"}`}
                className="text-lg font-semibold text-navy-900 sm:col-span-2"
              >
                {group || `The ${kind.noun}`}
              </h2>
              {fields
                .filter(([, field]) => (field.group ?? "") === group)
                .map(([name, field]) => (
                  <DrawnField
                    key={name}
                    kind={kind}
                    item={item}
                    name={name}
                    field={field}
                    form={form}
                    values={values}
                  />
                ))}
            </section>
          ))}
          {id === null ? (
            <fieldset className="admin-card">
              <legend className="admin-label">On the site</legend>
              <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
                <label className="inline-flex items-center gap-2">
                  <input type="radio" name="visibility" value="hidden" defaultChecked={visibility === "hidden"} />
                  Not yet: {kind.pages.show} it from its page
                </label>
                <label className="inline-flex items-center gap-2">
                  <input type="radio" name="visibility" value="shown" defaultChecked={visibility === "shown"} />
                  {kind.pages.show} at once
                </label>
              </div>
              {form?.errors.visibility ? (
                <p className="mt-1 text-sm font-medium text-red-700" role="alert">
                  {form.errors.visibility}
                </p>
              ) : null}
            </fieldset>
          ) : null}
          {trashed ? null : (
            <div className="flex flex-wrap items-center gap-3">
              <button type="submit" className="admin-button">
                {id === null ? kind.pages.add : "Save"}
              </button>
              <p className="text-xs text-slate-600">
                {id === null
                  ? "A new one goes to the end of the list; move it on the list's page."
                  : item.status === "shown"
                    ? "Published: the site shows what you save at once."
                    : "Not published: saving changes nothing on the site."}
              </p>
            </div>
          )}
        </fieldset>
      </form>

      {id !== null && !trashed ? <OnTheSite kind={kind} item={item} id={id} /> : null}
    </AdminLayout>
  );
}
