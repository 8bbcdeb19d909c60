import { and, eq, isNull } from "drizzle-orm";
import type { ProjectDetail } from "#shared/api-types.ts";
import { SLUG_PATTERN } from "#shared/routes.ts";
import type { Database } from "../db/client.ts";
import { projects } from "../db/schema.ts";
import { DRAFT_STAND_IN_SLUG, DRAFT_STAND_IN_TITLE } from "./draft-article.ts";
import { listBlogPosts, listProjects, relatedFirst } from "./public-content.ts";
import { mediaIndex } from "./responsive-images.ts";
import { revisionOf } from "./revisions.ts";

// A project's draft (its head revision) shaped as the public project page reads a published one,
// for the preview and share links (docs/decisions/042-projects-in-the-studio.md): the same
// ProjectDetail, the same related projects and articles, so the preview is the public page's
// layout to the byte. A draft may be incomplete; each empty field the page cannot show empty gets
// a stand-in, as an article's draft does (draft-article.ts).

/**
 * The picture a draft without one is shown with: a blank grey 16:9 picture, so the page keeps its
 * layout (an img with an empty src would make a browser fetch the page again). A data: address,
 * which the site's Content-Security-Policy allows for images.
 */
export const DRAFT_STAND_IN_IMAGE =
  "data:image/svg+xml,%3Csvg%20xmlns=%22http://www.w3.org/2000/svg%22%20viewBox=%220%200%2016%209%22%3E%3Crect%20width=%2216%22%20height=%229%22%20fill=%22%23e2e8f0%22/%3E%3C/svg%3E";

export type DraftProject = {
  /** The slug the page is rendered at: the draft's own, or the stand-in. */
  slug: string;
  detail: ProjectDetail;
};

/**
 * The project's head revision as a ProjectDetail, or undefined when there is no such project, it
 * is in the trash, or it has no revision yet. `now` decides which published projects and articles
 * are its related ones, as on the public page.
 */
export async function draftProject(
  db: Database,
  projectId: string,
  now: Date = new Date(),
): Promise<DraftProject | undefined> {
  const [item] = await db
    .select({ headRevisionId: projects.headRevisionId })
    .from(projects)
    .where(and(eq(projects.id, projectId), isNull(projects.deletedAt)));
  if (!item?.headRevisionId) return undefined;
  const revision = await revisionOf(db, "project", projectId, item.headRevisionId);
  if (!revision) return undefined;
  const document = revision.document;
  const slug = SLUG_PATTERN.test(document.slug ?? "") ? document.slug : DRAFT_STAND_IN_SLUG;
  const category = document.category ?? "";
  const [others, posts, images] = await Promise.all([listProjects(db, now), listBlogPosts(db, now), mediaIndex(db)]);
  return {
    slug,
    detail: {
      project: {
        id: projectId,
        title: document.title?.trim() ? document.title : DRAFT_STAND_IN_TITLE,
        description: document.description ?? "",
        category,
        imageUrl: document.imageUrl || DRAFT_STAND_IN_IMAGE,
        image: document.imageUrl ? images.resolve(document.imageUrl) : null,
        year: document.year ?? "",
        capacity: document.capacity || null,
        timeline: document.timeline || null,
        slug,
      },
      // Never the project itself, whichever address its published copy has.
      relatedProjects: relatedFirst(others, category, (other) => other.id === projectId, 2),
      relatedArticles: relatedFirst(posts, category, () => false, 3),
    },
  };
}
