import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout, PasskeyStatus } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

/** How a session began, with its article: "with a passkey", "with an invitation". */
export const methodLabels: Record<string, string> = {
  passkey: "a passkey",
  invitation: "an invitation",
  "sign-in-link": "a one-time link",
};

export function AccountPage({ viewer, passkeys, sessions, notice, error }: AdminPagePropsOf<"account">) {
  return (
    <AdminLayout viewer={viewer}>
      <PageHeader title="Your account" description={`${viewer.name}, ${viewer.email} (${viewer.role})`} />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>

      <section aria-labelledby="passkeys-heading" className="admin-card mt-4">
        <h2 id="passkeys-heading" className="text-lg font-semibold text-navy-900">
          Passkeys
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Each passkey signs you in from one device (or one password manager). Add one for every device you work from.
        </p>
        {passkeys.length === 0 ? (
          <p className="mt-3 text-sm text-slate-700">You have no passkey yet.</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200">
            {passkeys.map((key) => (
              <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="text-sm">
                  <p className="font-medium text-slate-900">{key.label}</p>
                  <p className="text-slate-600">
                    Added {formatIndiaDateTime(key.createdAt)};{" "}
                    {key.lastUsedAt ? `last used ${formatIndiaDateTime(key.lastUsedAt)}` : "not used to sign in yet"}
                  </p>
                </div>
                <form
                  method="post"
                  action={adminHref("passkeyRemove", { id: key.id })}
                  data-confirm={`Remove the passkey "${key.label}"? It will no longer sign you in.`}
                >
                  <button type="submit" className="admin-button-danger">
                    Remove<span className="sr-only"> passkey {key.label}</span>
                  </button>
                </form>
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="admin-button mt-4" data-passkey-action="register">
          Add a passkey on this device
        </button>
        <PasskeyStatus />
      </section>

      <section aria-labelledby="sessions-heading" className="admin-card mt-6">
        <h2 id="sessions-heading" className="text-lg font-semibold text-navy-900">
          Where you are signed in
        </h2>
        <ul className="mt-3 divide-y divide-slate-200 text-sm">
          {sessions.map((session, index) => (
            <li key={index} className="py-2">
              <span className="font-medium text-slate-900">{session.device || "A browser"}</span>
              {session.current ? (
                <span className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
                  this browser
                </span>
              ) : null}
              <span className="block text-slate-600">
                Signed in {formatIndiaDateTime(session.createdAt)} with {methodLabels[session.method] ?? session.method}
                ; last active {formatIndiaDateTime(session.lastSeenAt)}
              </span>
            </li>
          ))}
        </ul>
        {sessions.length > 1 ? (
          <form method="post" action={adminHref("endOtherSessions")} className="mt-3">
            <button type="submit" className="admin-button-secondary">
              Sign out everywhere else
            </button>
          </form>
        ) : null}
      </section>
    </AdminLayout>
  );
}
