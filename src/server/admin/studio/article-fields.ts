import { ARTICLES } from "#shared/admin/collections/index.ts";
import { fieldLabels } from "#shared/admin/collections/kind.ts";
import { ARTICLE_FIELDS, type ArticleDocument } from "#shared/content/documents.ts";
import { indiaLocalToIso, PUBLISH_DATE_PROBLEM } from "./studio-time.ts";

// An article's editor fields and the document a revision stores (src/shared/content/documents.ts):
// the one conversion between them (the publish date is typed in India time and stored in UTC).

export {
  indiaDateLabel,
  indiaLocalToIso,
  indiaTimeLabel,
  isoToIndiaLocal,
  PUBLISH_DATE_PROBLEM,
} from "./studio-time.ts";

/** Each field of an article as the editor labels it: its definition's labels (src/shared/admin/collections/articles.ts). */
export const ARTICLE_FIELD_LABELS: Record<keyof ArticleDocument, string> = fieldLabels(ARTICLES.fields);

/** The editor's fields after their schema: every field a string. */
export type ArticleFieldValues = { [Field in keyof ArticleDocument]: string };

/**
 * The document the editor's fields make, or the problem of the publish date (the one field whose
 * check needs more than its schema: a real calendar moment).
 */
export function documentFromFields(
  fields: ArticleFieldValues,
): { ok: true; document: ArticleDocument } | { ok: false; field: "publishedAt"; message: string } {
  const publishedAt = fields.publishedAt === "" ? "" : indiaLocalToIso(fields.publishedAt);
  if (publishedAt === undefined) return { ok: false, field: "publishedAt", message: PUBLISH_DATE_PROBLEM };
  const document = {} as ArticleDocument;
  for (const field of ARTICLE_FIELDS) document[field] = field === "publishedAt" ? publishedAt : fields[field];
  return { ok: true, document };
}

/**
 * What a refused post showed, as a document: the values typed (as far as they are text), the
 * fallback's for fields not sent. A publish date that is not one becomes "" (the form keeps it).
 */
export function documentFromValues(values: Record<string, string>, fallback: ArticleDocument): ArticleDocument {
  const document = { ...fallback };
  for (const field of ARTICLE_FIELDS) {
    const value = values[field];
    if (value === undefined) continue;
    document[field] = field === "publishedAt" ? (value === "" ? "" : (indiaLocalToIso(value.trim()) ?? "")) : value;
  }
  return document;
}

/** An empty article: what "New article" opens. */
export const EMPTY_ARTICLE: ArticleDocument = {
  slug: "",
  title: "",
  excerpt: "",
  category: "",
  imageUrl: "",
  imageAlt: "",
  publishedAt: "",
  author: "",
  body: "",
};

/** A stored document as an ArticleDocument: every field a string ("" when missing). */
export function articleDocumentOf(stored: Record<string, unknown>): ArticleDocument {
  const document = { ...EMPTY_ARTICLE };
  for (const field of ARTICLE_FIELDS) {
    const value = stored[field];
    if (typeof value === "string") document[field] = value;
  }
  return document;
}
