import type { AdminPagePropsOf, StaffSummary } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { DataTable } from "../../ui/data-table.tsx";
import { Field, formStateFor, SelectField } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

type Props = AdminPagePropsOf<"staff">;

const roleOptions = [
  { value: "staff", label: "Staff" },
  { value: "admin", label: "Admin" },
] as const;

function memberState(member: StaffSummary): string {
  if (member.disabled) return "disabled";
  if (member.passkeys === 0) return "invited (no passkey yet)";
  return `active, ${member.passkeys} passkey${member.passkeys === 1 ? "" : "s"}`;
}

/** A member's role, and for anyone but the viewer a form to change it (the server keeps one admin at least). */
function RoleCell({ member, props }: { member: StaffSummary; props: Props }) {
  if (member.id === props.viewer.id) return <>{member.role}</>;
  // The refused post was this row's form only when it names this member.
  const state = formStateFor(props, "role");
  const form = state?.values.id === member.id ? state : undefined;
  return (
    <form method="post" action={adminHref("staffRole", { id: member.id })} className="flex items-start gap-2">
      <input type="hidden" name="id" value={member.id} />
      <SelectField
        id={`role-${member.id}`}
        name="role"
        label={<span className="sr-only">Role of {member.name}</span>}
        defaultValue={member.role}
        form={form}
        options={roleOptions}
        className="min-w-28"
      />
      <button type="submit" className="admin-button-secondary whitespace-nowrap">
        Change role<span className="sr-only"> of {member.name}</span>
      </button>
    </form>
  );
}

/**
 * Whether a member may publish (decision 038): admins always may; for staff, the state and a form
 * that turns it the other way.
 */
function CanPublishCell({ member }: { member: StaffSummary }) {
  if (member.role === "admin") return <>Yes (admins always can)</>;
  return (
    <form
      method="post"
      action={adminHref("staffCanPublish", { id: member.id })}
      className="flex flex-wrap items-center gap-2"
    >
      <span data-can-publish={member.canPublish ? "true" : "false"}>{member.canPublish ? "Yes" : "No"}</span>
      <input type="hidden" name="canPublish" value={member.canPublish ? "false" : "true"} />
      <button type="submit" className="admin-button-secondary whitespace-nowrap">
        {member.canPublish ? "Stop publishing" : "Allow publishing"}
        <span className="sr-only"> for {member.name}</span>
      </button>
    </form>
  );
}

function MemberActions({ member, viewerId }: { member: StaffSummary; viewerId: string }) {
  if (member.disabled) {
    return (
      <form method="post" action={adminHref("staffEnable", { id: member.id })}>
        <button type="submit" className="admin-button-secondary">
          Enable<span className="sr-only"> {member.name}</span>
        </button>
      </form>
    );
  }
  return (
    <div className="flex flex-wrap gap-2">
      <form method="post" action={adminHref("staffSignInLink", { id: member.id })}>
        <button type="submit" className="admin-button-secondary">
          Send a sign-in link<span className="sr-only"> to {member.name}</span>
        </button>
      </form>
      {member.sessions > 0 ? (
        <form
          method="post"
          action={adminHref("staffEndSessions", { id: member.id })}
          data-confirm={`End every session of ${member.name}?`}
        >
          <button type="submit" className="admin-button-secondary">
            End sessions<span className="sr-only"> of {member.name}</span>
          </button>
        </form>
      ) : null}
      {member.id !== viewerId ? (
        <form
          method="post"
          action={adminHref("staffDisable", { id: member.id })}
          data-confirm={`Disable ${member.name}? Their sessions end at once.`}
        >
          <button type="submit" className="admin-button-danger">
            Disable<span className="sr-only"> {member.name}</span>
          </button>
        </form>
      ) : null}
    </div>
  );
}

export function StaffPage(props: Props) {
  const { viewer, staff, issued, notice, error } = props;
  const invite = formStateFor(props, "invite");
  return (
    <AdminLayout viewer={viewer} current="staff">
      <PageHeader title="Staff" />
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
        <DataTable
          label="Members of staff"
          caption="Members of staff, their role and state, and what can be done for each"
          className="mt-3"
          rows={staff}
          rowKey={(member) => member.id}
          columns={[
            {
              header: "Name",
              cell: (member) => (
                <>
                  <span className="font-medium text-slate-900">{member.name}</span>
                  <span className="block text-slate-600">{member.email}</span>
                </>
              ),
            },
            { header: "Role", cell: (member) => <RoleCell member={member} props={props} /> },
            {
              header: "State",
              cell: (member) => (
                <>
                  {memberState(member)}
                  {member.sessions > 0 ? (
                    <span className="block text-slate-600">
                      {member.sessions} session{member.sessions === 1 ? "" : "s"}
                    </span>
                  ) : null}
                </>
              ),
            },
            { header: "Can publish", cell: (member) => <CanPublishCell member={member} /> },
            {
              header: "Last sign-in",
              cell: (member) => (member.lastSignInAt ? formatIndiaDateTime(member.lastSignInAt) : "never"),
            },
            { header: "Actions", cell: (member) => <MemberActions member={member} viewerId={viewer.id} /> },
          ]}
        />
      </section>

      <section aria-labelledby="invite-heading" className="admin-card mt-6">
        <h2 id="invite-heading" className="text-lg font-semibold text-navy-900">
          Invite someone
        </h2>
        <form method="post" action={adminHref("staffInvite")} className="mt-3 grid gap-4 sm:grid-cols-3">
          <Field
            id="invite-name"
            name="name"
            label="Name"
            type="text"
            autoComplete="off"
            required
            maxLength={100}
            form={invite}
          />
          <Field
            id="invite-email"
            name="email"
            label="Email address"
            type="email"
            autoComplete="off"
            required
            form={invite}
          />
          <SelectField
            id="invite-role"
            name="role"
            label="Role"
            defaultValue="staff"
            form={invite}
            hint="Inviting someone who already has an account sends them a new link; it does not change their role."
            options={[
              { value: "staff", label: "Staff: works in the inbox and writes articles" },
              { value: "admin", label: "Admin: also manages staff and reads the audit log" },
            ]}
          />
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
