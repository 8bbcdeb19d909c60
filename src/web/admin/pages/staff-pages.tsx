import type { AdminPageProps } from "#shared/admin/pages.ts";
import { adminPaths } from "#shared/admin/pages.ts";
import { formatIndiaDateTime } from "../format.ts";
import { AdminLayout, Messages, PasskeyStatus } from "../layout.tsx";

type Props<Name extends AdminPageProps["page"]> = Extract<AdminPageProps, { page: Name }>;

const methodLabels: Record<string, string> = {
  passkey: "passkey",
  invitation: "invitation",
  "sign-in-link": "one-time link",
};

export function AccountPage({ viewer, passkeys, sessions, notice, error }: Props<"account">) {
  return (
    <AdminLayout viewer={viewer}>
      <h1 className="text-2xl font-bold text-navy-900">Your account</h1>
      <p className="mt-1 text-sm text-slate-600">
        {viewer.name}, {viewer.email} ({viewer.role})
      </p>
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
                  action={`${adminPaths.account}/passkeys/${encodeURIComponent(key.id)}/remove`}
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
                Signed in {formatIndiaDateTime(session.createdAt)} with a{" "}
                {methodLabels[session.method] ?? session.method}; last active {formatIndiaDateTime(session.lastSeenAt)}
              </span>
            </li>
          ))}
        </ul>
        {sessions.length > 1 ? (
          <form method="post" action={`${adminPaths.account}/sessions/end-others`} className="mt-3">
            <button type="submit" className="admin-button-secondary">
              Sign out everywhere else
            </button>
          </form>
        ) : null}
      </section>
    </AdminLayout>
  );
}

