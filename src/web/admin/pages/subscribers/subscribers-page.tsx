import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Field } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Pager } from "../../ui/pager.tsx";

export function SubscribersPage({
  viewer,
  subscribers,
  q,
  pageNumber,
  more,
  notice,
  error,
}: AdminPagePropsOf<"subscribers">) {
  return (
    <AdminLayout viewer={viewer} current="subscribers">
      <PageHeader
        title="Subscribers"
        actions={
          <a href={adminHref("subscribersExport", {}, { q })} className="admin-button-secondary">
            Export CSV
          </a>
        }
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <form
        method="get"
        action={adminHref("subscribers")}
        className="admin-card flex flex-wrap items-end gap-3"
        aria-label="Search subscribers"
      >
        <Field
          id="subscribers-q"
          name="q"
          label="Search"
          type="search"
          maxLength={254}
          defaultValue={q}
          className="grow"
        />
        <button type="submit" className="admin-button">
          Search
        </button>
      </form>
      <DataTable
        label="Subscribers"
        caption="Newsletter subscribers, newest first"
        className="admin-card mt-4"
        rows={subscribers}
        rowKey={(row) => row.id}
        empty={<p className="text-slate-700">No subscribers match.</p>}
        columns={[
          { header: "Email", className: "break-all", cell: (row) => row.email },
          { header: "Subscribed", className: "whitespace-nowrap", cell: (row) => formatIndiaDateTime(row.createdAt) },
          {
            header: <span className="sr-only">Actions</span>,
            cell: (row) => (
              <form method="post" action={adminHref("subscriberRemove", { id: row.id })}>
                <button type="submit" className="admin-button-danger" aria-label={`Remove ${row.email}`}>
                  Remove
                </button>
              </form>
            ),
          },
        ]}
      />
      <Pager
        route="subscribers"
        query={{ q }}
        pageNumber={pageNumber}
        more={more}
        label="Pages"
        previous="Newer"
        next="Older"
      />
    </AdminLayout>
  );
}
