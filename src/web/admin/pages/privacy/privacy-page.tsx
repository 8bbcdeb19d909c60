import type { AdminPagePropsOf, ErasureCounts } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { AdminLayout } from "../../layout.tsx";
import { Field, formStateFor } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

function Counts({ counts }: { counts: ErasureCounts }) {
  return (
    <ul className="mt-2 grid gap-1 text-sm" data-erasure-counts>
      <li>Enquiries: {counts.enquiries}</li>
      <li>Notes: {counts.notes}</li>
      <li>Queued or sent mail: {counts.mail}</li>
      <li>Newsletter subscriptions: {counts.subscriptions}</li>
      <li>Newsletter mail: {counts.newsletterMail}</li>
    </ul>
  );
}

// The address is posted, never put in a URL: a lookup by GET would leave it in the browser's
// history and in logs.
export function PrivacyPage(props: AdminPagePropsOf<"privacy">) {
  const { viewer, email, retention, preview, erased, notice, error } = props;
  return (
    <AdminLayout viewer={viewer} current="privacy">
      <PageHeader title="Privacy" />
      <div className="mt-4">
        <Messages
          error={error}
          notice={
            erased
              ? "Erased. Nothing of that address remains; the audit trail records the counts, not the address."
              : notice
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
          its notes and mail) and newsletter subscription of that address, with the newsletter mail to it, sent or not.
        </p>
        <form method="post" action={adminHref("privacyPreview")} className="mt-3 flex flex-wrap items-end gap-3">
          <Field
            id="privacy-email"
            name="email"
            label="Email address"
            type="email"
            required
            maxLength={254}
            defaultValue={email}
            form={formStateFor(props)}
            className="grow"
          />
          <button type="submit" className="admin-button-secondary">
            Preview
          </button>
        </form>
        {preview && email ? (
          <div className="mt-4 rounded-md border border-slate-300 p-4">
            <p className="text-sm font-medium">
              For <span className="break-all">{email}</span> this deletes:
            </p>
            <Counts counts={preview} />
            <form method="post" action={adminHref("privacyErase")} className="mt-3">
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
          <li>
            Raw page views are deleted {retention.analyticsDays} days after they were recorded; the daily totals stay
            (ANALYTICS_RETENTION_DAYS).
          </li>
        </ul>
      </section>
    </AdminLayout>
  );
}
