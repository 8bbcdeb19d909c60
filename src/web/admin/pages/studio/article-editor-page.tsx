import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { CONTENT_LIMITS } from "#shared/content/documents.ts";
import { Field, SelectField } from "../../ui/field.tsx";
import {
  ARTICLE_FIELD_LABELS,
  ARTICLE_FIELD_NAMES,
  type ArticleFieldName,
  fieldId,
  formValuesOf,
  readableValue,
} from "./article-fields.ts";
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
  const common = (name: ArticleFieldName) => ({
    id: fieldId(name),
    name,
    label: ARTICLE_FIELD_LABELS[name],
    form,
    defaultValue: values[name],
  });
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
      dateField={
        <Field
          {...common("publishedAt")}
          type="datetime-local"
          className="mt-4 max-w-xs"
          hint="India time (IST). Schedule makes the article public at this time; Publish puts it on the site now."
        />
      }
    >
      <section aria-labelledby="fields-heading" className="admin-card grid gap-4 sm:grid-cols-2">
        <h2 id="fields-heading" className="text-lg font-semibold text-navy-900 sm:col-span-2">
          The article
        </h2>
        <Field {...common("title")} type="text" required maxLength={CONTENT_LIMITS.title} className="sm:col-span-2" />
        <Field
          {...common("slug")}
          type="text"
          maxLength={CONTENT_LIMITS.slug}
          autoComplete="off"
          spellCheck={false}
          className="sm:col-span-2"
          hint={
            editor.publishedRevision
              ? "Its address: /blog/<slug>. Changing it moves the article when published; the old address then leads to the new one."
              : "Its address: /blog/<slug>, lower-case words joined by hyphens. It follows the title until you change it."
          }
        />
        <Field
          {...common("excerpt")}
          rows={3}
          maxLength={CONTENT_LIMITS.excerpt}
          className="sm:col-span-2"
          hint="The summary on /blog, in search results and when shared."
        />
        <div>
          <Field
            {...common("category")}
            type="text"
            maxLength={CONTENT_LIMITS.category}
            list="article-categories"
            autoComplete="off"
            hint="Choose one in use, or write a new one."
          />
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
        <Field
          {...common("imageAlt")}
          type="text"
          maxLength={CONTENT_LIMITS.imageAlt}
          hint="What the cover shows, for those who cannot see it. Choosing a picture fills it in from the library."
        />
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
