import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { AdminLayout } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

// "Send to N subscribers?" (docs/back-office.md, "Newsletters"): the question before a send, which
// cannot be taken back. It names the subject, the articles and the number of confirmed
// subscribers; "Yes, send it" posts the version and that number, and the server asks again when
// either changed meanwhile.

type Props = AdminPagePropsOf<"newsletter-send">;

/** The page's h1 and title: the question, or why there is none. */
export function sendQuestion(send: Props["send"]): string {
  const n = send.recipients;
  return send.blocked
    ? "This newsletter cannot be sent now"
    : `Send to ${n} ${n === 1 ? "subscriber" : "subscribers"}?`;
}

/** Who gets the newsletter, in words that read right for one subscriber as for many. */
export function recipientsText(n: number): string {
  return n === 1
    ? "The one subscriber confirmed now gets a copy."
    : `Each of the ${n.toLocaleString("en-IN")} subscribers confirmed now gets one copy.`;
}

export function NewsletterSendPage({ viewer, send, notice, error }: Props) {
  const n = send.recipients;
  return (
    <AdminLayout viewer={viewer} current="newsletters">
      <p className="text-sm">
        <a href={adminHref("newsletter", { id: send.id })} className="admin-link">
          Back to the newsletter
        </a>
      </p>
      <div className="mt-2">
        <PageHeader title={sendQuestion(send)} />
      </div>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <section aria-labelledby="what-heading" className="admin-card">
        <h2 id="what-heading" className="text-lg font-semibold text-navy-900">
          {send.subject}
        </h2>
        {send.articles.length ? (
          <>
            <p className="mt-2 text-sm text-slate-700">Featuring:</p>
            <ul className="mt-1 list-disc pl-5 text-sm">
              {send.articles.map((title, index) => (
                <li key={index}>{title}</li>
              ))}
            </ul>
          </>
        ) : (
          <p className="mt-2 text-sm text-slate-700">No article is featured.</p>
        )}
        {send.blocked ? (
          <p className="mt-4 text-sm font-medium text-slate-900">{send.blocked}</p>
        ) : (
          <>
            <p className="mt-4 text-sm text-slate-700">
              {recipientsText(n)} Once sent, the newsletter can no longer be changed or sent again.
            </p>
            <form method="post" action={adminHref("newsletterSend", { id: send.id })} className="mt-4 flex gap-2">
              <input type="hidden" name="version" value={send.version} />
              <input type="hidden" name="recipients" value={n} />
              <button type="submit" className="admin-button">
                Yes, send it
              </button>
              <a href={adminHref("newsletter", { id: send.id })} className="admin-button-secondary">
                Cancel
              </a>
            </form>
          </>
        )}
      </section>
    </AdminLayout>
  );
}
