import type { ArticleEditorView } from "#shared/admin/pages.ts";
import type { ArticleDocument } from "#shared/content/documents.ts";
import { indiaDateTimeLocal } from "../../format.ts";
import type { ArticleFieldName } from "../../studio/fields.ts";

// An article's editor fields (studio/fields.ts) as the pages fill them from a document.

export { ARTICLE_FIELD_LABELS, ARTICLE_FIELD_NAMES, type ArticleFieldName, fieldId } from "../../studio/fields.ts";

/** A document as the form shows it: the publish date in India time, as a datetime-local field holds it. */
export function formValuesOf(document: ArticleDocument): Record<ArticleFieldName, string> {
  return { ...document, publishedAt: indiaDateTimeLocal(document.publishedAt) };
}

/** What a field's value reads as, for people: the author's name rather than their slug. */
export function readableValue(
  editor: Pick<ArticleEditorView, "authors" | "images">,
  name: ArticleFieldName,
  value: string,
): string {
  if (name === "author") return editor.authors.find((author) => author.slug === value)?.name ?? value;
  if (name === "imageUrl") return editor.images.find((image) => image.url === value)?.label ?? value;
  return value;
}
