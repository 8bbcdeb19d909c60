import type { ReactNode } from "react";
import type { AdminPagePropsOf, PromiseFigures } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { ENQUIRY_STATUSES, formatSpan, statusLabels, type EnquiryStatus } from "#shared/inbox.ts";
import { limits, serviceOptions } from "#shared/site.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Field, SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Pager } from "../../ui/pager.tsx";
import { ReplyBadge } from "./reply-badge.tsx";

const statusLabel = (status: string) => statusLabels[status as EnquiryStatus] ?? status;

/** One figure above the inbox: its label, and its number (a link to the matching view, some of them). */
function InboxFigure({
  label,
  tone,
  data,
  children,
}: {
  label: string;
  tone?: string;
  data: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <div className="admin-card">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className={tone ? `text-2xl font-bold ${tone}` : "text-2xl font-bold"} {...data}>
        {children}
      </dd>
    </div>
  );
}

/** What the share is of: the enquiries counted, and those not yet due, which count once answered or due. */
export function promiseText({ counted, answered, pending }: PromiseFigures): string {
  const notDue = pending ? `${pending} not yet due` : "";
  if (!counted) return notDue || "no enquiries yet";
  return notDue ? `${answered} of ${counted}; ${notDue}` : `${answered} of ${counted}`;
}

export function InboxPage({
  viewer,
  rows,
  filter,
  counts,
  promise,
  staff,
  pageNumber,
  more,
  notice,
  error,
}: AdminPagePropsOf<"inbox">) {
  const share = promise.counted > 0 ? Math.round((promise.answered / promise.counted) * 100) : null;
  return (
    <AdminLayout viewer={viewer} current="inbox">
      <PageHeader
        title="Enquiries"
        actions={
          <a href={adminHref("inboxExport", {}, filter)} className="admin-button-secondary">
            Export CSV
          </a>
        }
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label="Inbox figures">
        <InboxFigure label="New" data={{ "data-count": "new" }}>
          <a href={adminHref("inbox", {}, { status: "new" })} className="admin-link">
            {counts.new}
          </a>
        </InboxFigure>
        <InboxFigure
          label="Overdue"
          tone={counts.overdue ? "text-red-800" : "text-navy-900"}
          data={{ "data-count": "overdue" }}
        >
          {counts.overdue}
        </InboxFigure>
        <InboxFigure label="Unassigned" data={{ "data-count": "unassigned" }}>
          <a href={adminHref("inbox", {}, { owner: "none" })} className="admin-link">
            {counts.unassigned}
          </a>
        </InboxFigure>
        <InboxFigure
          label={`Answered within ${limits.replyWithinHours} h (30 days)`}
          tone="text-navy-900"
          data={{ "data-figure": "share" }}
        >
          {share === null ? "–" : `${share}%`}
          <span className="ml-1 text-sm font-normal text-slate-600">{promiseText(promise)}</span>
        </InboxFigure>
        <InboxFigure label="Median reply time (30 days)" tone="text-navy-900" data={{ "data-figure": "median" }}>
          {promise.medianReplyMs === null ? "–" : formatSpan(promise.medianReplyMs)}
        </InboxFigure>
      </dl>

      <form
        method="get"
        action={adminHref("inbox")}
        className="admin-card mt-4 grid gap-4 sm:grid-cols-3 lg:grid-cols-7 lg:items-end"
        aria-label="Filter enquiries"
      >
        <Field
          id="inbox-q"
          name="q"
          label="Search"
          type="search"
          maxLength={200}
          defaultValue={filter.q}
          placeholder="Name, email, company or message"
          className="sm:col-span-3 lg:col-span-2"
        />
        <SelectField
          id="inbox-status"
          name="status"
          label="Status"
          defaultValue={filter.status}
          options={[
            { value: "", label: "All but spam" },
            ...ENQUIRY_STATUSES.map((status) => ({ value: status, label: statusLabels[status] })),
            { value: "all", label: "All, spam too" },
          ]}
        />
        <SelectField
          id="inbox-owner"
          name="owner"
          label="Owner"
          defaultValue={filter.owner}
          options={[
            { value: "", label: "Anyone" },
            { value: "none", label: "Nobody (unassigned)" },
            ...staff.map((member) => ({ value: member.id, label: member.name })),
          ]}
        />
        <SelectField
          id="inbox-service"
          name="service"
          label="Service"
          defaultValue={filter.service}
          options={[{ value: "", label: "Any service" }, ...serviceOptions]}
        />
        <Field id="inbox-from" name="from" label="Received from" type="date" defaultValue={filter.from} />
        <Field id="inbox-to" name="to" label="Received to" type="date" defaultValue={filter.to} />
        <div className="flex gap-2 sm:col-span-3 lg:col-span-7">
          <button type="submit" className="admin-button">
            Filter
          </button>
          <a href={adminHref("inbox")} className="admin-button-secondary">
            Clear
          </a>
        </div>
      </form>

      <DataTable
        label="Enquiries"
        caption="Enquiries, newest first"
        className="admin-card mt-4"
        rows={rows}
        rowKey={(row) => row.id}
        empty={<p className="text-slate-700">No enquiries match.</p>}
        columns={[
          {
            header: "Name",
            cell: (row) => (
              <>
                <a href={adminHref("enquiry", { id: row.id })} className="admin-link">
                  {row.name}
                </a>
                <div className="text-xs text-slate-600">{row.reference}</div>
              </>
            ),
          },
          {
            header: "Company",
            cell: (row) => (
              <>
                {row.company ?? ""}
                {row.attribution ? <div className="text-xs text-slate-600">{row.attribution}</div> : null}
              </>
            ),
          },
          { header: "Service", cell: (row) => row.service ?? "" },
          { header: "Received", className: "whitespace-nowrap", cell: (row) => formatIndiaDateTime(row.receivedAt) },
          {
            header: "Status",
            cell: (row) => (
              <>
                {statusLabel(row.status)}
                {row.status === "spam" && row.spamReason ? (
                  <div className="text-xs text-slate-600">{row.spamReason}</div>
                ) : null}
              </>
            ),
          },
          { header: "Owner", cell: (row) => row.owner ?? <span className="text-slate-500">Unassigned</span> },
          { header: "Reply", cell: (row) => <ReplyBadge reply={row.reply} /> },
        ]}
      />
      <Pager
        route="inbox"
        query={filter}
        pageNumber={pageNumber}
        more={more}
        label="Pages"
        previous="Newer"
        next="Older"
      />
    </AdminLayout>
  );
}
