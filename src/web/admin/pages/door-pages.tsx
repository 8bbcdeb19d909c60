import type { AdminPageProps } from "#shared/admin/pages.ts";
import { adminPaths } from "#shared/admin/pages.ts";
import { DoorLayout, Messages, PasskeyStatus } from "../layout.tsx";

type Props<Name extends AdminPageProps["page"]> = Extract<AdminPageProps, { page: Name }>;

const noScript = (
  <noscript>
    <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
      Passkeys need JavaScript: turn it on for this site to use one.
    </p>
  </noscript>
);

export function SignInPage({ next, mailConfigured, notice, error, form }: Props<"sign-in">) {
  const email = form?.values.email;
  return (
    <DoorLayout>
      <h1 className="text-2xl font-bold text-navy-900">Sign in</h1>
      <p className="mt-2 text-sm text-slate-600">
        Staff sign in with a passkey: the fingerprint, face or PIN of the device they registered.
      </p>
      <div className="mt-4">
        <Messages notice={notice} error={error ?? form?.errors.email} />
      </div>
      <button type="button" className="admin-button mt-2 w-full" data-passkey-action="sign-in" data-next={next}>
        Sign in with a passkey
      </button>
      <PasskeyStatus />
      {noScript}
      {mailConfigured ? (
        <form method="post" action={adminPaths.signInEmail} className="mt-8 border-t border-slate-200 pt-6">
          <h2 className="text-base font-semibold text-navy-900">Lost your device?</h2>
          <p className="mt-1 text-sm text-slate-600">
            We can email you a link that signs you in once, within 15 minutes.
          </p>
          <input type="hidden" name="next" value={next} />
          <label htmlFor="sign-in-email" className="admin-label mt-3">
            Your staff email address
          </label>
          <input
            id="sign-in-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={email}
            className="admin-input"
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

export function InvitationPage({ token, invitee }: Props<"invitation">) {
  return (
    <DoorLayout>
      <h1 className="text-2xl font-bold text-navy-900">Welcome, {invitee.name}</h1>
      <p className="mt-2 text-sm text-slate-700">
        You are invited to the back office as{" "}
        <strong>{invitee.role === "admin" ? "an admin" : "a member of staff"}</strong>, with the address{" "}
        <strong>{invitee.email}</strong>.
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

export function SignInLinkPage({ token, member }: Props<"sign-in-link">) {
  return (
    <DoorLayout>
      <h1 className="text-2xl font-bold text-navy-900">Sign in with a one-time link</h1>
      <p className="mt-2 text-sm text-slate-700">
        This link signs in <strong>{member.name}</strong> ({member.email}) once. After that, add a passkey for this
        device.
      </p>
      <form method="post" action={adminPaths.signInLink(token)} className="mt-5">
        <button type="submit" className="admin-button w-full">
          Sign in as {member.name}
        </button>
      </form>
    </DoorLayout>
  );
}

export function LinkUnusablePage({ kind }: Props<"link-unusable">) {
  const what = kind === "invitation" ? "invitation" : "sign-in link";
  return (
    <DoorLayout>
      <h1 className="text-2xl font-bold text-navy-900">This {what} cannot be used</h1>
      <p className="mt-2 text-sm text-slate-700">
        It has been used already, it has expired (
        {kind === "invitation" ? "invitations last 24 hours" : "sign-in links last 15 minutes"}), or the account was
        disabled. Each link works once.
      </p>
      <p className="mt-2 text-sm text-slate-700">
        {kind === "invitation"
          ? "Ask an admin for a new invitation."
          : "Ask for a new link on the sign-in page, or ask an admin."}
      </p>
      <p className="mt-5">
        <a href={adminPaths.signIn} className="admin-link">
          Go to the sign-in page
        </a>
      </p>
    </DoorLayout>
  );
}
