import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { SelectField } from "../../ui/field.tsx";
import {
  ARTICLE_FIELD_LABELS,
  ARTICLE_FIELD_NAMES,
  type ArticleFieldName,
  fieldId,
  formValuesOf,
  readableValue,
} from "./article-fields.ts";
import { ARTICLES } from "#shared/admin/collections/index.ts";
import { DefinedField, fieldPropsOf, SlugField } from "./defined-field.tsx";
import { EditorBody } from "./editor-body.tsx";
import { EditorFrame, pickFields, withValue } from "./editor-frame.tsx";
import { ImageField } from "./image-field.tsx";
import { ARTICLE_PAGES } from "./kinds.ts";

// The editor of one article (decision 038): the studio's editor (editor-frame.tsx) with an
// article's fields, exactly those of articleFields (src/shared/admin/schemas.ts), and its body in
// Markdown with the toolbar and live preview (editor-body.tsx).

type Props = AdminPagePropsOf<"article-editor">;

export function ArticleEditorPage(props: Props) {
  const { viewer, editor, notice, error, form } = props;
  const trashed = editor.status === "trash";
  const values = { ...formValuesOf(editor.document), ...pickFields(ARTICLE_FIELD_NAMES, form?.values) };
  const common = fieldPropsOf(ARTICLES.fields, fieldId, form, values);
  return (
    <EditorFrame
      kind={ARTICLE_PAGES}
      viewer={viewer}
      editor={editor}
      notice={notice}
      error={error}
      form={form}
      fieldNames={ARTICLE_FIELD_NAMES}
      fieldId={(name) => fieldId(name as ArticleFieldName)}
      labels={ARTICLE_FIELD_LABELS}
      values={values}
      formValuesOf={formValuesOf}
      readable={(name, value) => readableValue(editor, name as ArticleFieldName, value)}
      warningsHeading="Links to check (in the saved text)"
      dateField={<DefinedField {...common("publishedAt")} type="datetime-local" className="mt-4 max-w-xs" />}
    >
      <section aria-labelledby="fields-heading" className="admin-card grid gap-4 sm:grid-cols-2">
        <h2 id="fields-heading" className="text-lg font-semibold text-navy-900 sm:col-span-2">
          The article
        </h2>
        <DefinedField {...common("title")} required className="sm:col-span-2" />
        <SlugField {...common("slug")} kind={ARTICLE_PAGES} published={Boolean(editor.publishedRevision)} />
        <DefinedField {...common("excerpt")} className="sm:col-span-2" />
        <div>
          <DefinedField {...common("category")} list="article-categories" autoComplete="off" />
          <datalist id="article-categories">
            {editor.categories.map((category) => (
              <option key={category} value={category} />
            ))}
          </datalist>
        </div>
        <SelectField
          {...common("author")}
          options={withValue(
            [
              { value: "", label: "None" },
              ...editor.authors.map((author) => ({ value: author.slug, label: author.name })),
            ],
            values.author,
          )}
        />
        <ImageField
          id={fieldId("imageUrl")}
          name="imageUrl"
          label={ARTICLE_FIELD_LABELS.imageUrl}
          form={form}
          value={values.imageUrl}
          images={editor.images}
          purpose="the cover image"
        />
        <DefinedField {...common("imageAlt")} />
      </section>

      <section aria-labelledby="body-heading" className="admin-card">
        <h2 id="body-heading" className="sr-only">
          The text
        </h2>
        <EditorBody form={form} value={values.body} disabled={trashed} />
      </section>
    </EditorFrame>
  );
}
