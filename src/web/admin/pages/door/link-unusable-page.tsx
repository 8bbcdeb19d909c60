import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { DoorLayout } from "../../layout.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export function LinkUnusablePage({ kind }: AdminPagePropsOf<"link-unusable">) {
  const what = kind === "invitation" ? "invitation" : "sign-in link";
  return (
    <DoorLayout>
      <PageHeader title={`This ${what} cannot be used`} />
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
        <a href={adminHref("signIn")} className="admin-link">
          Go to the sign-in page
        </a>
      </p>
    </DoorLayout>
  );
}
