import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { ARTICLE_STATUS_LABELS, ARTICLE_STATUSES } from "#shared/content/documents.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Field, SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Pager } from "../../ui/pager.tsx";
import { StatusBadge } from "./status-badge.tsx";

/** The content studio's list of articles: a search, a status filter with counts, and the table. */
export function ArticlesPage({
  viewer,
  rows,
  filter,
  counts,
  pageNumber,
  more,
  notice,
  error,
}: AdminPagePropsOf<"articles">) {
  const all = ARTICLE_STATUSES.filter((status) => status !== "trash").reduce((sum, status) => sum + counts[status], 0);
  return (
    <AdminLayout viewer={viewer} current="articles">
      <PageHeader
        title="Articles"
        actions={
          <a href={adminHref("articleNew")} className="admin-button">
            New article
          </a>
        }
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <form
        method="get"
        action={adminHref("articles")}
        className="admin-card grid gap-4 sm:grid-cols-3 sm:items-end"
        aria-label="Filter articles"
      >
        <Field
          id="articles-q"
          name="q"
          label="Search"
          type="search"
          maxLength={200}
          defaultValue={filter.q}
          placeholder="Title, excerpt or text"
        />
        <SelectField
          id="articles-status"
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
          <a href={adminHref("articles")} className="admin-button-secondary">
            Clear
          </a>
        </div>
      </form>

      <DataTable
        label="Articles"
        caption="Articles, the most recently changed first"
        className="admin-card mt-4"
        rows={rows}
        rowKey={(row) => row.id}
        empty={
          <p className="text-slate-700">
            {filter.q || filter.status ? "No articles match." : "No articles yet: write the first with New article."}
          </p>
        }
        columns={[
          {
            header: "Title",
            rowHeader: true,
            className: "min-w-48 align-top font-normal whitespace-normal",
            cell: (row) => (
              <a href={adminHref("article", { id: row.id })} className="admin-link">
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
          { header: "Author", cell: (row) => row.authorName ?? <span className="text-slate-500">None</span> },
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
        route="articles"
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
