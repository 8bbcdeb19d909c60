import { sql } from "drizzle-orm";
import {
  ARTICLE_FIELDS,
  PROJECT_FIELDS,
  type ArticleDocument,
  type ProjectDocument,
  projectPublishBlockers,
  publishBlockers,
} from "#shared/content/documents.ts";
import { AUTHOR_PROBLEM } from "#shared/admin/schemas.ts";
import { articlePath, projectPath } from "#shared/paths.ts";
import { blogPosts, contentPresence, contentRedirects, contentRevisions, projects } from "../../db/schema.ts";
import { articleDocumentOf, ARTICLE_FIELD_LABELS } from "./article-fields.ts";
import { bylineOf } from "../../content/byline.ts";
import { headText } from "./item-queries.ts";
import type { StudioKindSpec, Timing } from "./kind-spec.ts";

export type { FieldProblem, ItemTable, StudioKindSpec, Timing, TimingInput } from "./kind-spec.ts";
import { projectDocumentOf, PROJECT_FIELD_LABELS } from "./project-fields.ts";
import { isoToIndiaLocal } from "./studio-time.ts";

// What the studio does differently for each kind of item it edits (decision 038; 042 for
// projects). Everything else (loading, revisions, autosave and conflicts, publishing, scheduling,
// unpublishing, the trash, slugs and their redirects, share links, history and comparison) is one
// path for both kinds, in item-queries.ts, item-writes.ts, slugs.ts, presence.ts and
// item-routes.ts, reading these specs.

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** "This article is public: …": why a public item's time cannot move into the future. */
const unpublishFirst = (noun: string, subject: string) =>
  `This ${noun} is public: ${subject} can move into the past, not into the future. Unpublish it first, then schedule it.`;

export const ARTICLE_KIND: StudioKindSpec<ArticleDocument> = {
  kind: "article",
  noun: "article",
  table: blogPosts,
  revisionItem: contentRevisions.articleId,
  redirectItem: contentRedirects.articleId,
  presenceItem: contentPresence.articleId,
  publicPath: articlePath,
  fields: ARTICLE_FIELDS,
  labels: ARTICLE_FIELD_LABELS,
  documentOf: articleDocumentOf,
  slugOf: (document) => document.slug,
  titleOf: (document) => document.title,
  blockers: publishBlockers,
  async fieldProblems(tx, document) {
    if (document.author && !(await bylineOf(tx, document.author, { trashed: true })))
      return [{ field: "author", message: AUTHOR_PROBLEM }];
    return [];
  },
  // The article carries its time (Publish date): publishing now uses it when it is past, else
  // now; a public article's date may move into the past, never into the future.
  timing({ when, document, publicNow, now }) {
    const dated = document.publishedAt ? new Date(document.publishedAt) : undefined;
    const later = dated !== undefined && dated.getTime() > now.getTime();
    const refuse = (message: string): Timing<ArticleDocument> => ({ problems: [{ field: "publishedAt", message }] });
    let publishedAt: Date;
    if (when === "now") {
      if (later && publicNow) return refuse(unpublishFirst("article", "its date"));
      publishedAt = dated && !later ? dated : now;
    } else {
      if (!dated) return refuse("Choose a publish date to schedule the article.");
      if (!later) return refuse("To schedule, the publish date must be in the future.");
      if (publicNow) return refuse(unpublishFirst("article", "its date"));
      publishedAt = dated;
    }
    const iso = publishedAt.toISOString();
    return { publishedAt, ...(document.publishedAt !== iso ? { dated: { ...document, publishedAt: iso } } : {}) };
  },
  searchText: () =>
    sql`(${headText("title", blogPosts.title)} || ' ' || ${headText("excerpt", blogPosts.excerpt)} || ' ' || ${headText("body", blogPosts.content)})`,
  async insertDraft(tx) {
    const [row] = await tx.insert(blogPosts).values({ status: "draft" }).returning({ id: blogPosts.id });
    return row!.id;
  },
  shown: (field, value) =>
    field === "publishedAt" && text(value)
      ? `${isoToIndiaLocal(text(value)).replace("T", " ")} (India time)`
      : text(value),
  longField: "body",
};

export const PROJECT_KIND: StudioKindSpec<ProjectDocument> = {
  kind: "project",
  noun: "project",
  table: projects,
  revisionItem: contentRevisions.projectId,
  redirectItem: contentRedirects.projectId,
  presenceItem: contentPresence.projectId,
  publicPath: projectPath,
  fields: PROJECT_FIELDS,
  labels: PROJECT_FIELD_LABELS,
  documentOf: projectDocumentOf,
  slugOf: (document) => document.slug,
  titleOf: (document) => document.title,
  blockers: projectPublishBlockers,
  fieldProblems: async () => [],
  // A project's document has no time (its files have none): "Schedule" takes the publish form's
  // date; "Publish" makes it public now, or keeps the time of a project that is public already.
  timing({ when, date, publicNow, now }) {
    const refuse = (message: string): Timing<ProjectDocument> => ({ problems: [{ field: "publishedAt", message }] });
    if (when === "now") return { publishedAt: publicNow ? undefined : now };
    const dated = date ? new Date(date) : undefined;
    if (!dated) return refuse("Choose a publish date to schedule the project.");
    if (dated.getTime() <= now.getTime()) return refuse("To schedule, the publish date must be in the future.");
    if (publicNow) return refuse("This project is public: unpublish it first, then schedule it for its new time.");
    return { publishedAt: dated };
  },
  searchText: () =>
    sql`(${headText("title", projects.title)} || ' ' || ${headText("description", projects.description)})`,
  async insertDraft(tx) {
    const [row] = await tx.insert(projects).values({ status: "draft" }).returning({ id: projects.id });
    return row!.id;
  },
  shown: (_field, value) => text(value),
  longField: "description",
};
