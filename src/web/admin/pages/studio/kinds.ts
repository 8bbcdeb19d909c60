import type { StudioKind } from "#shared/content/documents.ts";

// What the studio's pages say and link to for each kind of item: the same pages (list, editor,
// history, comparison) for articles and projects, each naming its own routes and words.

export type StudioPageKind = {
  kind: StudioKind;
  /** "article": in sentences. */
  noun: string;
  /** "Articles": the list's title and the navigation entry. */
  plural: string;
  /** "Untitled article": a title not yet written. */
  untitled: string;
  /** The public address pattern, for the Slug field's hint. */
  address: string;
  /** The routes of the kind's pages and forms. */
  routes: {
    list: "articles" | "projects";
    new: "articleNew" | "projectNew";
    create: "articleCreate" | "projectCreate";
    item: "article" | "project";
    save: "articleSave" | "projectSave";
    publish: "articlePublish" | "projectPublish";
    unpublish: "articleUnpublish" | "projectUnpublish";
    trash: "articleTrash" | "projectTrash";
    untrash: "articleUntrash" | "projectUntrash";
    previewLink: "articlePreviewLink" | "projectPreviewLink";
    /** The draft's link-preview card (a JPEG). */
    card: "articleCard" | "projectCard";
    shareLink: "articleShareLink" | "projectShareLink";
    shareLinkRevoke: "articleShareLinkRevoke" | "projectShareLinkRevoke";
    history: "articleHistory" | "projectHistory";
    compare: "articleCompare" | "projectCompare";
    restore: "articleRevisionRestore" | "projectRevisionRestore";
  };
  /** How long the trash keeps an item of this kind ("The trash keeps it, and its history, for 30 days."). */
  trashKeeps: string;
  /** What "Move to trash" asks ("It leaves the site, and can be restored for 30 days."). */
  trashRestorable: string;
};

export const ARTICLE_PAGES: StudioPageKind = {
  kind: "article",
  noun: "article",
  plural: "Articles",
  untitled: "Untitled article",
  address: "/blog/<slug>",
  routes: {
    list: "articles",
    new: "articleNew",
    create: "articleCreate",
    item: "article",
    save: "articleSave",
    publish: "articlePublish",
    unpublish: "articleUnpublish",
    trash: "articleTrash",
    untrash: "articleUntrash",
    previewLink: "articlePreviewLink",
    card: "articleCard",
    shareLink: "articleShareLink",
    shareLinkRevoke: "articleShareLinkRevoke",
    history: "articleHistory",
    compare: "articleCompare",
    restore: "articleRevisionRestore",
  },
  trashKeeps: "for 30 days",
  trashRestorable: "can be restored for 30 days",
};

export const PROJECT_PAGES: StudioPageKind = {
  kind: "project",
  noun: "project",
  plural: "Projects",
  untitled: "Untitled project",
  address: "/projects/<slug>",
  routes: {
    list: "projects",
    new: "projectNew",
    create: "projectCreate",
    item: "project",
    save: "projectSave",
    publish: "projectPublish",
    unpublish: "projectUnpublish",
    trash: "projectTrash",
    untrash: "projectUntrash",
    previewLink: "projectPreviewLink",
    card: "projectCard",
    shareLink: "projectShareLink",
    shareLinkRevoke: "projectShareLinkRevoke",
    history: "projectHistory",
    compare: "projectCompare",
    restore: "projectRevisionRestore",
  },
  trashKeeps: "until it is restored",
  trashRestorable: "can be restored from there at any time",
};
