import type { AdminPagePropsOf, NewsletterRowView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { type Column, DataTable } from "../../ui/data-table.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { NewsletterStatusBadge } from "./newsletter-parts.tsx";

// The newsletters, newest first (docs/back-office.md, "Newsletters"): each one's subject, state,
// when it was made or sent, and once sent its recipients and the counts of its mail.

type Props = AdminPagePropsOf<"newsletters">;

const columns: Column<NewsletterRowView>[] = [
  {
    header: "Subject",
    rowHeader: true,
    cell: (row) => (
      <a href={adminHref("newsletter", { id: row.id })} className="admin-link">
        {row.subject || "(no subject)"}
      </a>
    ),
  },
  { header: "State", cell: (row) => <NewsletterStatusBadge status={row.status} /> },
  {
    header: "When",
    className: "whitespace-nowrap",
    cell: (row) =>
      row.sentAt ? `Sent ${formatIndiaDateTime(row.sentAt)}` : `Started ${formatIndiaDateTime(row.createdAt)}`,
  },
  { header: "Recipients", cell: (row) => (row.counts ? row.counts.recipients : "—") },
  {
    header: "Sent / queued / failed",
    cell: (row) => (row.counts ? `${row.counts.sent} / ${row.counts.queued} / ${row.counts.failed}` : "—"),
  },
];

export function NewslettersPage({ viewer, rows, subscribers, notice, error }: Props) {
  return (
    <AdminLayout viewer={viewer} current="newsletters">
      <PageHeader
        title="Newsletters"
        actions={
          <a href={adminHref("newsletterNew")} className="admin-button">
            New newsletter
          </a>
        }
        description={`${subscribers} confirmed ${subscribers === 1 ? "subscriber" : "subscribers"}. A newsletter goes to each of them once.`}
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <DataTable
        label="Newsletters"
        caption="Newsletters, newest first"
        className="admin-card mt-4"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        empty={<p className="text-sm text-slate-700">No newsletter yet. “New newsletter” starts one.</p>}
      />
    </AdminLayout>
  );
}
