import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { DoorLayout, PasskeyStatus } from "../../layout.tsx";
import { Field, formStateFor } from "../../ui/field.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { noScript } from "./no-script.tsx";

export function SignInPage(props: AdminPagePropsOf<"sign-in">) {
  const { next, mailConfigured, notice, error } = props;
  return (
    <DoorLayout>
      <PageHeader
        title="Sign in"
        description="Staff sign in with a passkey: the fingerprint, face or PIN of the device they registered."
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      <button type="button" className="admin-button mt-2 w-full" data-passkey-action="sign-in" data-next={next}>
        Sign in with a passkey
      </button>
      <PasskeyStatus />
      {noScript}
      {mailConfigured ? (
        <form method="post" action={adminHref("signInEmail")} className="mt-8 border-t border-slate-200 pt-6">
          <h2 className="text-base font-semibold text-navy-900">Lost your device?</h2>
          <p className="mt-1 text-sm text-slate-600">
            We can email you a link that signs you in once, within 15 minutes.
          </p>
          <input type="hidden" name="next" value={next} />
          <Field
            id="sign-in-email"
            name="email"
            label="Your staff email address"
            type="email"
            autoComplete="email"
            required
            form={formStateFor(props)}
            className="mt-3"
          />
          <button type="submit" className="admin-button-secondary mt-3 w-full">
            Email me a sign-in link
          </button>
        </form>
      ) : (
        <p className="mt-8 border-t border-slate-200 pt-6 text-sm text-slate-600">
          Lost your device? Ask an admin for a sign-in link.
        </p>
      )}
    </DoorLayout>
  );
}
