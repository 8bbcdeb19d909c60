import { ARTICLE_FIELDS, type ArticleDocument } from "#shared/content/documents.ts";
import { INDIA_UTC_OFFSET, inIndia, indiaDay } from "#shared/india-time.ts";
import { INDIA_DATETIME_PATTERN } from "#shared/admin/schemas.ts";

// The editor's fields and the document a revision stores (src/shared/content/documents.ts): the
// one conversion between them (the publish date is typed in India time and stored in UTC), and the
// India times the studio's messages give ("Changed by Meera Shah at 14:32").

/** Each field of an article as the editor labels it (the words). */
export const ARTICLE_FIELD_LABELS: Record<keyof ArticleDocument, string> = {
  slug: "Slug",
  title: "Title",
  excerpt: "Excerpt",
  category: "Category",
  imageUrl: "Cover image",
  imageAlt: "Alt text",
  publishedAt: "Publish date",
  author: "Author",
  body: "Body",
};

export const PUBLISH_DATE_PROBLEM = "Publish date must be a date and time, like 2026-11-26T14:30";

/** The editor's fields after their schema: every field a string. */
export type ArticleFieldValues = { [Field in keyof ArticleDocument]: string };

/**
 * The moment of a datetime-local value typed in India time ("2026-11-26T14:30"), as a UTC ISO
 * string; undefined when it is no real moment (30 February).
 */
export function indiaLocalToIso(value: string): string | undefined {
  if (!INDIA_DATETIME_PATTERN.test(value)) return undefined;
  const moment = new Date(`${value}:00${INDIA_UTC_OFFSET}`);
  if (Number.isNaN(moment.getTime()) || isoToIndiaLocal(moment.toISOString()) !== value) return undefined;
  return moment.toISOString();
}

/** A stored moment as the editor's datetime-local field shows it, in India time; "" for none. */
export function isoToIndiaLocal(iso: string): string {
  if (!iso) return "";
  const moment = new Date(iso);
  return Number.isNaN(moment.getTime()) ? "" : inIndia(moment).toISOString().slice(0, 16);
}

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

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The India time of a moment, "14:32", with its day when that is not today ("14:32 on 25 Nov"). */
export function indiaTimeLabel(moment: Date, now: Date): string {
  const time = inIndia(moment).toISOString().slice(11, 16);
  return indiaDay(moment) === indiaDay(now) ? time : `${time} on ${indiaDateLabel(moment, now)}`;
}

/** The India date of a moment, "3 Nov", with its year when that is not this year ("3 Nov 2025"). */
export function indiaDateLabel(moment: Date, now: Date): string {
  const local = inIndia(moment);
  const label = `${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]}`;
  return local.getUTCFullYear() === inIndia(now).getUTCFullYear() ? label : `${label} ${local.getUTCFullYear()}`;
}
