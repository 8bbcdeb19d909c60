import { ARTICLES, PROJECTS } from "#shared/admin/collections/index.ts";
import { fieldLabels } from "#shared/admin/collections/kind.ts";
import {
  type ArticleDocument,
  type ChecklistItem,
  type ProjectDocument,
  projectPublishBlockers,
  publishBlockers,
  type StudioKind,
} from "#shared/content/documents.ts";

// The editor's fields as its form names them (the names of articleFields and projectFields in
// src/shared/admin/schemas.ts), with their definitions' labels: shared by the editor's pages and
// its script, which reads a kind's fields from STUDIO_FIELDS.

export type ArticleFieldName = keyof typeof ARTICLES.fields;

/** An article's fields in the editor's order, labelled by its definition (src/shared/admin/collections/articles.ts). */
export const ARTICLE_FIELD_LABELS: Record<ArticleFieldName, string> = fieldLabels(ARTICLES.fields);

export const ARTICLE_FIELD_NAMES = Object.keys(ARTICLE_FIELD_LABELS) as ArticleFieldName[];

/** Each field's control id: the label, hint and problem ids derive from it. */
export const fieldId = (name: ArticleFieldName) => `article-${name}`;

export type ProjectFieldName = keyof ProjectDocument;

/** A project's fields in the editor's order, labelled by its definition. */
export const PROJECT_FIELD_LABELS: Record<ProjectFieldName, string> = fieldLabels(PROJECTS.fields);

export const PROJECT_FIELD_NAMES = Object.keys(PROJECT_FIELD_LABELS) as ProjectFieldName[];

/** A project field's control id; "publishedAt" is the publish form's Publish date, not a field of the document. */
export const projectFieldId = (name: ProjectFieldName | "publishedAt") => `project-${name}`;

/** What the editor's script needs of a kind's fields. */
export type StudioFields = {
  names: readonly string[];
  labels: Record<string, string>;
  id: (name: string) => string;
  /** The long text field (an article's Markdown body, a project's description). */
  text: string;
  /** What blocks publishing, from the values typed. */
  blockers: (values: Record<string, string>) => ChecklistItem<string>[];
  /** The notice that says the item was just made, from "New …". */
  created: string;
};

export const STUDIO_FIELDS: Record<StudioKind, StudioFields> = {
  article: {
    names: ARTICLE_FIELD_NAMES,
    labels: ARTICLE_FIELD_LABELS,
    id: (name) => fieldId(name as ArticleFieldName),
    text: "body",
    blockers: (values) => publishBlockers(values as ArticleDocument),
    created: "article-created",
  },
  project: {
    names: PROJECT_FIELD_NAMES,
    labels: PROJECT_FIELD_LABELS,
    id: (name) => projectFieldId(name as ProjectFieldName),
    text: "description",
    blockers: (values) => projectPublishBlockers(values as unknown as ProjectDocument),
    created: "project-created",
  },
};
