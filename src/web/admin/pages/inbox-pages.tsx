import type { ReactNode } from "react";
import type { AdminPageProps, InboxFilter, ReplyStateView } from "#shared/admin/pages.ts";
import { adminPaths } from "#shared/admin/pages.ts";
import { ENQUIRY_STATUSES, formatSpan, statusLabels, type EnquiryStatus } from "#shared/inbox.ts";
import { limits, serviceOptions } from "#shared/site.ts";
import { formatIndiaDateTime } from "../format.ts";
import { AdminLayout, Messages } from "../layout.tsx";

type Props<Name extends AdminPageProps["page"]> = Extract<AdminPageProps, { page: Name }>;

const statusLabel = (status: string) => statusLabels[status as EnquiryStatus] ?? status;

const mailKindLabels: Record<string, string> = {
  notification: "Notification to the firm",
  acknowledgement: "Acknowledgement to the visitor",
  "reply-reminder": "Reply reminder",
};

function ReplyBadge({ reply }: { reply: ReplyStateView }) {
  const tone =
    reply.kind === "overdue"
      ? "border-red-300 bg-red-50 text-red-900"
      : reply.kind === "due"
        ? "border-amber-300 bg-amber-50 text-amber-900"
        : reply.kind === "replied"
          ? "border-green-300 bg-green-50 text-green-900"
          : "border-slate-300 bg-slate-50 text-slate-700";
  return (
    <span className={`inline-block rounded-md border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tone}`}>
      {reply.label}
    </span>
  );
}

function filterQuery(filter: InboxFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    ...Object.fromEntries(Object.entries(filter).filter(([, value]) => value)),
    ...extra,
  });
  const text = params.toString();
  return text ? `?${text}` : "";
}

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

