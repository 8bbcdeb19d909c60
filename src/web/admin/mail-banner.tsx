import { createContext, useContext } from "react";
import type { AdminViewer } from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";

// "Mail is failing": a banner across every page behind the sign-in while the Health page's Mail
// line is red (the door puts its reason in every page's props as `mailFailing`; the server entry
// hands it down here, so no page passes it on). Admins get the Health page's link; staff, who
// cannot open it, are told to tell one.

export const MailFailingContext = createContext<string | undefined>(undefined);

export function MailFailingBanner({ viewer }: { viewer: AdminViewer }) {
  const reason = useContext(MailFailingContext);
  if (!reason) return null;
  return (
    <div role="alert" data-mail-failing className="border-b border-red-300 bg-red-50 text-red-950">
      <p className="admin-container py-3 text-sm">
        <span aria-hidden="true" className="mr-1 font-bold">
          ✕
        </span>
        <strong>Mail is failing:</strong> <span className="wrap-anywhere">{reason}</span>{" "}
        {viewer.role === "admin" ? (
          <a href={adminHref("health")} className="font-semibold text-red-950 underline underline-offset-2">
            See the Health page
          </a>
        ) : (
          "Please tell an admin: sign-in links and notifications may not arrive."
        )}
      </p>
    </div>
  );
}
