import type { AdminPagePropsOf, ProjectEditorView } from "#shared/admin/pages.ts";
import type { ProjectDocument } from "#shared/content/documents.ts";
import { RENEWABLE_CATEGORY } from "#shared/site.ts";
import { indiaDateTimeLocal } from "../../format.ts";
import {
  PROJECT_FIELD_LABELS,
  PROJECT_FIELD_NAMES,
  type ProjectFieldName,
  projectFieldId,
} from "../../studio/fields.ts";
import { Field, SelectField } from "../../ui/field.tsx";
import { PROJECTS } from "#shared/admin/collections/index.ts";
import { DefinedField, fieldPropsOf, SlugField } from "./defined-field.tsx";
import { EditorFrame, pickFields, SaveStatus, withValue } from "./editor-frame.tsx";
import { pictureChoiceFor } from "#shared/media.ts";
import { ImageField } from "./image-field.tsx";
import { PROJECT_PAGES } from "./kinds.ts";

// The editor of one project (docs/decisions/042-projects-in-the-studio.md): the studio's editor
// (editor-frame.tsx) with the spec's project fields, exactly those of projectFields
// (src/shared/admin/schemas.ts). The Publish date is the publish form's, not the document's:
// "Schedule" makes the project public at it.

type Props = AdminPagePropsOf<"project-editor">;

/** A document as the form shows it: every field text, Capacity and Timeline "" when there is none. */
export function projectFormValues(document: ProjectDocument): Record<ProjectFieldName, string> {
  return { ...document, capacity: document.capacity ?? "", timeline: document.timeline ?? "" };
}

/** What a field's value reads as, for people: an image's name rather than its address. */
function readable(editor: Pick<ProjectEditorView, "images">, name: string, value: string): string {
  if (name === "imageUrl") return pictureChoiceFor(editor.images, value)?.label ?? value;
  return value;
}

export function ProjectEditorPage(props: Props) {
  const { viewer, editor, notice, error, form } = props;
  const values = { ...projectFormValues(editor.document), ...pickFields(PROJECT_FIELD_NAMES, form?.values) };
  const common = fieldPropsOf<ProjectFieldName>(PROJECTS.fields, projectFieldId, form, values);
  const scheduledFor =
    editor.status === "scheduled" && editor.publishedAt ? indiaDateTimeLocal(editor.publishedAt) : "";
  return (
    <EditorFrame
      kind={PROJECT_PAGES}
      viewer={viewer}
      editor={editor}
      notice={notice}
      error={error}
      form={form}
      fieldNames={[...PROJECT_FIELD_NAMES, "publishedAt"]}
      fieldId={(name) => projectFieldId(name as ProjectFieldName)}
      labels={PROJECT_FIELD_LABELS}
      values={values}
      formValuesOf={projectFormValues}
      readable={(name, value) => readable(editor, name, value)}
      warningsHeading="To check (in the saved text)"
      dateField={
        <Field
          id={projectFieldId("publishedAt")}
          name="publishedAt"
          label="Publish date"
          form={form}
          defaultValue={scheduledFor}
          type="datetime-local"
          className="mt-4 max-w-xs"
          hint="India time (IST). Schedule makes the project public at this time; Publish puts it on the site now. The date is not part of the draft: it is used when you schedule."
        />
      }
    >
      <section aria-labelledby="fields-heading" className="admin-card grid gap-4 sm:grid-cols-2">
        <h2 id="fields-heading" className="text-lg font-semibold text-navy-900 sm:col-span-2">
          The project
        </h2>
        {/* What autosave says (the script writes here). */}
        <div className="sm:col-span-2">
          <SaveStatus />
        </div>
        <DefinedField {...common("title")} required className="sm:col-span-2" />
        <SlugField {...common("slug")} kind={PROJECT_PAGES} published={Boolean(editor.publishedRevision)} />
        <DefinedField {...common("description")} rows={6} className="sm:col-span-2" />
        <SelectField
          {...common("category")}
          options={withValue(
            [
              { value: "", label: "Choose…" },
              ...editor.categories.map((category) => ({ value: category, label: category })),
            ],
            values.category,
          )}
          hint={`Its badge on the site: green for ${RENEWABLE_CATEGORY}, blue for every other category.`}
        />
        <DefinedField {...common("year")} inputMode="numeric" autoComplete="off" />
        <DefinedField {...common("capacity")} />
        <DefinedField {...common("timeline")} />
        <ImageField
          id={projectFieldId("imageUrl")}
          name="imageUrl"
          label={PROJECT_FIELD_LABELS.imageUrl}
          form={form}
          value={values.imageUrl}
          images={editor.images}
          className="sm:col-span-2"
          hint={PROJECTS.fields.imageUrl.hint}
        />
      </section>
    </EditorFrame>
  );
}