export function InboxPage({ viewer, rows, filter, counts, promise, staff, pageNumber, more }: Props<"inbox">) {
  const share = promise.counted > 0 ? Math.round((promise.answered / promise.counted) * 100) : null;
  return (
    <AdminLayout viewer={viewer} current={adminPaths.home}>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-bold text-navy-900">Enquiries</h1>
        <a href={`${adminPaths.inboxExport}${filterQuery(filter)}`} className="admin-button-secondary" download>
          Export CSV
        </a>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label="Inbox figures">
        <InboxFigure label="New" data={{ "data-count": "new" }}>
          <a href={`${adminPaths.home}?status=new`} className="admin-link">
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
          <a href={`${adminPaths.home}?owner=none`} className="admin-link">
            {counts.unassigned}
          </a>
        </InboxFigure>
        <InboxFigure
          label={`Answered within ${limits.replyWithinHours} h (30 days)`}
          tone="text-navy-900"
          data={{ "data-figure": "share" }}
        >
          {share === null ? "–" : `${share}%`}
          <span className="ml-1 text-sm font-normal text-slate-600">
            {promise.counted ? `${promise.answered} of ${promise.counted}` : "no enquiries yet"}
          </span>
        </InboxFigure>
        <InboxFigure label="Median reply time (30 days)" tone="text-navy-900" data={{ "data-figure": "median" }}>
          {promise.medianReplyMs === null ? "–" : formatSpan(promise.medianReplyMs)}
        </InboxFigure>
      </dl>

      <form
        method="get"
        action={adminPaths.home}
        className="admin-card mt-4 grid gap-4 sm:grid-cols-3 lg:grid-cols-7 lg:items-end"
        aria-label="Filter enquiries"
      >
        <div className="sm:col-span-3 lg:col-span-2">
          <label htmlFor="inbox-q" className="admin-label">
            Search
          </label>
          <input
            id="inbox-q"
            name="q"
            type="search"
            maxLength={200}
            defaultValue={filter.q}
            className="admin-input"
            placeholder="Name, email, company or message"
          />
        </div>
        <div>
          <label htmlFor="inbox-status" className="admin-label">
            Status
          </label>
          <select id="inbox-status" name="status" defaultValue={filter.status} className="admin-input">
            <option value="">All but spam</option>
            {ENQUIRY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {statusLabels[status]}
              </option>
            ))}
            <option value="all">All, spam too</option>
          </select>
        </div>
        <div>
          <label htmlFor="inbox-owner" className="admin-label">
            Owner
          </label>
          <select id="inbox-owner" name="owner" defaultValue={filter.owner} className="admin-input">
            <option value="">Anyone</option>
            <option value="none">Nobody (unassigned)</option>
            {staff.map((member) => (
              <option key={member.id} value={member.id}>
                {member.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="inbox-service" className="admin-label">
            Service
          </label>
          <select id="inbox-service" name="service" defaultValue={filter.service} className="admin-input">
            <option value="">Any service</option>
            {serviceOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="inbox-from" className="admin-label">
            Received from
          </label>
          <input id="inbox-from" name="from" type="date" defaultValue={filter.from} className="admin-input" />
        </div>
        <div>
          <label htmlFor="inbox-to" className="admin-label">
            Received to
          </label>
          <input id="inbox-to" name="to" type="date" defaultValue={filter.to} className="admin-input" />
        </div>
        <div className="flex gap-2 sm:col-span-3 lg:col-span-7">
          <button type="submit" className="admin-button">
            Filter
          </button>
          <a href={adminPaths.home} className="admin-button-secondary">
            Clear
          </a>
        </div>
      </form>

      <div className="admin-card relative mt-4 overflow-x-auto" role="region" aria-label="Enquiries" tabIndex={0}>
        {rows.length === 0 ? (
          <p className="text-slate-700">No enquiries match.</p>
        ) : (
          <table className="admin-table">
            <caption className="sr-only">Enquiries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Company</th>
                <th scope="col">Service</th>
                <th scope="col">Received</th>
                <th scope="col">Status</th>
                <th scope="col">Owner</th>
                <th scope="col">Reply</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>
                    <a href={adminPaths.enquiry(row.id)} className="admin-link">
                      {row.name}
                    </a>
                    <div className="text-xs text-slate-600">{row.reference}</div>
                  </td>
                  <td>
                    {row.company ?? ""}
                    {row.attribution ? <div className="text-xs text-slate-600">{row.attribution}</div> : null}
                  </td>
                  <td>{row.service ?? ""}</td>
                  <td className="whitespace-nowrap">{formatIndiaDateTime(row.receivedAt)}</td>
                  <td>
                    {statusLabel(row.status)}
                    {row.status === "spam" && row.spamReason ? (
                      <div className="text-xs text-slate-600">{row.spamReason}</div>
                    ) : null}
                  </td>
                  <td>{row.owner ?? <span className="text-slate-500">Unassigned</span>}</td>
                  <td>
                    <ReplyBadge reply={row.reply} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <nav aria-label="Pages" className="mt-4 flex gap-3">
        {pageNumber > 1 ? (
          <a
            href={`${adminPaths.home}${filterQuery(filter, { page: String(pageNumber - 1) })}`}
            className="admin-button-secondary"
          >
            Newer
          </a>
        ) : null}
        {more ? (
          <a
            href={`${adminPaths.home}${filterQuery(filter, { page: String(pageNumber + 1) })}`}
            className="admin-button-secondary"
          >
            Older
          </a>
        ) : null}
      </nav>
    </AdminLayout>
  );
}

function mailState(mail: Props<"enquiry">["mail"][number]): string {
  switch (mail.status) {
    case "sent":
      return mail.sentAt ? `Sent ${formatIndiaDateTime(mail.sentAt)}` : "Sent";
    case "pending":
      return `Pending: next attempt ${formatIndiaDateTime(mail.nextAttemptAt)}${mail.attempts ? ` (after ${mail.attempts} attempts${mail.lastError ? `: ${mail.lastError}` : ""})` : ""}`;
    case "failed":
      return `Failed: ${mail.lastError ?? "no reason recorded"}`;
    case "unconfigured":
      return "Not sent: the site had no mail server set";
    case "cancelled":
      return `Not sent: ${mail.lastError ?? "no longer needed"}`;
    default:
      return mail.status;
  }
}

export function EnquiryPage({ viewer, enquiry, notes, mail, staff, notice, error }: Props<"enquiry">) {
  const name = `${enquiry.firstName} ${enquiry.lastName}`;
  const mailto = `mailto:${encodeURIComponent(enquiry.email).replace(/%40/g, "@")}?subject=${encodeURIComponent(`Re: your enquiry ${enquiry.reference}`)}`;
  return (
    <AdminLayout viewer={viewer} current={adminPaths.home}>
      <p className="text-sm">
        <a href={adminPaths.home} className="admin-link">
          Enquiries
        </a>
      </p>
      <div className="mt-2 flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-bold text-navy-900">{name}</h1>
        <span className="font-mono text-sm text-slate-700">{enquiry.reference}</span>
        <ReplyBadge reply={enquiry.reply} />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <section className="admin-card lg:col-span-2" aria-labelledby="enquiry-details">
          <h2 id="enquiry-details" className="text-lg font-semibold text-navy-900">
            The enquiry
          </h2>
          <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="font-medium text-slate-600">Reference</dt>
            <dd>{enquiry.reference}</dd>
            <dt className="font-medium text-slate-600">Name</dt>
            <dd>{name}</dd>
            <dt className="font-medium text-slate-600">Email</dt>
            <dd className="break-all">{enquiry.email}</dd>
            <dt className="font-medium text-slate-600">Company</dt>
            <dd>{enquiry.company ?? "Not given"}</dd>
            <dt className="font-medium text-slate-600">Service</dt>
            <dd>{enquiry.service ?? "Not specified"}</dd>
            <dt className="font-medium text-slate-600">Received</dt>
            <dd>{formatIndiaDateTime(enquiry.receivedAt)}</dd>
            <dt className="font-medium text-slate-600">Came from</dt>
            <dd className="break-all">{enquiry.attribution ?? "Not known"}</dd>
            <dt className="font-medium text-slate-600">Reply due</dt>
            <dd>{formatIndiaDateTime(enquiry.dueAt)}</dd>
            <dt className="font-medium text-slate-600">First reply</dt>
            <dd>
              {enquiry.firstReplyAt
                ? `${formatIndiaDateTime(enquiry.firstReplyAt)} by ${enquiry.firstReplyBy ?? ""}`
                : "Not yet"}
            </dd>
            {enquiry.status === "spam" ? (
              <>
                <dt className="font-medium text-slate-600">Caught as spam</dt>
                <dd>{enquiry.spamReason ?? "no reason recorded"}</dd>
              </>
            ) : null}
          </dl>
          <h3 className="mt-4 text-sm font-semibold text-slate-700">Message</h3>
          <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-900">{enquiry.message}</p>
          <div className="mt-4 flex flex-wrap gap-2">
            <a href={mailto} className="admin-button-secondary">
              Reply by email
            </a>
            {enquiry.firstReplyAt ? null : (
              <form method="post" action={`${adminPaths.enquiry(enquiry.id)}/replied`}>
                <input type="hidden" name="version" value={enquiry.version} />
                <button type="submit" className="admin-button">
                  Mark replied
                </button>
              </form>
            )}
            {enquiry.status === "spam" ? (
              <form method="post" action={`${adminPaths.enquiry(enquiry.id)}/not-spam`}>
                <input type="hidden" name="version" value={enquiry.version} />
                <button type="submit" className="admin-button">
                  Not spam
                </button>
              </form>
            ) : null}
          </div>
        </section>

        <div className="grid content-start gap-4">
          {enquiry.status === "spam" ? null : (
            <form
              method="post"
              action={adminPaths.enquiry(enquiry.id)}
              className="admin-card grid gap-3"
              aria-label="Status and owner"
            >
              <input type="hidden" name="version" value={enquiry.version} />
              <div>
                <label htmlFor="enquiry-status" className="admin-label">
                  Status
                </label>
                <select id="enquiry-status" name="status" defaultValue={enquiry.status} className="admin-input">
                  {ENQUIRY_STATUSES.map((status) => (
                    <option key={status} value={status}>
                      {statusLabels[status]}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label htmlFor="enquiry-owner" className="admin-label">
                  Owner
                </label>
                <select id="enquiry-owner" name="owner" defaultValue={enquiry.ownerId ?? ""} className="admin-input">
                  <option value="">Nobody</option>
                  {staff.map((member) => (
                    <option key={member.id} value={member.id}>
                      {member.name}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <button type="submit" className="admin-button">
                  Save
                </button>
              </div>
            </form>
          )}
          <section className="admin-card" aria-labelledby="enquiry-mail">
            <h2 id="enquiry-mail" className="text-lg font-semibold text-navy-900">
              Mail
            </h2>
            {mail.length === 0 ? (
              <p className="mt-2 text-sm text-slate-700">No mail was queued for this enquiry.</p>
            ) : (
              <ul className="mt-2 grid gap-2 text-sm">
                {mail.map((row) => (
                  <li key={`${row.kind}`}>
                    <span className="font-medium">{mailKindLabels[row.kind] ?? row.kind}</span>: {mailState(row)}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>

      <section className="admin-card mt-4" aria-labelledby="enquiry-notes">
        <h2 id="enquiry-notes" className="text-lg font-semibold text-navy-900">
          Notes
        </h2>
        {notes.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No notes yet.</p>
        ) : (
          <ol className="mt-3 grid gap-3">
            {notes.map((note) => (
              <li key={note.id} className="border-l-4 border-slate-300 pl-3">
                <p className="text-xs text-slate-600">
                  {note.author}, {formatIndiaDateTime(note.at)}
                </p>
                <p className="text-sm break-words whitespace-pre-wrap text-slate-900">{note.body}</p>
              </li>
            ))}
          </ol>
        )}
        <form method="post" action={`${adminPaths.enquiry(enquiry.id)}/notes`} className="mt-4 grid gap-2">
          <label htmlFor="enquiry-note" className="admin-label">
            Note
          </label>
          <textarea id="enquiry-note" name="note" rows={3} maxLength={5000} required className="admin-input" />
          <div>
            <button type="submit" className="admin-button">
              Add note
            </button>
          </div>
        </form>
      </section>
    </AdminLayout>
  );
}

export function SubscribersPage({ viewer, subscribers, q, pageNumber, more, notice, error }: Props<"subscribers">) {
  const query = (extra: Record<string, string> = {}) => {
    const params = new URLSearchParams({ ...(q ? { q } : {}), ...extra }).toString();
    return params ? `?${params}` : "";
  };
  return (
    <AdminLayout viewer={viewer} current={adminPaths.subscribers}>
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-bold text-navy-900">Subscribers</h1>
        <a href={`${adminPaths.subscribersExport}${query()}`} className="admin-button-secondary" download>
          Export CSV
        </a>
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <form
        method="get"
        action={adminPaths.subscribers}
        className="admin-card flex flex-wrap items-end gap-3"
        aria-label="Search subscribers"
      >
        <div className="grow">
          <label htmlFor="subscribers-q" className="admin-label">
            Search
          </label>
          <input id="subscribers-q" name="q" type="search" maxLength={254} defaultValue={q} className="admin-input" />
        </div>
        <button type="submit" className="admin-button">
          Search
        </button>
      </form>
      <div className="admin-card relative mt-4 overflow-x-auto" role="region" aria-label="Subscribers" tabIndex={0}>
        {subscribers.length === 0 ? (
          <p className="text-slate-700">No subscribers match.</p>
        ) : (
          <table className="admin-table">
            <caption className="sr-only">Newsletter subscribers, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Subscribed</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {subscribers.map((row) => (
                <tr key={row.id}>
                  <td className="break-all">{row.email}</td>
                  <td className="whitespace-nowrap">{formatIndiaDateTime(row.createdAt)}</td>
                  <td>
                    <form method="post" action={`${adminPaths.subscribers}/${row.id}/remove`}>
                      <button type="submit" className="admin-button-danger" aria-label={`Remove ${row.email}`}>
                        Remove
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <nav aria-label="Pages" className="mt-4 flex gap-3">
        {pageNumber > 1 ? (
          <a
            href={`${adminPaths.subscribers}${query({ page: String(pageNumber - 1) })}`}
            className="admin-button-secondary"
          >
            Newer
          </a>
        ) : null}
        {more ? (
          <a
            href={`${adminPaths.subscribers}${query({ page: String(pageNumber + 1) })}`}
            className="admin-button-secondary"
          >
            Older
          </a>
        ) : null}
      </nav>
    </AdminLayout>
  );
}

function Counts({ counts }: { counts: NonNullable<Props<"privacy">["preview"]> }) {
  return (
    <ul className="mt-2 grid gap-1 text-sm" data-erasure-counts>
      <li>Enquiries: {counts.enquiries}</li>
      <li>Notes: {counts.notes}</li>
      <li>Queued or sent mail: {counts.mail}</li>
      <li>Newsletter subscriptions: {counts.subscriptions}</li>
    </ul>
  );
}

export function PrivacyPage({ viewer, email, retention, preview, erased, error }: Props<"privacy">) {
  return (
    <AdminLayout viewer={viewer} current={adminPaths.privacy}>
      <h1 className="text-2xl font-bold text-navy-900">Privacy</h1>
      <div className="mt-4">
        <Messages
          error={error}
          notice={
            erased
              ? "Erased. Nothing of that address remains; the audit trail records the counts, not the address."
              : undefined
          }
        />
      </div>
      {erased ? (
        <section className="admin-card mb-4" aria-label="Erased">
          <h2 className="text-lg font-semibold text-navy-900">Deleted</h2>
          <Counts counts={erased} />
        </section>
      ) : null}
      <section className="admin-card" aria-labelledby="erasure">
        <h2 id="erasure" className="text-lg font-semibold text-navy-900">
          Erase a person&apos;s data
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Give the address a person asked about. You see what would be deleted before anything is: every enquiry (with
          its notes and mail) and newsletter subscription of that address.
        </p>
        <form method="get" action={adminPaths.privacy} className="mt-3 flex flex-wrap items-end gap-3">
          <div className="grow">
            <label htmlFor="privacy-email" className="admin-label">
              Email address
            </label>
            <input
              id="privacy-email"
              name="email"
              type="email"
              required
              maxLength={254}
              defaultValue={email}
              className="admin-input"
            />
          </div>
          <button type="submit" className="admin-button-secondary">
            Preview
          </button>
        </form>
        {preview ? (
          <div className="mt-4 rounded-md border border-slate-300 p-4">
            <p className="text-sm font-medium">
              For <span className="break-all">{email}</span> this deletes:
            </p>
            <Counts counts={preview} />
            <form method="post" action={`${adminPaths.privacy}/erase`} className="mt-3">
              <input type="hidden" name="email" value={email} />
              <input type="hidden" name="confirm" value={email} />
              <button type="submit" className="admin-button-danger">
                Erase
              </button>
            </form>
          </div>
        ) : null}
      </section>
      <section className="admin-card mt-4" aria-labelledby="retention">
        <h2 id="retention" className="text-lg font-semibold text-navy-900">
          Retention
        </h2>
        <ul className="mt-2 grid gap-1 text-sm text-slate-700">
          <li>Spam is deleted {retention.spamDays} days after it arrived (SPAM_RETENTION_DAYS).</li>
          <li>
            Enquiries closed as Won or Lost are deleted {retention.closedEnquiryDays} days after they closed
            (ENQUIRY_RETENTION_DAYS).
          </li>
        </ul>
      </section>
    </AdminLayout>
  );
}
