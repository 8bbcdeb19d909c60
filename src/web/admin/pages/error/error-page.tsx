import type { AdminPagePropsOf } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { AdminLayout } from "../../layout.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export function ErrorPage({ viewer, status, title, message }: AdminPagePropsOf<"error">) {
  const body = (
    <div className="admin-card">
      <PageHeader title={title} />
      <p className="mt-2 text-slate-700">{message}</p>
      <p className="mt-4 text-sm text-slate-500">Status {status}</p>
      <p className="mt-4">
        <a href={viewer ? adminHref("inbox") : adminHref("signIn")} className="admin-link">
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
