import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { ENQUIRY_STATUSES, statusLabels } from "#shared/inbox.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { Field, formStateFor, SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { ReplyBadge } from "./reply-badge.tsx";

type Props = AdminPagePropsOf<"enquiry">;

const mailKindLabels: Record<string, string> = {
  notification: "Notification to the firm",
  acknowledgement: "Acknowledgement to the visitor",
  "reply-reminder": "Reply reminder",
};

function mailState(mail: Props["mail"][number]): string {
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

export function EnquiryPage(props: Props) {
  const { viewer, enquiry, notes, mail, staff, notice, error } = props;
  const name = `${enquiry.firstName} ${enquiry.lastName}`;
  const mailto = `mailto:${encodeURIComponent(enquiry.email).replace(/%40/g, "@")}?subject=${encodeURIComponent(`Re: your enquiry ${enquiry.reference}`)}`;
  const id = enquiry.id;
  return (
    <AdminLayout viewer={viewer} current="inbox">
      <p className="text-sm">
        <a href={adminHref("inbox")} className="admin-link">
          Enquiries
        </a>
      </p>
      <div className="mt-2">
        <PageHeader
          title={name}
          meta={
            <>
              <span className="font-mono text-sm text-slate-700">{enquiry.reference}</span>
              <ReplyBadge reply={enquiry.reply} />
            </>
          }
        />
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
            <dt className="font-medium text-slate-600">Privacy notice shown</dt>
            <dd>{enquiry.noticeVersion ? `Version ${enquiry.noticeVersion}` : "Before versions (not recorded)"}</dd>
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
              <form method="post" action={adminHref("enquiryReplied", { id })}>
                <input type="hidden" name="version" value={enquiry.version} />
                <button type="submit" className="admin-button">
                  Mark replied
                </button>
              </form>
            )}
            {enquiry.status === "spam" ? (
              <form method="post" action={adminHref("enquiryNotSpam", { id })}>
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
              action={adminHref("enquiryUpdate", { id })}
              className="admin-card grid gap-3"
              aria-label="Status and owner"
            >
              <input type="hidden" name="version" value={enquiry.version} />
              <SelectField
                id="enquiry-status"
                name="status"
                label="Status"
                defaultValue={enquiry.status}
                form={formStateFor(props, "update")}
                options={ENQUIRY_STATUSES.map((status) => ({ value: status, label: statusLabels[status] }))}
              />
              <SelectField
                id="enquiry-owner"
                name="owner"
                label="Owner"
                defaultValue={enquiry.ownerId ?? ""}
                form={formStateFor(props, "update")}
                options={[
                  { value: "", label: "Nobody" },
                  ...staff.map((member) => ({ value: member.id, label: member.name })),
                ]}
              />
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
        <form method="post" action={adminHref("enquiryNote", { id })} className="mt-4 grid gap-2">
          <Field
            id="enquiry-note"
            name="note"
            label="Note"
            rows={3}
            maxLength={5000}
            required
            form={formStateFor(props, "note")}
          />
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
