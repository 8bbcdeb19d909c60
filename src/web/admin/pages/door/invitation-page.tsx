import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { DoorLayout, PasskeyStatus } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { noScript } from "./no-script.tsx";

export function InvitationPage({ token, invitee, notice, error }: AdminPagePropsOf<"invitation">) {
  return (
    <DoorLayout>
      <PageHeader title={`Welcome, ${invitee.name}`} />
      <Messages notice={notice} error={error} />
      <p className="mt-2 text-sm text-slate-700">
        You are invited to the back office as{" "}
        <strong>{invitee.role === "admin" ? "an admin" : "a member of staff"}</strong>, with the address{" "}
        <strong className="break-all">{invitee.email}</strong>.
      </p>
      <p className="mt-2 text-sm text-slate-600">
        There is no password. Create a passkey on this device: your browser will ask for its fingerprint, face or PIN.
        You can add more passkeys (your phone, another computer) later.
      </p>
      <button
        type="button"
        className="admin-button mt-5 w-full"
        data-passkey-action="register-invitation"
        data-invitation={token}
      >
        Create a passkey and sign in
      </button>
      <PasskeyStatus />
      {noScript}
    </DoorLayout>
  );
}
