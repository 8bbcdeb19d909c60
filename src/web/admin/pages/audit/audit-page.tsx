import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Field, SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Pager } from "../../ui/pager.tsx";

export function AuditPage({
  viewer,
  events,
  filter,
  actions,
  actors,
  pageNumber,
  more,
  notice,
  error,
}: AdminPagePropsOf<"audit">) {
  return (
    <AdminLayout viewer={viewer} current="audit">
      <PageHeader title="Audit log" />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <form method="get" action={adminHref("audit")} className="admin-card grid gap-4 sm:grid-cols-5 sm:items-end">
        <SelectField
          id="audit-action"
          name="action"
          label="Action"
          defaultValue={filter.action}
          options={[{ value: "", label: "Any action" }, ...actions.map((action) => ({ value: action, label: action }))]}
        />
        <SelectField
          id="audit-actor"
          name="actor"
          label="Who"
          defaultValue={filter.actor}
          options={[{ value: "", label: "Anyone" }, ...actors.map((actor) => ({ value: actor.id, label: actor.name }))]}
        />
        <Field id="audit-from" name="from" label="From" type="date" defaultValue={filter.from} />
        <Field id="audit-to" name="to" label="To" type="date" defaultValue={filter.to} />
        <div>
          <button type="submit" className="admin-button w-full">
            Filter
          </button>
        </div>
      </form>
      <DataTable
        label="Events"
        caption="Back-office events, newest first"
        className="admin-card mt-4"
        rows={events}
        rowKey={(event) => event.id}
        empty={<p className="text-slate-700">No events match.</p>}
        columns={[
          { header: "When", className: "whitespace-nowrap", cell: (event) => formatIndiaDateTime(event.at) },
          { header: "Who", cell: (event) => event.actor },
          { header: "Action", className: "whitespace-nowrap", cell: (event) => event.action },
          { header: "Target", className: "break-all", cell: (event) => event.target ?? "" },
          { header: "From", className: "whitespace-nowrap", cell: (event) => event.clientAddress ?? "" },
          { header: "Details", className: "font-mono text-xs break-all", cell: (event) => event.details ?? "" },
        ]}
      />
      <Pager
        route="audit"
        query={filter}
        pageNumber={pageNumber}
        more={more}
        label="Pages of the audit log"
        previous="Newer events"
        next="Older events"
        linkClassName="admin-link"
      />
    </AdminLayout>
  );
}