export function StaffPage({ viewer, staff, issued, notice, error, form }: Props<"staff">) {
  return (
    <AdminLayout viewer={viewer} current={adminPaths.staff}>
      <h1 className="text-2xl font-bold text-navy-900">Staff</h1>
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      {issued ? (
        <section aria-labelledby="issued-heading" className="admin-card mb-6 border-green-300 bg-green-50">
          <h2 id="issued-heading" className="text-lg font-semibold text-green-900">
            {issued.kind === "invitation" ? "Invitation created" : "Sign-in link created"} for {issued.email}
          </h2>
          <p className="mt-1 text-sm text-green-900">
            {issued.mailed ? "It has been emailed to them. " : "Mail is not configured: give them this link yourself. "}
            {issued.kind === "invitation" ? "It works once, within 24 hours." : "It works once, within 15 minutes."} It
            is shown only now.
          </p>
          <label htmlFor="issued-link" className="admin-label mt-3">
            Link
          </label>
          <input id="issued-link" readOnly value={issued.url} className="admin-input font-mono" data-select-on-focus />
        </section>
      ) : null}

      <section aria-labelledby="people-heading" className="admin-card">
        <h2 id="people-heading" className="text-lg font-semibold text-navy-900">
          People
        </h2>
        <div className="relative mt-3 overflow-x-auto" role="region" aria-label="Members of staff" tabIndex={0}>
          <table className="admin-table">
            <caption className="sr-only">Members of staff, their role and state, and what can be done for each</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">State</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {staff.map((member) => (
                <tr key={member.id}>
                  <td>
                    <span className="font-medium text-slate-900">{member.name}</span>
                    <span className="block text-slate-600">{member.email}</span>
                  </td>
                  <td>{member.role}</td>
                  <td>
                    {member.disabled
                      ? "disabled"
                      : member.passkeys === 0
                        ? "invited (no passkey yet)"
                        : `active, ${member.passkeys} passkey${member.passkeys === 1 ? "" : "s"}`}
                    {member.sessions > 0 ? (
                      <span className="block text-slate-600">
                        {member.sessions} session{member.sessions === 1 ? "" : "s"}
                      </span>
                    ) : null}
                  </td>
                  <td>{member.lastSignInAt ? formatIndiaDateTime(member.lastSignInAt) : "never"}</td>
                  <td>
                    <div className="flex flex-wrap gap-2">
                      {member.disabled ? (
                        <form method="post" action={`${adminPaths.staff}/${member.id}/enable`}>
                          <button type="submit" className="admin-button-secondary">
                            Enable<span className="sr-only"> {member.name}</span>
                          </button>
                        </form>
                      ) : (
                        <>
                          <form method="post" action={`${adminPaths.staff}/${member.id}/sign-in-link`}>
                            <button type="submit" className="admin-button-secondary">
                              Send a sign-in link<span className="sr-only"> to {member.name}</span>
                            </button>
                          </form>
                          {member.sessions > 0 ? (
                            <form
                              method="post"
                              action={`${adminPaths.staff}/${member.id}/end-sessions`}
                              data-confirm={`End every session of ${member.name}?`}
                            >
                              <button type="submit" className="admin-button-secondary">
                                End sessions<span className="sr-only"> of {member.name}</span>
                              </button>
                            </form>
                          ) : null}
                          {member.id !== viewer.id ? (
                            <form
                              method="post"
                              action={`${adminPaths.staff}/${member.id}/disable`}
                              data-confirm={`Disable ${member.name}? Their sessions end at once.`}
                            >
                              <button type="submit" className="admin-button-danger">
                                Disable<span className="sr-only"> {member.name}</span>
                              </button>
                            </form>
                          ) : null}
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="invite-heading" className="admin-card mt-6">
        <h2 id="invite-heading" className="text-lg font-semibold text-navy-900">
          Invite someone
        </h2>
        <form method="post" action={`${adminPaths.staff}/invite`} className="mt-3 grid gap-4 sm:grid-cols-3">
          <div>
            <label htmlFor="invite-name" className="admin-label">
              Name
            </label>
            <input
              id="invite-name"
              name="name"
              type="text"
              autoComplete="off"
              required
              maxLength={100}
              defaultValue={form?.values.name}
              className="admin-input"
            />
          </div>
          <div>
            <label htmlFor="invite-email" className="admin-label">
              Email address
            </label>
            <input
              id="invite-email"
              name="email"
              type="email"
              autoComplete="off"
              required
              defaultValue={form?.values.email}
              className="admin-input"
            />
          </div>
          <div>
            <label htmlFor="invite-role" className="admin-label">
              Role
            </label>
            <select id="invite-role" name="role" defaultValue={form?.values.role ?? "staff"} className="admin-input">
              <option value="staff">Staff: works in the inbox</option>
              <option value="admin">Admin: also manages staff and reads the audit log</option>
            </select>
          </div>
          <div className="sm:col-span-3">
            <button type="submit" className="admin-button">
              Create invitation
            </button>
          </div>
        </form>
      </section>
    </AdminLayout>
  );
}

export function AuditPage({ viewer, events, filter, actions, actors, pageNumber, more }: Props<"audit">) {
  const query = (page: number) => {
    const params = new URLSearchParams({
      ...Object.fromEntries(Object.entries(filter).filter(([, value]) => value)),
      page: String(page),
    });
    return `${adminPaths.audit}?${params.toString()}`;
  };
  return (
    <AdminLayout viewer={viewer} current={adminPaths.audit}>
      <h1 className="text-2xl font-bold text-navy-900">Audit log</h1>
      <form method="get" action={adminPaths.audit} className="admin-card mt-4 grid gap-4 sm:grid-cols-5 sm:items-end">
        <div>
          <label htmlFor="audit-action" className="admin-label">
            Action
          </label>
          <select id="audit-action" name="action" defaultValue={filter.action} className="admin-input">
            <option value="">Any action</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-actor" className="admin-label">
            Who
          </label>
          <select id="audit-actor" name="actor" defaultValue={filter.actor} className="admin-input">
            <option value="">Anyone</option>
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-from" className="admin-label">
            From
          </label>
          <input id="audit-from" name="from" type="date" defaultValue={filter.from} className="admin-input" />
        </div>
        <div>
          <label htmlFor="audit-to" className="admin-label">
            To
          </label>
          <input id="audit-to" name="to" type="date" defaultValue={filter.to} className="admin-input" />
        </div>
        <div>
          <button type="submit" className="admin-button w-full">
            Filter
          </button>
        </div>
      </form>
      <div className="admin-card relative mt-4 overflow-x-auto" role="region" aria-label="Events" tabIndex={0}>
        {events.length === 0 ? (
          <p className="text-slate-700">No events match.</p>
        ) : (
          <table className="admin-table">
            <caption className="sr-only">Back-office events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">From</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id}>
                  <td className="whitespace-nowrap">{formatIndiaDateTime(event.at)}</td>
                  <td>{event.actor}</td>
                  <td className="whitespace-nowrap">{event.action}</td>
                  <td className="break-all">{event.target ?? ""}</td>
                  <td className="whitespace-nowrap">{event.clientAddress ?? ""}</td>
                  <td className="font-mono text-xs break-all">{event.details ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <nav aria-label="Pages of the audit log" className="mt-4 flex gap-3">
        {pageNumber > 1 ? (
          <a href={query(pageNumber - 1)} className="admin-link">
            Newer events
          </a>
        ) : null}
        {more ? (
          <a href={query(pageNumber + 1)} className="admin-link">
            Older events
          </a>
        ) : null}
      </nav>
    </AdminLayout>
  );
}

export function ErrorPage({ viewer, status, title, message }: Props<"error">) {
  const body = (
    <div className="admin-card">
      <h1 className="text-2xl font-bold text-navy-900">{title}</h1>
      <p className="mt-2 text-slate-700">{message}</p>
      <p className="mt-4 text-sm text-slate-500">Status {status}</p>
      <p className="mt-4">
        <a href={viewer ? adminPaths.home : adminPaths.signIn} className="admin-link">
          {viewer ? "Back to the inbox" : "Go to the sign-in page"}
        </a>
      </p>
    </div>
  );
  return viewer ? (
    <AdminLayout viewer={viewer}>{body}</AdminLayout>
  ) : (
    <main className="admin-container py-10">{body}</main>
  );
}
