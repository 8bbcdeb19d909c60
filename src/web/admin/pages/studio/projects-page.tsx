import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { StudioListPage } from "./items-page.tsx";
import { PROJECT_PAGES } from "./kinds.ts";

/** The studio's list of projects: a search, a status filter with counts, and the table. */
export function ProjectsPage({ page: _page, ...props }: AdminPagePropsOf<"projects">) {
  return (
    <StudioListPage
      {...props}
      kind={PROJECT_PAGES}
      searchPlaceholder="Title or description"
      column={{ header: "Year", cell: (row) => row.year }}
    />
  );
}
