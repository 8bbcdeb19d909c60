import type { ArticleFilter, StudioRowView } from "#shared/admin/pages.ts";
import type { AdminViewer } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { ARTICLE_STATUS_LABELS, ARTICLE_STATUSES, type ArticleStatus } from "#shared/content/documents.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { type Column, DataTable } from "../../ui/data-table.tsx";
import { Field, SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Pager } from "../../ui/pager.tsx";
import type { StudioPageKind } from "./kinds.ts";
import { StatusBadge } from "./status-badge.tsx";

// A studio list, of articles or of projects: "New …", a search and a status filter with counts
// (kept in the URL), and the table of the items, most recently changed first, with the kind's
// own column (an article's author, a project's year) after its category.

export type StudioListProps<Row extends StudioRowView> = {
  kind: StudioPageKind;
  viewer: AdminViewer;
  rows: Row[];
  filter: ArticleFilter;
  counts: Record<ArticleStatus, number>;
  pageNumber: number;
  more: boolean;
  notice?: string;
  error?: string;
  /** What the search looks in, as its placeholder says. */
  searchPlaceholder: string;
  /** The kind's own column. */
  column: Column<Row>;
};

export function StudioListPage<Row extends StudioRowView>(props: StudioListProps<Row>) {
  const { kind, viewer, rows, filter, counts, pageNumber, more, notice, error } = props;
  const all = ARTICLE_STATUSES.filter((status) => status !== "trash").reduce((sum, status) => sum + counts[status], 0);
  const plural = kind.plural.toLowerCase();
  const newLabel = `New ${kind.noun}`;
  return (
    <AdminLayout viewer={viewer} current={kind.routes.list}>
      <PageHeader
        title={kind.plural}
        actions={
          <a href={adminHref(kind.routes.new)} className="admin-button">
            {newLabel}
          </a>
        }
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <form
        method="get"
        action={adminHref(kind.routes.list)}
        className="admin-card grid gap-4 sm:grid-cols-3 sm:items-end"
        aria-label={`Filter ${plural}`}
      >
        <Field
          id={`${plural}-q`}
          name="q"
          label="Search"
          type="search"
          maxLength={200}
          defaultValue={filter.q}
          placeholder={props.searchPlaceholder}
        />
        <SelectField
          id={`${plural}-status`}
          name="status"
          label="Status"
          defaultValue={filter.status === "all" ? "" : filter.status}
          options={[
            { value: "", label: `All (${all})` },
            ...ARTICLE_STATUSES.map((status) => ({
              value: status,
              label: `${ARTICLE_STATUS_LABELS[status]} (${counts[status]})`,
            })),
          ]}
        />
        <div className="flex gap-2">
          <button type="submit" className="admin-button">
            Filter
          </button>
          <a href={adminHref(kind.routes.list)} className="admin-button-secondary">
            Clear
          </a>
        </div>
      </form>

      <DataTable
        label={kind.plural}
        caption={`${kind.plural}, the most recently changed first`}
        className="admin-card mt-4"
        rows={rows}
        rowKey={(row) => row.id}
        empty={
          <p className="text-slate-700">
            {filter.q || filter.status ? `No ${plural} match.` : `No ${plural} yet: write the first with ${newLabel}.`}
          </p>
        }
        columns={[
          {
            header: "Title",
            rowHeader: true,
            className: "min-w-48 align-top font-normal whitespace-normal",
            cell: (row) => (
              <a href={adminHref(kind.routes.item, { id: row.id })} className="admin-link">
                {row.title || "Untitled"}
              </a>
            ),
          },
          {
            header: "Status",
            cell: (row) => (
              <>
                <StatusBadge status={row.status} />
                {row.status === "scheduled" && row.publishedAt ? (
                  <span className="mt-1 block text-xs whitespace-nowrap text-slate-600">
                    Goes public {formatIndiaDateTime(row.publishedAt)}
                  </span>
                ) : null}
              </>
            ),
          },
          { header: "Category", cell: (row) => row.category },
          props.column,
          {
            header: "Last change",
            className: "whitespace-nowrap",
            cell: (row) => (
              <>
                {formatIndiaDateTime(row.changedAt)}
                <span className="block text-xs text-slate-600">by {row.changedBy}</span>
              </>
            ),
          },
          {
            header: "Public address",
            className: "break-all",
            cell: (row) =>
              row.publicPath ? (
                <a href={row.publicPath} className="admin-link">
                  {row.publicPath}
                </a>
              ) : (
                <span className="text-slate-500">Not public</span>
              ),
          },
        ]}
      />
      <Pager
        route={kind.routes.list}
        query={{ q: filter.q, status: filter.status }}
        pageNumber={pageNumber}
        more={more}
        label="Pages"
        previous="Newer"
        next="Older"
      />
    </AdminLayout>
  );
}
