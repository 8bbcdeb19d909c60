import { adminHref, type AdminRouteName, type AdminRouteParams, type adminRoutes } from "#shared/admin/routes.ts";

/** The back office's lists: GET routes without parameters, paged with ?page=N. */
export type ListRouteName = {
  [Name in AdminRouteName]: (typeof adminRoutes)[Name]["method"] extends "GET"
    ? keyof AdminRouteParams<Name> extends never
      ? Name
      : never
    : never;
}[AdminRouteName];

/** Where a list's pages are: a list route and its query, or (a list of one item's, such as its history) any address. */
type PagesOf =
  | {
      route: ListRouteName;
      /** The list's current query, without `page`. */
      query: Record<string, string | undefined>;
    }
  | { pageHref: (page: number) => string };

/**
 * Links to the previous and next page of a list, keeping the query it was asked with (its filter);
 * each is shown only when there is such a page.
 */
export function Pager({
  pageNumber,
  more,
  label,
  previous,
  next,
  linkClassName = "admin-button-secondary",
  ...pages
}: PagesOf & {
  pageNumber: number;
  more: boolean;
  /** The navigation's name ("Pages"). */
  label: string;
  /** The links' text: "Newer", "Older". */
  previous: string;
  next: string;
  linkClassName?: string;
}) {
  const href =
    "pageHref" in pages
      ? pages.pageHref
      : (page: number) => adminHref(pages.route, {}, { ...pages.query, page: page > 1 ? page : undefined });
  return (
    <nav aria-label={label} className="mt-4 flex gap-3">
      {pageNumber > 1 ? (
        <a href={href(pageNumber - 1)} className={linkClassName}>
          {previous}
        </a>
      ) : null}
      {more ? (
        <a href={href(pageNumber + 1)} className={linkClassName}>
          {next}
        </a>
      ) : null}
    </nav>
  );
}
