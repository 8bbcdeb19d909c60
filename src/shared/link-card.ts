import type { ArticleDetail, Project } from "./api-types.ts";
import type { LinkCard, PageMeta } from "./page-rendering.ts";
import { matchRoute } from "./routes.ts";
import { site } from "./site.ts";

// What a page's link-preview card shows (docs/decisions/053-link-preview-cards.md): the server
// draws it as a 1200 × 627 JPEG at an address made from this, so the address changes exactly when
// what the card shows changes. Written here, beside the pages' head, so the public page, its card
// and the studio's preview of a draft's card all read one description.

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 627;

// The card's shape is written beside the page's head that carries it (page-rendering.ts), so that
// this module reads the head and the head names the card without importing each other.
export type { LinkCard } from "./page-rendering.ts";

/** The card of the pages that are not in the route table (the 404 page, the newsletter's links). */
export const siteCard: LinkCard = { kind: "page", title: site.tagline, label: site.name };

/** The card key of the site's own card, which no page path gives. */
export const SITE_CARD_KEY = "site";

/** The title a page's <title> gives, without the firm's name after it. */
function pageName(title: string): string {
  const suffix = ` | ${site.name}`;
  return title.endsWith(suffix) ? title.slice(0, -suffix.length) : title;
}

/** A page's card: its own (an article's, a project's), else its name under the site's section. */
export function cardOfPage(meta: PageMeta): LinkCard {
  if (meta.card) return meta.card;
  // The home page's title starts with the firm's name; its card says what the firm does.
  if (meta.title.startsWith(site.name))
    return { kind: "page", title: `${site.tagline} in Ahmedabad`, label: site.name };
  const title = pageName(meta.title);
  const section = meta.breadcrumbs?.at(-1)?.name;
  return { kind: "page", title, label: section && section !== title ? section : site.name };
}

export function articleCard(
  article: Pick<ArticleDetail, "title" | "category" | "authorName" | "authorImageUrl">,
): LinkCard {
  return {
    kind: "article",
    title: article.title,
    label: article.category,
    ...(article.authorName ? { author: { name: article.authorName, photo: article.authorImageUrl } } : {}),
  };
}

export function projectCard(project: Pick<Project, "title" | "category" | "capacity">): LinkCard {
  return {
    kind: "project",
    title: project.title,
    label: `Project · ${project.category}`,
    ...(project.capacity ? { capacity: project.capacity } : {}),
  };
}

/** A page's key in its card's address: "/" is "home", "/blog/grid-codes" is "blog_grid-codes". */
export function cardKeyOf(pathname: string): string {
  return pathname === "/" ? "home" : pathname.slice(1).replaceAll("/", "_");
}

/** The page path a card key names, or undefined when it names no page of the route table. */
export function pathOfCardKey(key: string): string | undefined {
  const pathname = key === "home" ? "/" : `/${key.replaceAll("_", "/")}`;
  // "blog_x_y" and "home" spelled as a path both stop here: only the key cardKeyOf gives passes.
  return matchRoute(pathname) && cardKeyOf(pathname) === key ? pathname : undefined;
}
