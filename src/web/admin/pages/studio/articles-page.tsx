import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { StudioListPage } from "./items-page.tsx";
import { ARTICLE_PAGES } from "./kinds.ts";

/** The content studio's list of articles: a search, a status filter with counts, and the table. */
export function ArticlesPage({ page: _page, ...props }: AdminPagePropsOf<"articles">) {
  return (
    <StudioListPage
      {...props}
      kind={ARTICLE_PAGES}
      searchPlaceholder="Title, excerpt or text"
      column={{ header: "Author", cell: (row) => row.authorName ?? <span className="text-slate-500">None</span> }}
    />
  );
}
