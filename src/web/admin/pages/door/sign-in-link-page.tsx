import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { DoorLayout } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export function SignInLinkPage({ token, member, notice, error }: AdminPagePropsOf<"sign-in-link">) {
  return (
    <DoorLayout>
      <PageHeader title="Sign in with a one-time link" />
      <Messages notice={notice} error={error} />
      <p className="mt-2 text-sm text-slate-700">
        This link signs in <strong>{member.name}</strong> (<span className="break-all">{member.email}</span>) once.
        After that, add a passkey for this device.
      </p>
      <form method="post" action={adminHref("signInLinkUse", { token })} className="mt-5">
        <button type="submit" className="admin-button w-full">
          Sign in as {member.name}
        </button>
      </form>
    </DoorLayout>
  );
}
