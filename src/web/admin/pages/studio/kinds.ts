import { ARTICLES, PROJECTS } from "#shared/admin/collections/index.ts";
import { type StudioKindDefinition, studioRouteNames } from "#shared/admin/collections/kind.ts";
import type { StudioKind } from "#shared/content/documents.ts";

// What the studio's pages say and link to for each kind of item: the same pages (list, editor,
// history, comparison) for articles and projects, each naming its own routes and words, taken
// from the kind's definition (src/shared/admin/collections/).

/** What the pages read of a studio kind. */
function pagesOf<const Name extends StudioKind, const Plural extends string>(
  definition: StudioKindDefinition<Name, Plural>,
  address: string,
) {
  return {
    kind: definition.name,
    /** "article": in sentences. */
    noun: definition.noun,
    /** "Articles": the list's title and the navigation entry. */
    plural: definition.nav.label,
    /** "Untitled article": a title not yet written. */
    untitled: `Untitled ${definition.noun}`,
    /** The public address pattern, for the Slug field's hint. */
    address,
    /** The routes of the kind's pages and forms. */
    routes: studioRouteNames(definition),
    /** How long the trash keeps an item of this kind ("The trash keeps it, and its history, for 30 days."). */
    trashKeeps: definition.trash.keeps,
    /** What "Move to trash" asks ("It leaves the site, and can be restored for 30 days."). */
    trashRestorable: definition.trash.restorable,
  };
}

export const ARTICLE_PAGES = pagesOf(ARTICLES, "/blog/<slug>");
export const PROJECT_PAGES = pagesOf(PROJECTS, "/projects/<slug>");

export type StudioPageKind = typeof ARTICLE_PAGES | typeof PROJECT_PAGES;
