import type { AdminPagePropsOf, SubscriberView } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import {
  SUBSCRIBER_STATE_LABELS,
  SUBSCRIBER_STATE_MEANINGS,
  SUBSCRIBER_STATES,
} from "#shared/admin/subscriber-states.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Field, SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { Pager } from "../../ui/pager.tsx";
import { SubscriberStateBadge } from "./subscriber-state-badge.tsx";

// The newsletter's subscribers: the counts per state (each a link to its filter), a search and a
// state filter (both in the URL, so a view can be bookmarked and exported as it is), and each
// address with its state, when that changed (India time), the proof of consent once confirmed and
// the mail server's answer when bouncing. "Lift bounce" is offered to admins alone, the only ones
// the server lets lift one.

/** When and where consent was given, and (on demand) the words shown there; the bounce's reason. */
function Details({ row }: { row: SubscriberView }) {
  return (
    <div className="grid gap-1 text-sm">
      {row.state === "pending" ? <span className="text-slate-700">Not confirmed yet.</span> : null}
      {row.confirmedAt ? (
        <span className="wrap-anywhere">
          {`Consent given ${formatIndiaDateTime(row.confirmedAt)}${row.consentPage ? ` on ${row.consentPage}` : ""}${row.noticeVersion ? `, privacy notice version ${row.noticeVersion}` : ""}.`}
        </span>
      ) : null}
      {row.consentText ? (
        <details>
          <summary className="cursor-pointer text-navy-800 underline">Wording shown</summary>
          <p className="mt-1 max-w-prose border-l-2 border-slate-300 pl-2 whitespace-pre-line text-slate-700">
            {row.consentText}
          </p>
        </details>
      ) : null}
      {row.state === "bouncing" ? (
        <span className="wrap-anywhere">{`Bounced: ${row.bounceReason ?? "no reason recorded"}`}</span>
      ) : null}
    </div>
  );
}

export function SubscribersPage({
  viewer,
  subscribers,
  q,
  state,
  counts,
  pageNumber,
  more,
  notice,
  error,
}: AdminPagePropsOf<"subscribers">) {
  const all = SUBSCRIBER_STATES.reduce((sum, each) => sum + counts[each], 0);
  const isAdmin = viewer.role === "admin";
  const choices = [
    { value: "" as const, label: "All", count: all },
    ...SUBSCRIBER_STATES.map((each) => ({ value: each, label: SUBSCRIBER_STATE_LABELS[each], count: counts[each] })),
  ];
  return (
    <AdminLayout viewer={viewer} current="subscribers">
      <PageHeader
        title="Subscribers"
        actions={
          <a href={adminHref("subscribersExport", {}, { q, state })} className="admin-button-secondary">
            Export CSV
          </a>
        }
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <nav aria-label="Subscribers by state" className="mb-4">
        <ul className="flex flex-wrap gap-2" data-state-counts>
          {choices.map((choice) => (
            <li key={choice.value || "all"}>
              <a
                href={adminHref("subscribers", {}, { q, state: choice.value })}
                aria-current={choice.value === state ? "page" : undefined}
                className={`inline-flex rounded-md border px-3 py-1 text-sm ${
                  choice.value === state
                    ? "border-navy-800 bg-navy-800 font-semibold text-white"
                    : "border-slate-300 bg-white text-navy-900 hover:bg-slate-50"
                }`}
              >
                {`${choice.label}: ${choice.count}`}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form
        method="get"
        action={adminHref("subscribers")}
        className="admin-card grid gap-4 sm:grid-cols-3 sm:items-end"
        aria-label="Search subscribers"
      >
        <Field id="subscribers-q" name="q" label="Search" type="search" maxLength={254} defaultValue={q} />
        <SelectField
          id="subscribers-state"
          name="state"
          label="State"
          defaultValue={state}
          options={choices.map((choice) => ({ value: choice.value, label: `${choice.label} (${choice.count})` }))}
        />
        <div className="flex gap-2">
          <button type="submit" className="admin-button">
            Search
          </button>
          <a href={adminHref("subscribers")} className="admin-button-secondary">
            Clear
          </a>
        </div>
      </form>
      <details className="mt-3 text-sm text-slate-700">
        <summary className="cursor-pointer">What the states mean</summary>
        <dl className="mt-2 grid gap-1 sm:grid-cols-[auto_1fr] sm:gap-x-4">
          {SUBSCRIBER_STATES.map((each) => (
            <div key={each} className="contents">
              <dt className="font-semibold">{SUBSCRIBER_STATE_LABELS[each]}</dt>
              <dd>{SUBSCRIBER_STATE_MEANINGS[each]}</dd>
            </div>
          ))}
        </dl>
      </details>
      <DataTable
        label="Subscribers"
        caption="Newsletter subscribers, newest first"
        className="admin-card mt-4"
        rows={subscribers}
        rowKey={(row) => row.id}
        empty={<p className="text-slate-700">No subscribers match.</p>}
        columns={[
          {
            header: "Email",
            rowHeader: true,
            className: "min-w-40 align-top font-normal break-all whitespace-normal text-slate-900",
            cell: (row) => row.email,
          },
          {
            header: "State",
            cell: (row) => (
              <>
                <SubscriberStateBadge state={row.state} />
                <span className="mt-1 block text-xs whitespace-nowrap text-slate-600">
                  {`since ${formatIndiaDateTime(row.stateChangedAt)}`}
                </span>
              </>
            ),
          },
          { header: "Subscribed", className: "whitespace-nowrap", cell: (row) => formatIndiaDateTime(row.createdAt) },
          { header: "Consent and bounces", className: "min-w-56", cell: (row) => <Details row={row} /> },
          {
            header: <span className="sr-only">Actions</span>,
            cell: (row) => (
              <div className="flex flex-wrap gap-2">
                {isAdmin && row.state === "bouncing" ? (
                  <form method="post" action={adminHref("subscriberLift", { id: row.id })}>
                    <button
                      type="submit"
                      className="admin-button-secondary whitespace-nowrap"
                      aria-label={`Lift bounce of ${row.email}`}
                    >
                      Lift bounce
                    </button>
                  </form>
                ) : null}
                <form method="post" action={adminHref("subscriberRemove", { id: row.id })}>
                  <button type="submit" className="admin-button-danger" aria-label={`Remove ${row.email}`}>
                    Remove
                  </button>
                </form>
              </div>
            ),
          },
        ]}
      />
      <Pager
        route="subscribers"
        query={{ q, state }}
        pageNumber={pageNumber}
        more={more}
        label="Pages"
        previous="Newer"
        next="Older"
      />
    </AdminLayout>
  );
}
