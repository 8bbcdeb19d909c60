import { PROJECTS } from "#shared/admin/collections/index.ts";
import { fieldLabels } from "#shared/admin/collections/kind.ts";
import { EMPTY_PROJECT, PROJECT_FIELDS, type ProjectDocument } from "#shared/content/documents.ts";

// A project's editor fields and the document a revision stores (src/shared/content/documents.ts):
// every field is text in the form; Capacity and Timeline left empty are null in the document, as
// the content files leave them out.

/** Each field of a project as the editor labels it: its definition's labels (src/shared/admin/collections/projects.ts). */
export const PROJECT_FIELD_LABELS: Record<keyof ProjectDocument, string> = fieldLabels(PROJECTS.fields);

/** The editor's fields after their schema: every field a string. */
export type ProjectFieldValues = { [Field in keyof ProjectDocument]: string };

/** The optional fields: "" in the form, null in the document. */
const OPTIONAL = new Set<keyof ProjectDocument>(["capacity", "timeline"]);

function fieldValue(field: keyof ProjectDocument, value: string): string | null {
  return OPTIONAL.has(field) && value === "" ? null : value;
}

/** The document the editor's fields make (every check is the schema's: nothing more can fail). */
export function projectFromFields(fields: ProjectFieldValues): { ok: true; document: ProjectDocument } {
  const document = { ...EMPTY_PROJECT } as Record<keyof ProjectDocument, string | null>;
  for (const field of PROJECT_FIELDS) document[field] = fieldValue(field, fields[field]);
  return { ok: true, document: document as ProjectDocument };
}

/** What a refused post showed, as a document: the values typed, the fallback's for fields not sent. */
export function projectFromValues(values: Record<string, string>, fallback: ProjectDocument): ProjectDocument {
  const document = { ...fallback } as Record<keyof ProjectDocument, string | null>;
  for (const field of PROJECT_FIELDS) {
    const value = values[field];
    if (value !== undefined) document[field] = fieldValue(field, value);
  }
  return document as ProjectDocument;
}

/** A stored document as a ProjectDocument: text fields "" when missing, the optional ones null. */
export function projectDocumentOf(stored: Record<string, unknown>): ProjectDocument {
  const document = { ...EMPTY_PROJECT } as Record<keyof ProjectDocument, string | null>;
  for (const field of PROJECT_FIELDS) {
    const value = stored[field];
    if (typeof value === "string") document[field] = fieldValue(field, value);
  }
  return document as ProjectDocument;
}
